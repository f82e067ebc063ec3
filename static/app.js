// Kierki scorekeeper: small speed-ups on top of plain forms. Everything works without it.
(function () {
  "use strict";

  // Deal entry (quick pickers, the last count filled in) lives in entry.js.

  // A choice that reshapes the form (the trick checker's rules) sends it at once; without
  // JavaScript the form's own submit button does the same. (Listened for on the document:
  // static/taps.js may put a new select in place of the first.)
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (select.matches && select.matches("select[data-autosubmit]") && select.form) {
      select.form.submit();
    }
  });

  // A form sent once: a second tap while it is on its way does nothing.
  document.querySelectorAll("form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.dataset.sent) { event.preventDefault(); return; }
      form.dataset.sent = "1";
    });
  });

  // New game: show as many name fields as the ruleset has players; dealer labels follow names.
  var ruleset = document.querySelector("select[data-rulesets]");
  if (ruleset) {
    var info = JSON.parse(ruleset.dataset.rulesets);
    var link = document.querySelector("[data-rules-link]");
    var update = function () {
      var players = (info[ruleset.value] || {}).players || 4;
      document.querySelectorAll("[data-seat]").forEach(function (el) {
        var seat = parseInt(el.dataset.seat, 10);
        if (!isNaN(seat)) { el.hidden = seat >= players; }
      });
      var family = (info[ruleset.value] || {}).family || "";
      document.querySelectorAll("[data-family]").forEach(function (el) {
        el.hidden = el.dataset.family !== family;
      });
      // A hidden name is not sent: the seats beyond the ruleset's players are emptied.
      document.querySelectorAll("input[name^=player_]").forEach(function (input) {
        if (parseInt(input.name.split("_")[1], 10) >= players) { input.value = ""; }
      });
      if (link) { link.href = link.href.replace(/[^/]+$/, encodeURIComponent(ruleset.value)); }
    };
    ruleset.addEventListener("change", update);
    update();
    document.querySelectorAll("input[name^=player_]").forEach(function (input) {
      var seat = input.name.split("_")[1];
      var label = document.querySelector(".choice[data-seat='" + seat + "'] span");
      if (!label) { return; }
      var original = label.textContent;
      var sync = function () { label.textContent = input.value.trim() || original; };
      input.addEventListener("input", sync);
      sync();
    });
  }

  // The service worker (templates/sw.js): the app installable, and the last copy of each
  // game page shown when the Wi-Fi drops. Browsers without it work as before.
  var worker = document.querySelector('meta[name="service-worker"]');
  if (worker && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker.content, { scope: "/" }).catch(function () {});
  }
}());
window.addEventListener("pageshow", function () {
  document.querySelectorAll("form[data-sent]").forEach(function (f) { delete f.dataset.sent; });
});
