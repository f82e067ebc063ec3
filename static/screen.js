// The screen while a game is open: kept on, unless this phone's player turned it off with
// "Keep the screen on" (the choice is kept in this browser's localStorage).
//
// Where the browser has the Screen Wake Lock API (HTTPS, or localhost) it is asked for the
// lock. Over plain HTTP there is no such API (browsers give it to secure contexts only), so
// the approach of NoSleep.js is used instead: a tiny video, started by a tap, that plays on
// and on while the game is open. The files are static/keepawake.webm and .mp4, from this
// server (the Content-Security-Policy allows no data: media). A browser keeps the screen on
// for a playing video only on its own conditions, which shape the video:
// - Chromium: the video covers a fifth of the window and is on screen, or it is heard: so it
//   covers the window, transparent and under the page, muted;
// - Safari (WebKit) and Firefox: it has a sound track (the files carry two seconds of
//   silence); Safari also wants it not muted and not looping by the `loop` attribute: so
//   it is not muted there (nothing is heard) and loops by going back to its start.
// Everything here is an extra: where neither works, nothing happens and nothing breaks.
(function () {
  "use strict";

  // A game page marks its live parts (data-live); there and on the loteryjka board the
  // screen is kept on.
  if (!document.querySelector("[data-live], section.board")) { return; }
  var KEY = "kierki-keep-awake";
  var script = document.currentScript && document.currentScript.src;
  var folder = (script || "/static/screen.js").replace(/screen\.js(\?.*)?$/, "");
  var toggle = document.querySelector("[data-keep-awake]");
  var box = toggle && toggle.querySelector("input[type=checkbox]");
  var native = "wakeLock" in navigator;
  var webkit = /Apple/.test(navigator.vendor || "");
  var lock = null;
  var asking = false;
  var video = null;
  var wanted = true;
  try { wanted = localStorage.getItem(KEY) !== "off"; } catch (e) { /* private mode: on */ }

  function holding() { return native ? !!lock : !!(video && !video.paused); }

  // The toggle says what was chosen; data-state says what the phone does: "on", "off", or
  // "waiting" (chosen, but not held yet: the browser waits for a tap, or refused).
  function show() {
    if (!toggle) { return; }
    if (box) { box.checked = wanted; }
    toggle.dataset.state = holding() ? "on" : (wanted ? "waiting" : "off");
    toggle.dataset.way = native ? "wake-lock" : "video";
  }

  function requestLock() {
    if (lock || asking) { return; }
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      lock = sentinel;
      // The browser drops the lock when the page is hidden; it is asked again when back.
      sentinel.addEventListener("release", function () { lock = null; show(); });
      if (!wanted || document.visibilityState !== "visible") { drop(); }
      show();
    }).catch(function () { asking = false; lock = null; show(); });  // refused: fine
  }

  function makeVideo() {
    var v = document.createElement("video");
    v.className = "keep-awake-video";
    v.setAttribute("playsinline", "");
    v.setAttribute("aria-hidden", "true");
    v.setAttribute("title", "");
    v.tabIndex = -1;
    v.playsInline = true;
    v.preload = "auto";
    v.disablePictureInPicture = true;
    v.disableRemotePlayback = true;
    v.muted = !webkit;
    if (v.muted) { v.setAttribute("muted", ""); }
    var s = v.style;
    s.position = "fixed";
    s.top = s.left = "0";
    s.width = s.height = "100%";
    s.opacity = "0.01";
    s.zIndex = "-1";
    s.pointerEvents = "none";
    s.objectFit = "cover";
    [["keepawake.webm", "video/webm"], ["keepawake.mp4", "video/mp4"]].forEach(function (f) {
      var source = document.createElement("source");
      source.src = folder + f[0];
      source.type = f[1];
      v.appendChild(source);
    });
    // Round and round without the loop attribute (see above).
    v.addEventListener("timeupdate", function () { if (v.currentTime > 1) { v.currentTime = 0; } });
    v.addEventListener("ended", function () { v.currentTime = 0; start(); });
    v.addEventListener("playing", show);
    v.addEventListener("pause", show);
    document.body.appendChild(v);
    return v;
  }

  function start() {
    if (!video) { video = makeVideo(); }
    if (!video.paused) { return; }
    var played = video.play();
    if (played && played.catch) { played.catch(show); }  // no tap yet: the next one starts it
  }

  function hold() {
    if (!wanted || document.visibilityState !== "visible") { return; }
    if (native) { requestLock(); } else { start(); }
  }

  function drop() {
    if (lock) {
      var held = lock;
      lock = null;
      held.release().catch(function () {});
    }
    if (video && !video.paused) { video.pause(); }
    show();
  }

  function sync() {
    if (wanted && document.visibilityState === "visible") { hold(); } else { drop(); }
  }

  if (toggle) {
    toggle.hidden = false;
    if (box) {
      box.addEventListener("change", function () {
        wanted = box.checked;
        try { localStorage.setItem(KEY, wanted ? "on" : "off"); } catch (e) { /* kept for this page */ }
        sync();
      });
    }
  }
  document.addEventListener("visibilitychange", sync);
  window.addEventListener("pageshow", sync);
  window.addEventListener("pagehide", drop);
  // A video starts (and some browsers grant the lock) only after a tap: try on each one
  // until it holds (events a browser counts as the user's activation).
  ["click", "touchend", "keydown"].forEach(function (name) {
    document.addEventListener(name, function () { if (!holding()) { hold(); } },
                              { capture: true, passive: true });
  });
  show();
  hold();
}());

// The set-up form: under the ruleset choice, one line on what is special in it.
(function () {
  "use strict";

  var summary = document.getElementById("ruleset-summary");
  var select = document.querySelector("select[data-rulesets]");
  if (!summary || !select) { return; }
  var name = summary.querySelector(".rs-name");
  var text = summary.querySelector(".rs-text");
  var about = {};
  try { about = JSON.parse(summary.dataset.summaries || "{}"); } catch (e) { return; }
  function show() {
    var chosen = about[select.value] || ["", ""];
    if (name) { name.textContent = chosen[0]; }
    if (text) { text.textContent = chosen[1]; }
  }
  select.addEventListener("change", show);
  show();
}());
