// A Wi-Fi drop at the table: a deal saved while the server cannot be reached is kept on
// this phone and sent when it can be reached again. Only a help: without JavaScript the
// form is sent as always (and a dropped network shows the browser's own error).
//
// - On "save", if the phone knows it is offline (navigator.onLine), the deal's form (its
//   CSRF token and the version this page showed included) is kept in localStorage
//   instead of being sent, and the page says so. (A phone that still believes it is
//   online, say on mobile data, sends the form as usual and shows the browser's error;
//   "back" returns to the form with its taps.)
// - Kept deals are sent on every page load, on the "online" event, when the service
//   worker's Background Sync asks, and every few seconds (at most 15) while any is kept. They go to the same
//   address as the form, so the server checks everything as usual, the version too: if
//   another phone changed the game meanwhile, the server answers 409, nothing is saved,
//   and this phone says so and shows the game as it now is. Nothing is overwritten.
(function () {
  "use strict";

  var KEY = "kierki-kept-deals";
  var SAID = "kierki-said:"; // + a game page's path: what to tell after the reload
  var RETRY_MS = 15000; // the longest wait between tries; the first comes after 1 s
  var box = document.querySelector("[data-kept-note]");
  var offlineNote = document.querySelector("[data-offline-note]");
  var sending = false;
  var timer = null;
  var wait = 1000;

  function kept() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function keep(list) {
    try { window.localStorage.setItem(KEY, JSON.stringify(list)); } catch (e) { /* full */ }
  }
  function here() { return window.location.pathname; }
  function text(name, n) { return box ? (box.dataset[name] || "").replace("{n}", String(n)) : ""; }

  function showKept() {
    if (!box) { return; }
    var mine = kept().filter(function (d) { return d.page === here(); });
    box.hidden = !mine.length;
    box.textContent = mine.length ? text("kept", mine[0].number) : "";
    document.querySelectorAll("form.deal-form button[type=submit]").forEach(function (b) {
      b.disabled = mine.length > 0; // one deal at a time: the next needs the server's answer
    });
  }

  // What happened to a kept deal, told on its game's page (after the reload, or now).
  function tell(page, ok, message) {
    try { window.sessionStorage.setItem(SAID + page, JSON.stringify([ok, message])); } catch (e) {}
  }
  function told() {
    var said = null;
    try {
      said = JSON.parse(window.sessionStorage.getItem(SAID + here()) || "null");
      window.sessionStorage.removeItem(SAID + here());
    } catch (e) { return; }
    if (!said || !box) { return; }
    var p = document.createElement("p");
    p.className = "flash " + (said[0] ? "ok" : "error");
    p.setAttribute("role", said[0] ? "status" : "alert");
    p.dataset.sentNote = said[0] ? "sent" : "refused";
    p.textContent = text(said[0] ? "sent" : "refused", "") + " " + said[1];
    box.parentNode.insertBefore(p, box);
  }

  function answerOf(response) {
    if (response.status === 409) {
      return response.json().then(function (body) { return [false, body.error || ""]; });
    }
    return response.text().then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var ok = doc.querySelector(".flash.ok");
      var bad = Array.prototype.filter.call(doc.querySelectorAll(".flash.error, .error"),
        function (el) { return !el.closest("[hidden]"); })
        .map(function (el) { return el.textContent.trim(); }).filter(Boolean);
      if (response.ok && ok && !bad.length) { return [true, ok.textContent.trim()]; }
      return [false, bad.join(" ") || String(response.status)];
    });
  }

  // Send every kept deal, one by one; stop at the first that cannot reach the server.
  function sendKept() {
    var list = kept();
    if (sending || !list.length) { return; }
    sending = true;
    var deal = list[0];
    fetch(deal.action, {
      method: "POST", credentials: "same-origin", body: new URLSearchParams(deal.fields),
      headers: { "X-Kierki-Kept": "1" }
    }).then(function (response) {
      return answerOf(response).then(function (answer) {
        keep(kept().filter(function (d) { return d.id !== deal.id; }));
        tell(deal.page, answer[0], answer[1]);
        return true;
      });
    }, function () { return false; }).then(function (reached) {
      sending = false;
      if (!reached) { schedule(); return; }
      if (deal.page === here()) { window.location.reload(); return; } // the game as it now is
      sendKept();
    });
  }

  // The next try: sooner after a change (the network may take a moment to come back with
  // the "online" event), then less and less often.
  function schedule() {
    if (timer === null && kept().length) {
      timer = window.setTimeout(function () { timer = null; sendKept(); }, wait);
      wait = Math.min(wait * 2, RETRY_MS);
    }
  }

  function keepDeal(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    var fields = [];
    data.forEach(function (value, name) { fields.push([name, String(value)]); });
    var card = form.closest("[data-deal-number]");
    var list = kept();
    list.push({ id: Date.now() + "-" + Math.random(), page: here(), action: form.action,
                number: card ? card.dataset.dealNumber : "", fields: fields });
    keep(list);
    delete form.dataset.sent;
    showKept();
    if (box && box.scrollIntoView) { box.scrollIntoView({ block: "center" }); }
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.ready.then(function (reg) {
        if (reg.sync) { return reg.sync.register("kept-deals"); }
      }).catch(function () {});
    }
    schedule();
  }

  // Offline as the phone knows it: the deal is kept. Otherwise the form goes as always.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || navigator.onLine !== false || !box || !form.matches ||
        !form.matches("form.deal-form")) {
      return;
    }
    event.preventDefault();
    keepDeal(form, event.submitter || null);
  });

  // The kept copy is shown (the worker found no server): look for the server every few
  // seconds and reload once it answers. Not once at "online" alone: a Wi-Fi that is back
  // may not carry yet, and the reload would only show the kept copy again, for good.
  // (A HEAD is not the worker's to answer: it goes to the network or fails.)
  var looking = null;
  function lookForServer() {
    looking = null;
    if (!offlineNote || offlineNote.hidden || kept().length) { return; }
    if (navigator.onLine === false) { return; } // "online" starts it again
    fetch(window.location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (r.ok) { window.location.reload(); } else { looking = window.setTimeout(lookForServer, 3000); }
      })
      .catch(function () { looking = window.setTimeout(lookForServer, 3000); });
  }

  window.addEventListener("online", function () {
    wait = 1000;
    if (timer !== null) { window.clearTimeout(timer); timer = null; }
    if (looking !== null) { window.clearTimeout(looking); }
    lookForServer();
    sendKept();
  });
  window.addEventListener("offline", function () { if (offlineNote) { offlineNote.hidden = false; } });
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data === "kierki-send-kept") { sendKept(); }
    });
  }
  told();
  showKept();
  sendKept();
  lookForServer();
}());
