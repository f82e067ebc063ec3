// The live table: every phone on a game follows the deals entered elsewhere (Server-Sent Events).
//
// The game page's live box (templates/_game_common.html) names the game's event stream and
// its version. When the stream (or, without it, a poll every 5 s: static/follow.js, shared
// with tournament.js) tells of a newer version,
// this fetches the page's live fragment (?part=live, below: else the same page) and puts
// its live parts in place of this page's:
// [data-live="totals"], what is still in play ([data-live="outlook"], under the deal),
// [data-live="scores"] (and the charts under it, [data-live="charts"])
// and [data-live="deal"], the card of the deal, and [data-live="undo"] among the tools
// being entered. A deal card the player has started to fill in is kept with their taps; if
// that deal was meanwhile entered on another phone, a notice at the foot of the form (kept
// in sight) says so, and its Save button names and shows the deal the game is at now.
// A tournament's game whose round is over hears (a "round" event, or the polled version's
// "round") when the director draws the next round: after a random part of the event's
// "spread" (roundWait) it fetches where this table's players sit now (box's
// data-round-url) and shows it at the top of the page, a tap each to their
// new table's game; the player this phone follows (remembered by their player's page,
// static/tournament.js) is marked and put first. Without JavaScript the pages work as
// before: nothing here runs.
(function () {
  "use strict";

  var box = document.querySelector(".live[data-events-url]");
  if (!box || !window.fetch || !window.DOMParser || !window.KierkiFollow) { return; }

  var known = parseInt(box.dataset.version, 10) || 0;
  var typed = false; // an input or change event in the deal card since it was shown
  var pristine = ""; // the deal form's values as the card was shown
  // This page's CSRF token (the live fragment's forms come without one: the same bytes for
  // every phone).
  var token = (document.querySelector('input[name="csrf_token"]') || {}).value || "";

  function part(root, name) { return root.querySelector('[data-live="' + name + '"]'); }

  // Where the current deal is shown: its card, or the final standings once it is over.
  function slot(root) { return part(root, "deal") || root.querySelector("#final"); }

  function formState(card) {
    var form = card && card.querySelector("form");
    if (!form) { return ""; }
    var values = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") {
        return;
      }
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) { return; }
      values.push(el.name + "=" + el.value);
    });
    return values.join("&");
  }

  function started(card) { return typed || formState(card) !== pristine; }

  function shown(card) {
    typed = false;
    pristine = formState(card);
  }

  function initEntry(el) {
    if (el && window.KierkiEntry && typeof window.KierkiEntry.init === "function") {
      window.KierkiEntry.init(el);
    }
  }

  function adopt(el) { return document.importNode(el, true); }

  // Put the fetched page's part in place of this page's, or add or drop it.
  function swap(name, doc, after) {
    var old = part(document, name);
    var fresh = part(doc, name);
    if (old && fresh) {
      fresh = adopt(fresh);
      old.replaceWith(fresh);
    } else if (old) {
      old.remove();
    } else if (fresh && after) {
      fresh = adopt(fresh);
      after.after(fresh);
    }
    return fresh || null;
  }

  function showCard(fresh) {
    var old = slot(document);
    if (!old || !fresh) { return; }
    var card = adopt(fresh);
    old.replaceWith(card);
    shown(part(document, "deal"));
    initEntry(card);
  }

  // The points of deal `number` as the fetched score table has them (its last row if that
  // deal has no row): "Ala +5, Bolek −3, …".
  function pointsOf(doc, number) {
    var table = part(doc, "scores");
    if (!table) { return ""; }
    var rows = table.querySelectorAll("tbody tr");
    if (!rows.length) { return ""; }
    var row = rows[rows.length - 1];
    Array.prototype.forEach.call(rows, function (r) {
      var no = r.querySelector(".no");
      if (no && no.textContent.trim() === String(number)) { row = r; }
    });
    // every player's column header carries the whole name in its title (a long one is
    // abbreviated on screen)
    var names = table.querySelectorAll("thead th.num");
    var points = row.querySelectorAll("td .pts");
    var parts = [];
    for (var i = 0; i < points.length; i++) {
      var name = names[i] ? (names[i].getAttribute("title") || names[i].textContent).trim() : "";
      parts.push((name ? name + " " : "") + points[i].textContent.trim());
    }
    return parts.join(", ");
  }

  // The player is entering a deal that another phone has meanwhile changed: keep their
  // card with its taps, and say so where they are, at the foot of the form, kept in sight
  // at the bottom of the screen while the form is (the player is at the Save button, not
  // at the card's top). The Save button no longer saves onto the old deal: it names the
  // deal the game is at now and shows it; the one-tap buttons (a trump suit, a seat) are
  // switched off. The form keeps the version it was shown with, so the server would refuse
  // it all the same.
  var nextCard = null; // what a stale card's buttons show: the fetched page's card

  function showNext(event) {
    if (event) { event.preventDefault(); }
    showCard(nextCard);
  }

  function notice(card, doc, fresh) {
    nextCard = fresh;
    var template = box.querySelector("template[data-notice]");
    if (!template) { box.hidden = false; return; }
    var form = card.querySelector("form");
    var foot = card.querySelector("[data-live-stale]");
    if (!foot) {
      foot = document.createElement("div");
      foot.className = "live-stale";
      foot.setAttribute("data-live-stale", "");
      (form || card).appendChild(foot);
    }
    var old = foot.querySelector("[data-live-notice]");
    if (old) { old.remove(); }
    var note = adopt(template.content.firstElementChild);
    var mine = parseInt(card.dataset.dealNumber, 10);
    var theirs = fresh && fresh.dataset.dealNumber ? parseInt(fresh.dataset.dealNumber, 10) : NaN;
    if (!fresh || isNaN(theirs) || theirs > mine) {
      // This deal was entered (and maybe more, or the game is over).
      var text = box.dataset.entered.replace("{n}", String(mine));
      var points = pointsOf(doc, mine);
      note.querySelector("[data-notice-text]").textContent = text + (points ? " " + points : "");
    } // else: taken back, or otherwise changed: the general sentence of the template
    var label = !fresh ? null : isNaN(theirs) ? box.dataset.goFinal || null
      : box.dataset.goTo ? box.dataset.goTo.replace("{n}", String(theirs)) : null;
    var next = note.querySelector("[data-show-next]");
    var save = form && (form.querySelector("[data-live-stale] > button.primary") ||
                        form.querySelector("button.primary[type=submit]"));
    if (form) {
      Array.prototype.forEach.call(form.querySelectorAll("button[type=submit]"), function (b) {
        if (!b.disabled) { b.disabled = true; b.dataset.liveOff = "1"; } // no tap saves onto the old deal
      });
    }
    if (save) {
      // the Save button becomes the way on: it names the deal the game is at now
      if (save.dataset.liveOff) { save.disabled = false; delete save.dataset.liveOff; }
      if (!("liveLabel" in save.dataset)) { save.dataset.liveLabel = save.textContent; }
      save.type = "button";
      if (label) { save.textContent = label; } else if (next) { save.textContent = next.textContent; }
      if (!save.dataset.liveNext) {
        save.dataset.liveNext = "1";
        save.addEventListener("click", showNext);
      }
      if (next) { next.remove(); }
      foot.appendChild(note);
      foot.appendChild(save);
    } else {
      if (next) {
        if (label) { next.textContent = label; }
        next.addEventListener("click", showNext);
      }
      foot.appendChild(note);
    }
  }

  // The deal of a stale card is the game's current deal again (taken back elsewhere): its
  // Save button and one-tap buttons are what they were, the notice goes.
  function freshAgain(card) {
    var foot = card.querySelector("[data-live-stale]");
    if (!foot) { return; }
    var save = foot.querySelector("button[data-live-next]");
    if (save) {
      save.removeEventListener("click", showNext);
      delete save.dataset.liveNext;
      save.type = "submit";
      save.textContent = save.dataset.liveLabel;
      delete save.dataset.liveLabel;
      foot.replaceWith(save);
    } else {
      foot.remove();
    }
    Array.prototype.forEach.call(card.querySelectorAll("button[data-live-off]"), function (b) {
      b.disabled = false;
      delete b.dataset.liveOff;
    });
  }

  // The live fragment's score rows are those that changed since this page's version: the
  // others are this page's. Puts them together in the fragment's table (this page's rows
  // copied); false when a row is neither here nor there (then the whole page is fetched).
  function mergeRows(doc) {
    var fresh = part(doc, "scores");
    var rows = fresh && fresh.querySelector("tbody[data-partial]");
    if (!rows) { return true; }
    var old = part(document, "scores");
    var mine = old && old.querySelector("tbody");
    var count = parseInt(rows.dataset.rows, 10) || 0;
    var given = {};
    Array.prototype.forEach.call(rows.querySelectorAll("tr[data-deal]"), function (tr) {
      given[tr.dataset.deal] = tr;
    });
    var merged = [];
    for (var n = 1; n <= count; n++) {
      var tr = given[String(n)];
      if (!tr) {
        var kept = mine && mine.querySelector('tr[data-deal="' + n + '"]');
        if (!kept) { return false; }
        tr = doc.importNode(kept, true);
        tr.classList.remove("saved"); // the mark of this phone's own save goes, as on a fresh page
      }
      merged.push(tr);
    }
    rows.textContent = "";
    merged.forEach(function (tr) { rows.appendChild(tr); });
    rows.removeAttribute("data-partial");
    return true;
  }

  // `partial`: doc is the live fragment (its forms without a token: this page's goes in;
  // what only the whole page shows is left as it is).
  function apply(doc, partial) {
    var freshBox = doc.querySelector(".live[data-events-url]");
    if (!freshBox || freshBox.dataset.eventsUrl !== box.dataset.eventsUrl) {
      box.hidden = false; // not this game's page: say so, change nothing
      return;
    }
    var version = parseInt(freshBox.dataset.version, 10);
    if (!isNaN(version) && version > known) { known = version; }
    box.dataset.version = String(known);
    if (partial) {
      Array.prototype.forEach.call(doc.querySelectorAll('input[name="csrf_token"]'), function (input) {
        if (!input.value) { input.value = token; }
      });
    } else if (freshBox.dataset.frame !== undefined) {
      box.dataset.frame = freshBox.dataset.frame;
    }

    var totals = swap("totals", doc, null);
    if (totals) { initEntry(totals); }
    swap("outlook", doc, slot(document) || part(document, "totals")); // what is still in play, under the deal

    var card = part(document, "deal");
    var fresh = slot(doc);
    if (!card) {
      showCard(fresh); // the final standings (or nothing) here: show what there is now
    } else if (!started(card)) {
      showCard(fresh);
    } else if (fresh && fresh.dataset.dealNumber === card.dataset.dealNumber) {
      // Still the same deal (an earlier one was corrected): keep the taps, and save them
      // against the game as it now is.
      var current = fresh.querySelector("input[name=version]");
      card.querySelectorAll("input[name=version]").forEach(function (input) {
        if (current) { input.value = current.value; }
      });
      freshAgain(card);
    } else {
      notice(card, doc, fresh);
    }

    var scores = swap("scores", doc, slot(document) || part(document, "totals"));
    if (scores) { initEntry(scores); }
    // Undo names the last deal and carries the game's version: first among the tools.
    var tools = document.querySelector("section.tools");
    if (tools && !part(document, "undo") && part(doc, "undo")) {
      tools.prepend(adopt(part(doc, "undo")));
    } else {
      swap("undo", doc, null);
    }
    if (!partial) { swap("charts", doc, scores); } // the charts under the table (templates/_charts.html)
    // Who signed a finished game (a signature given on another phone, or taken off by a
    // correction).
    swap("signatures", doc, slot(document) || part(document, "charts") ||
         part(document, "scores")); // under the final standings, as a fresh page has it
    if (partial) { return; } // the rest is the whole page's (its frame did not change)
    // Whether this phone may write (a tournament closed or reopened).
    swap("access", doc, part(document, "totals"));
    var moved = part(doc, "next-round");
    if (moved && (parseInt(moved.dataset.round, 10) || 0) >
        (parseInt((part(document, "next-round") || moved).dataset.round, 10) || 0)) {
      mine(swap("next-round", doc, null));
    }
  }

  // -- the next round: where this table's players sit now ---------------------------------
  var roundAsked = 0; // the round whose seats were fetched (or are being fetched)
  // Every phone of the tournament hears the round in the same instant: each waits a random
  // part of the event's "spread" (seconds, scaled by the server to the round's tables:
  // scorekeeper/web/live.py, round_spread) before it asks, so that 4,000 fetches do not
  // fill the server's one core in one second; 1 s when none is said (the polled answer,
  // whose phones' polls are spread already), never more than 30 s (a minute to reach the
  // new table). bench/club.py's phones wait the same.
  var ROUND_JITTER_MS = 1000;
  var ROUND_SPREAD_MAX_MS = 30000;

  function roundWait(data) {
    var spread = parseFloat(data && data.spread) * 1000;
    if (!(spread > 0)) { spread = ROUND_JITTER_MS; }
    return Math.random() * Math.min(spread, ROUND_SPREAD_MAX_MS);
  }

  function mine(section) {
    // Mark the player this phone follows (their player's page said which) and put them first.
    if (!section || !section.dataset.tournament) { return; }
    var number = null;
    try { number = window.localStorage.getItem("kierki-player:" + section.dataset.tournament); }
    catch (e) { return; }
    var item = number && section.querySelector('li[data-player="' + number + '"]');
    if (!item) { return; }
    item.classList.add("mine");
    var link = item.querySelector("a.button");
    if (link) { link.classList.add("primary"); }
    item.parentNode.insertBefore(item, item.parentNode.firstElementChild);
  }

  function moveOn(data) {
    var number = data && parseInt(data.round, 10);
    var slot = part(document, "next-round");
    if (!number || !slot || !box.dataset.roundUrl) { return; }
    if ((parseInt(slot.dataset.round, 10) || 0) >= number || roundAsked >= number) { return; }
    roundAsked = number;
    var wait = roundWait(data);
    new Promise(function (resolve) {
      window.setTimeout(resolve, wait);
    }).then(function () {
      return window.KierkiFollow.text(box.dataset.roundUrl);
    }).then(function (html) {
      var doc = new DOMParser().parseFromString("<body>" + html + "</body>", "text/html");
      var fresh = part(doc, "next-round");
      var old = part(document, "next-round");
      if (!fresh || !old || (parseInt(fresh.dataset.round, 10) || 0) < number) {
        roundAsked = 0; // not there yet: the next event or poll asks again
        return;
      }
      fresh = adopt(fresh);
      old.replaceWith(fresh);
      mine(fresh);
    }).catch(function () { roundAsked = 0; });
  }

  // The stream, the polled fallback, one fetch in flight at most: static/follow.js.
  // What is fetched is the live fragment (?part=live): the same bytes for every phone of
  // the table, made once per version, with only the score rows changed since this page's
  // version (since=); the whole page only when the fragment says that it cannot show the
  // change (data-whole: the game over, say) or shows a frame this page is not in (who may
  // write, the tournament closed), or a row is missing.
  function liveUrl() {
    var url = new URL(window.location.href);
    url.hash = "";
    url.searchParams.set("part", "live");
    url.searchParams.set("since", String(known));
    return url.toString();
  }

  function whole() {
    return window.KierkiFollow.text(window.location.href).then(function (html) {
      apply(new DOMParser().parseFromString(html, "text/html"), false);
    });
  }

  // The charts under the score table come apart (?part=charts): fetched after an update
  // when they are in sight, else once they come into sight; the first ones (the page had
  // none: its first deal came from another phone) at once, as the saving phone has them.
  var chartsStale = false;

  function chartsInSight() {
    var here = part(document, "charts") || part(document, "scores");
    if (!here) { return false; }
    var r = here.getBoundingClientRect();
    var top = part(document, "charts") ? r.top : r.bottom; // no charts yet: under the table
    return top < window.innerHeight && r.bottom > 0;
  }

  function fetchCharts() {
    chartsStale = false;
    var url = new URL(window.location.href);
    url.hash = "";
    url.search = "?part=charts";
    return window.KierkiFollow.text(url.toString()).then(function (html) {
      var doc = new DOMParser().parseFromString("<body>" + html + "</body>", "text/html");
      swap("charts", doc, part(document, "scores"));
    }).catch(function () { chartsStale = true; });
  }

  function chartsLater() {
    chartsStale = true;
    if (!part(document, "charts") || chartsInSight()) { return fetchCharts(); }
  }

  window.addEventListener("scroll", function () {
    if (chartsStale && chartsInSight()) { fetchCharts(); }
  }, { passive: true });

  function update() {
    if (!window.URL) { return whole(); }
    return window.KierkiFollow.text(liveUrl()).then(function (html) {
      var doc = new DOMParser().parseFromString("<body>" + html + "</body>", "text/html");
      var fresh = doc.querySelector(".live[data-events-url]");
      if (!fresh || fresh.hasAttribute("data-whole") ||
          fresh.dataset.frame !== box.dataset.frame || !mergeRows(doc)) {
        return whole();
      }
      apply(doc, true);
      return chartsLater();
    });
  }

  shown(part(document, "deal"));
  mine(part(document, "next-round"));
  document.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest('[data-live="deal"]')) { typed = true; }
  }, true);
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest('[data-live="deal"]')) { typed = true; }
  }, true);
  window.KierkiFollow.follow(box, {
    known: function () { return known; },
    update: update,
    // "The game changed on another phone. Show it"
    failed: function () { box.hidden = false; },
    events: { gone: function () { box.hidden = false; } }, // the game was deleted
    on: { round: moveOn } // the director drew the next round
  });
}());
