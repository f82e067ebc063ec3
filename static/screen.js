// The screen while a game is open: kept awake where the browser can (Wake Lock API).
// Everything here is an extra: where a browser lacks it, nothing happens and nothing breaks.
(function () {
  "use strict";

  // A game page marks its live parts (data-live); there and on the loteryjka board the
  // screen is kept on.
  if (!document.querySelector("[data-live], section.board") || !("wakeLock" in navigator)) { return; }
  var lock = null;
  var asking = false;
  var wanted = true;

  function request() {
    if (!wanted || lock || asking || document.visibilityState !== "visible") { return; }
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      lock = sentinel;
      // The browser drops the lock when the page is hidden; ask again when it is back.
      sentinel.addEventListener("release", function () { lock = null; });
      if (!wanted) { release(); }
    }).catch(function () { asking = false; lock = null; });  // refused (battery saver): fine
  }

  function release() {
    wanted = false;
    if (lock) {
      var held = lock;
      lock = null;
      held.release().catch(function () {});
    }
  }

  document.addEventListener("visibilitychange", request);
  window.addEventListener("pageshow", function () { wanted = true; request(); });
  window.addEventListener("pagehide", release);
  // Some browsers grant the lock only after a tap: try again on the first one.
  document.addEventListener("pointerdown", request, { passive: true });
  request();
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
