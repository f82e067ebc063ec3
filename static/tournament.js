// A tournament's live pages: the projector (/tournaments/<id>/screen) and a player's phone
// page follow every table's saves (issue 27).
//
// The page's box names the tournament's event stream, its version URL (polled when the
// stream cannot be kept) and its live part's URL. On a newer version the live part is
// fetched again and put in place of this page's, with at most one fetch in flight: an event
// during a fetch asks for one more fetch after it, and two fetches start at least
// data-min-gap ms apart, so a busy club (many saves a second) costs a page a few fetches
// a second at most. Long lists ([data-pages]) page by themselves every 10 s when they do
// not fit, so the projector needs no input.
(function () {
  "use strict";

  var box = document.querySelector(".tour-box[data-events-url]");
  if (!box || !window.fetch || !window.DOMParser) { return; }

  var POLL_MS = 5000;
  var PAGE_MS = 10000;
  var MAX_ERRORS = 3; // stream errors in a row before polling takes over
  // The least time between two fetches' starts (data-min-gap, ms): a projector 0.5 s, a
  // phone more, so a club saving many deals a second costs each page a bounded number.
  var MIN_GAP_MS = parseInt(box.dataset.minGap, 10) || 500;
  var lastStart = 0;
  var source = null;
  var errors = 0;
  var polling = null;
  var busy = false;
  var again = false;

  function live(root) { return root.querySelector("[data-tour-live]"); }
  function known() {
    var el = live(document);
    return el ? parseInt(el.dataset.version, 10) || 0 : 0;
  }

  // -- paging: each [data-pages] list shows a screenful at a time -----------------------
  var pages = {}; // list name -> the index of the first item shown

  function firstItems(list) {
    // The index of each page's first item, measured with every item shown: an item that
    // would end below the list's foot starts the next page (a grid's row starts together).
    var items = list.children;
    var starts = [0];
    if (!items.length) { return starts; }
    var top = items[0].offsetTop;
    for (var i = 1; i < items.length; i++) {
      if (items[i].offsetTop + items[i].offsetHeight - top > list.clientHeight + 1) {
        starts.push(i);
        top = items[i].offsetTop;
      }
    }
    return starts;
  }

  // Show one page of the list: its whole items only (no row cut in half at the foot).
  function showPage(list, advance) {
    var name = list.dataset.pages;
    var items = list.children;
    Array.prototype.forEach.call(items, function (item) { item.hidden = false; });
    list.scrollTop = 0;
    var starts = firstItems(list);
    var index = Math.max(0, starts.indexOf(pages[name] || 0));
    if (advance) { index = (index + 1) % starts.length; }
    pages[name] = starts[index];
    var end = index + 1 < starts.length ? starts[index + 1] : items.length;
    Array.prototype.forEach.call(items, function (item, i) {
      item.hidden = i < starts[index] || i >= end;
    });
    var label = list.parentNode.querySelector("[data-page-no]");
    if (label) { label.textContent = starts.length > 1 ? (index + 1) + "/" + starts.length : ""; }
    list.dataset.page = String(index + 1);
    list.dataset.pageCount = String(starts.length);
  }

  function pageAll(advance) {
    Array.prototype.forEach.call(document.querySelectorAll("[data-pages]"), function (list) {
      showPage(list, advance);
    });
  }

  // -- live ------------------------------------------------------------------------------
  function apply(doc) {
    var fresh = live(doc);
    var old = live(document);
    if (!fresh || !old) { return; }
    if ((parseInt(fresh.dataset.version, 10) || 0) < known()) { return; } // an older answer
    old.replaceWith(document.importNode(fresh, true));
    pageAll(false);
  }

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    var wait = lastStart + MIN_GAP_MS - Date.now();
    if (wait > 0) { window.setTimeout(start, wait); } else { start(); }
  }

  function start() {
    lastStart = Date.now();
    fetch(box.dataset.partUrl, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) { throw new Error(String(r.status)); }
        return r.text();
      })
      .then(function (html) {
        apply(new DOMParser().parseFromString("<body>" + html + "</body>", "text/html"));
      })
      .catch(function () { /* the next change, or the next poll, tries again */ })
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  function seen(version) {
    if (typeof version === "number" && version > known()) { refresh(); }
  }

  function poll() {
    fetch(box.dataset.versionUrl, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) { seen(data.version); } })
      .catch(function () {});
  }

  function startPolling() {
    if (polling === null) { polling = window.setInterval(poll, POLL_MS); }
    box.dataset.stream = "polling";
  }

  function connect() {
    if (!window.EventSource) { startPolling(); return; }
    source = new window.EventSource(box.dataset.eventsUrl);
    source.onopen = function () {
      errors = 0;
      box.dataset.stream = "open"; // what the tests wait for
      poll(); // a change made while the stream was opening
    };
    source.addEventListener("version", function (event) {
      errors = 0;
      try { seen(JSON.parse(event.data).version); } catch (e) { /* not ours */ }
    });
    source.onerror = function () {
      errors += 1;
      if (source.readyState === window.EventSource.CLOSED || errors >= MAX_ERRORS) {
        source.close();
        startPolling();
      }
    };
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { poll(); } // a phone back from the pocket: catch up at once
  });
  window.addEventListener("resize", function () { pageAll(false); });
  pageAll(false);
  if (document.querySelector("[data-pages]")) {
    window.setInterval(function () { pageAll(true); }, PAGE_MS);
  }
  connect();
}());
