// Follow a version: what the live pages share (static/live.js, a game's page; static/tournament.js,
// a tournament's projector and players' pages).
//
// KierkiFollow.follow(box, options) opens the EventSource named by box's data-events-url and,
// on each `version` event newer than options.known(), calls options.update(): the page's own
// fetch of what changed, a promise. At most one update is in flight: a change during one asks
// for one more after it, and two start at least options.minGap ms apart. When the stream keeps
// failing, or is refused (a 503 when the server's stream budget is spent), the page asks for
// box's data-version-url every 5 s instead, and tries the stream again after 1 min, then after
// twice as long each time it fails again (at most 8 min). box's data-stream says which:
// "open" or "polling" (what the tests wait for). A page on its way out (pagehide, or a
// navigation started: its own form sent, say) fetches nothing more; one shown again from the
// back/forward cache catches up and reconnects. A phone back from the pocket catches up at once.
//
// KierkiFollow.text(url) fetches a page (or a fragment) as text, refused unless 2xx.
(function () {
  "use strict";

  var POLL_MS = 5000;
  var MAX_ERRORS = 3; // stream errors in a row before polling takes over
  var RETRY_MS = 60000; // the first try of the stream again (a refused stream says 60 s)
  var MAX_RETRY_MS = 480000;

  function text(url) {
    return fetch(url, { cache: "no-store", credentials: "same-origin" }).then(function (r) {
      if (!r.ok) { throw new Error(String(r.status)); }
      return r.text();
    });
  }

  // options: known() -> the version the page shows; update() -> a promise (fetch and apply);
  // failed(error) when an update fails (not on the way out); events: {name: handler(source)}
  // for the stream's other events that end it (a game deleted); on: {name: handler(data)}
  // for other events the stream goes on after (the parsed JSON of their data), also called
  // with the polled answer when it holds that name (a game's later round: "round");
  // minGap (ms, 0 by default).
  function follow(box, options) {
    var minGap = options.minGap || 0;
    var source = null;
    var errors = 0;
    var polling = null;
    var retry = null;
    var retryMs = RETRY_MS;
    var busy = false;
    var again = false;
    var lastStart = 0;
    var leaving = false;

    function start() {
      if (leaving) { busy = again = false; return; }
      lastStart = Date.now();
      Promise.resolve().then(options.update).catch(function (error) {
        if (!leaving && options.failed) { options.failed(error); }
      }).then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
    }

    function refresh() {
      if (leaving) { return; }
      if (busy) { again = true; return; }
      busy = true;
      var wait = lastStart + minGap - Date.now();
      if (wait > 0) { window.setTimeout(start, wait); } else { start(); }
    }

    function seen(version) {
      if (typeof version === "number" && version > options.known()) { refresh(); }
    }

    function poll() {
      if (document.hidden || leaving) { return; }
      fetch(box.dataset.versionUrl, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (!data) { return; }
          seen(data.version);
          Object.keys(options.on || {}).forEach(function (name) {
            if (data[name] !== undefined) { options.on[name](data); }
          });
        })
        .catch(function () {});
    }

    function stopPolling() {
      if (polling !== null) { window.clearInterval(polling); polling = null; }
      if (retry !== null) { window.clearTimeout(retry); retry = null; }
    }

    function startPolling() {
      if (polling === null) { polling = window.setInterval(poll, POLL_MS); }
      box.dataset.stream = "polling";
      if (retry === null && window.EventSource && !leaving) {
        retry = window.setTimeout(function () { retry = null; connect(); }, retryMs);
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      }
    }

    function close() {
      if (source) { source.close(); source = null; }
    }

    function connect() {
      if (!window.EventSource) { startPolling(); return; }
      close();
      errors = 0;
      var own = source = new window.EventSource(box.dataset.eventsUrl);
      own.onopen = function () {
        errors = 0;
        retryMs = RETRY_MS;
        stopPolling();
        box.dataset.stream = "open";
        poll(); // a change made while the stream was opening
      };
      own.addEventListener("version", function (event) {
        errors = 0;
        try { seen(JSON.parse(event.data).version); } catch (e) { /* not ours */ }
      });
      Object.keys(options.on || {}).forEach(function (name) {
        own.addEventListener(name, function (event) {
          var data = null;
          try { data = JSON.parse(event.data); } catch (e) { return; }
          options.on[name](data);
        });
      });
      Object.keys(options.events || {}).forEach(function (name) {
        own.addEventListener(name, function () {
          stopPolling();
          close();
          options.events[name]();
        });
      });
      own.onerror = function () {
        // A stream that ended by itself reconnects (and opens: errors back to 0); one that
        // keeps failing, or was refused, gives way to polling.
        errors += 1;
        if (own.readyState === window.EventSource.CLOSED || errors >= MAX_ERRORS) {
          own.close();
          if (source === own) { source = null; }
          startPolling();
        }
      };
    }

    // "beforeunload" comes when a navigation starts, and only if one does: a form another
    // script keeps for later (static/offline.js) does not count.
    window.addEventListener("beforeunload", function () { leaving = true; });
    window.addEventListener("pagehide", function () {
      leaving = true;
      stopPolling();
      close();
    });
    window.addEventListener("pageshow", function (event) {
      if (!event.persisted) { return; }
      leaving = false; // shown again from the browser's back/forward cache
      connect();
    });
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) { poll(); } // back from the pocket: catch up at once
    });
    connect();
    return { refresh: refresh, poll: poll };
  }

  window.KierkiFollow = { follow: follow, text: text };
}());
