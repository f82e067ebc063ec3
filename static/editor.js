// The house-variant editor: each deal's sum and the whole game's follow every change.
// The server works them out (the same rules that will check the saved variant); without
// JavaScript the "Show the sums" button posts the form and the page shows them.
(function () {
  "use strict";
  var form = document.querySelector("form[data-editor]");
  if (!form || !window.fetch) { return; }
  var refresh = form.querySelector("button[name=action][value=refresh]");
  var timer = null;
  var asked = 0;

  function show(data) {
    var text = data.text || {};  // the sums as the page writes them (+1300, +1,300)
    var j = 0;
    form.querySelectorAll("output[data-slot]").forEach(function (out) {
      var select = form.querySelector("select[name='deal." + out.dataset.slot + "']");
      out.textContent = select && select.value && data.deals ? text.deals[j++] : "";
    });
    form.querySelectorAll("output[data-contract]").forEach(function (out) {
      var v = data.contracts ? data.contracts[out.dataset.contract] : undefined;
      out.textContent = v === undefined ? "\u2013" : text.contracts[out.dataset.contract];
    });
    var game = form.querySelector("output[data-game]");
    game.textContent = data.game === null ? "\u2013" : text.game;
    form.querySelector("[data-balanced]").hidden = data.game !== 0;
    form.querySelector("[data-unbalanced]").hidden = data.game === null || data.game === 0;
    document.querySelectorAll("[data-errors-for]").forEach(function (box) {
      box.textContent = "";
      (data.errors[box.dataset.errorsFor] || []).forEach(function (message) {
        var p = document.createElement("p");
        p.className = "error";
        p.textContent = message;
        box.appendChild(p);
      });
    });
  }

  function ask() {
    var body = new FormData(form);
    body.set("action", "sums");
    var mine = ++asked;
    // (form.action would be the buttons named "action")
    fetch(form.getAttribute("action") || window.location.href, {method: "POST", body: body,
      headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && mine === asked) { show(data); } })
      .catch(function () { /* offline: the sums come with the next post */ });
  }

  form.addEventListener("input", function (event) {
    if (event.target.name === "doc") { return; }
    clearTimeout(timer);
    timer = setTimeout(ask, 250);
  });
  form.addEventListener("change", function (event) {
    // Deal 6's tricks bring their own points: the page is drawn again with them.
    if (event.target.hasAttribute("data-reload")) {
      if (form.requestSubmit) { form.requestSubmit(refresh); } else { refresh.click(); }
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(ask, 100);
  });
})();
