// Deal entry: quick pickers for counts, the robber on one screen, typed auction bids,
// Tybet's special wins.
// Only a help: without it the forms post the same plain radios and selects and the server
// checks everything. Every sentence comes from the page (rendered in the UI language);
// this file only chooses which one to show and puts a number into the sum message.
(function () {
  "use strict";

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  // Counts that must add up to a total: one slot per player (or pair). A slot is
  // {get() -> number|null, set(number|null), auto}: ``auto`` when this file filled it.
  function Counts(total, slots, follow) {
    this.total = total;
    this.slots = slots;
    this.follow = follow;  // two pairs: the other one always follows the last tap
  }
  Counts.prototype.sum = function () {
    return this.slots.reduce(function (s, slot) { var v = slot.get(); return v === null ? s : s + v; }, 0);
  };
  Counts.prototype.complete = function () {
    return this.slots.every(function (slot) { return slot.get() !== null; });
  };
  // After ``changed`` was chosen (or at start): the last one left fills itself, and once
  // nothing is left every other one is 0.
  Counts.prototype.fill = function (changed) {
    var self = this;
    if (changed) {
      changed.auto = false;
      if (this.follow) {
        this.slots.forEach(function (s) { if (s !== changed) { s.auto = true; } });
      }
    }
    this.slots.forEach(function (s) { if (s.auto) { s.set(null); s.auto = false; } });
    var empty = this.slots.filter(function (s) { return s.get() === null; });
    var sum = this.sum();
    if (empty.length === 1 && sum <= this.total) {
      empty[0].set(this.total - sum);
      empty[0].auto = true;
    } else if (empty.length > 1 && sum === this.total) {
      empty.forEach(function (s) { s.set(0); s.auto = true; });
    }
    return self;
  };
  // The most ``slot`` can still be, given what the others were given by hand (with two
  // pairs any value can be, the other pair follows).
  Counts.prototype.limit = function (slot) {
    if (this.follow) { return this.total; }
    var others = 0;
    this.slots.forEach(function (s) {
      var v = s.get();
      if (s !== slot && !s.auto && v !== null) { others += v; }
    });
    return this.total - others;
  };
  // What a wrong sum adds up to, or null while it can still be right.
  Counts.prototype.wrong = function () {
    var sum = this.sum();
    return sum > this.total || (this.complete() && sum !== this.total) ? sum : null;
  };
  Counts.prototype.left = function () { return this.total - this.sum(); };

  // "2 tricks left": show the span rendered for that number.
  function showLeft(p, n) {
    if (!p) { return; }
    var found = false;
    each(p.querySelectorAll("[data-left]"), function (span) {
      var on = span.getAttribute("data-left") === String(n);
      span.hidden = !on;
      found = found || on;
    });
    p.hidden = !found;
  }

  // "These must add up to 13; they add up to 15.": the page's sentence with the sum in it.
  function showSum(p, template, got) {
    if (!p) { return; }
    if (got === null || !template) {
      p.hidden = true;
      p.textContent = "";
      p.removeAttribute("role");
      p.classList.remove("error");
    } else {
      p.textContent = template.replace("{got}", String(got));
      p.setAttribute("role", "alert");
      p.classList.add("error");
      p.hidden = false;
    }
  }

  function toggle(el, name, on) {
    if (on) { el.classList.add(name); } else { el.classList.remove(name); }
  }

  // An input a refusal points at: its box marked, its controls aria-invalid.
  function mark(box, controls, on) {
    toggle(box, "invalid", on);
    each(controls, function (c) {
      if (on) { c.setAttribute("aria-invalid", "true"); } else { c.removeAttribute("aria-invalid"); }
    });
  }

  // "5 tricks left": the counter's own words for ``n`` (rendered in the page's language).
  function leftWords(counter, n) {
    var span = counter && counter.querySelector("[data-left='" + n + "']");
    return span ? span.textContent.trim() : String(n);
  }

  // "Missing tricks: Celina, Darek — 5 tricks left" in ``line`` (its data-missing sentence),
  // or the line hidden when nobody is missing; returns what it says.
  function sayMissing(line, names, left) {
    if (!line) { return null; }
    if (!names.length) { line.hidden = true; line.textContent = ""; toggle(line, "error", false); return null; }
    line.textContent = line.getAttribute("data-missing").replace("{names}", names.join(", "))
      .replace("{left}", left);
    toggle(line, "error", true);
    line.hidden = false;
    return line.textContent;
  }

  // Counts that cannot be saved yet (two or more missing, or a wrong sum) keep the form from
  // being sent: the server would refuse it too. ``show`` points at what is missing.
  var pending = [];
  function guard(form, counts, show) {
    if (form) { pending.push({ form: form, counts: counts, show: show }); }
  }
  function setupForm(form) {
    form.addEventListener("submit", function (event) {
      var open = pending.filter(function (p) {
        return p.form === form && (!p.counts.complete() || p.counts.wrong() !== null);
      });
      var button = event.submitter;
      if (button && button.name && button.classList.contains("pick")) {  // a one-tap choice
        each(form.querySelectorAll("button.pick[name='" + button.name + "']"), function (b) {
          toggle(b, "chosen", b === button);
        });
      }
      var said = form.querySelector("[data-save-msg]");
      if (!open.length) { return; }
      event.preventDefault();
      delete form.dataset.sent;  // app.js marks a form sent; this one was not
      var problem = open[0].show();  // the count and its players, named
      if (said) {  // "Not saved. Missing tricks: Celina, Darek — 5 tricks left"
        if (problem && said.getAttribute("data-said")) {
          said.textContent = said.getAttribute("data-said").replace("{problem}", problem);
        }
        said.hidden = false;
      }
    });
    form.addEventListener("change", function () {
      var said = form.querySelector("[data-save-msg]");
      if (said && !form.querySelector("[aria-invalid=true]")) { said.hidden = true; }
    });
  }
  // A trump auction's bids are typed: Enter (the phone's "next") goes to the next bid, then
  // to the dealer's answer, instead of sending the form with its first button (a suit).
  function setupBids(fs) {
    var inputs = Array.prototype.slice.call(fs.querySelectorAll(".bid-row input"));
    var form = fs.closest("form");
    fs.addEventListener("keydown", function (event) {
      var i = inputs.indexOf(event.target);
      if (event.key !== "Enter" || i < 0) { return; }
      event.preventDefault();
      var next = inputs[i + 1] || (form && form.querySelector("fieldset.yesno input"));
      if (next) { next.focus(); }
    });
  }
  function nudge(el) {
    if (!el) { return; }
    el.classList.remove("nudge");
    void el.offsetWidth;  // restart the animation
    el.classList.add("nudge");
    el.scrollIntoView({ block: "center", behavior: "smooth" });
  }

  // -- quick pickers: a row of tap targets 0…max per player ------------------------------
  function setupQuick(fs) {
    var total = parseInt(fs.getAttribute("data-total"), 10);
    var slots = [];
    each(fs.querySelectorAll(".qp-row"), function (row) {
      var radios = row.querySelectorAll("input[type=radio]");
      slots.push({
        row: row, radios: radios, auto: false,
        get: function () {
          for (var i = 0; i < radios.length; i++) {
            if (radios[i].checked) { return parseInt(radios[i].value, 10); }
          }
          return null;
        },
        set: function (v) {
          each(radios, function (r) { r.checked = v !== null && r.value === String(v); });
        }
      });
    });
    if (!slots.length || isNaN(total)) { return; }
    var counts = new Counts(total, slots, fs.hasAttribute("data-follow"));
    var left = fs.querySelector(".left");
    var sumError = fs.querySelector(".sum-error");
    var missing = fs.querySelector(".missing");
    var label = fs.getAttribute("data-label") || "";

    // The players left blank marked and named; what the line says.
    function pointMissing() {
      var blank = slots.filter(function (s) { return s.get() === null; });
      slots.forEach(function (s) { mark(s.row, s.radios, blank.indexOf(s) >= 0); });
      return sayMissing(missing, blank.map(function (s) {
        return s.row.querySelector(".qp-name").textContent.trim();
      }), leftWords(left, counts.left()));
    }

    function slotOf(input) {
      for (var i = 0; i < slots.length; i++) {
        if (slots[i].row.contains(input)) { return slots[i]; }
      }
      return null;
    }
    function render() {
      slots.forEach(function (s) {
        s.shown = s.get();
        var limit = counts.limit(s);
        each(s.radios, function (r) { toggle(r.parentNode, "off", parseInt(r.value, 10) > limit); });
        toggle(s.row, "auto", s.auto);
      });
      var wrong = counts.wrong();
      showSum(sumError, fs.getAttribute("data-sum-error"), wrong);
      if (left) {
        if (wrong === null) { showLeft(left, counts.left()); } else { left.hidden = true; }
      }
    }
    fs.addEventListener("click", function (event) {
      // A tap on a value this page filled in keeps it as chosen (a new value is a "change").
      var input = event.target;
      if (!input.matches || !input.matches("input[type=radio]")) { return; }
      var slot = slotOf(input);
      if (slot && slot.auto && input.value === String(slot.shown)) { slot.auto = false; render(); }
    });
    fs.addEventListener("change", function (event) {
      var slot = slotOf(event.target);
      if (!slot) { return; }
      counts.fill(slot);
      render();
      if (missing && !missing.hidden) { pointMissing(); }  // a named player given a number
    });
    guard(fs.closest("form"), counts, function () {
      if (counts.wrong() !== null) {
        nudge(sumError);
        return (label ? label + ": " : "") + sumError.textContent;
      }
      var said = pointMissing();
      nudge(missing && !missing.hidden ? missing : fs);
      return said;
    });
    counts.fill(null);
    // A stored deal being corrected: its last count follows the others until tapped.
    var last = slots[slots.length - 1];
    if (counts.complete() && counts.wrong() === null && !counts.follow) { last.auto = true; }
    render();
  }

  // -- the robber: a grid of cells and one picker below it ------------------------------
  function setupRobber(box) {
    var dock = box.querySelector(".dock");
    var parts = [];
    var byName = {};
    each(box.querySelectorAll("thead th[data-part]"), function (th) {
      var name = th.getAttribute("data-part");
      var part = {
        name: name, total: parseInt(th.getAttribute("data-total"), 10),
        template: th.getAttribute("data-sum-error"),
        label: th.textContent.trim(),
        slots: [],
        sumError: box.querySelector(".sum-error[data-sum-for='" + name + "']"),
        missing: box.querySelector(".missing[data-missing-for='" + name + "']"),
        dock: dock.querySelector(".dock-part[data-part='" + name + "']")
      };
      parts.push(part);
      byName[name] = part;
    });
    var cells = [];  // in the order they fill: column by column, each top to bottom
    each(box.querySelectorAll("tbody td.rc"), function (td) {
      var select = td.querySelector("select");
      var button = td.querySelector("button.rcell");
      var part = byName[td.getAttribute("data-part")];
      if (!select || !button || !part) { return; }
      var cell = {
        td: td, select: select, button: button, part: part, auto: false,
        who: td.parentNode.querySelector("th .pname").textContent,
        get: function () { return select.value === "" ? null : parseInt(select.value, 10); },
        set: function (v) { select.value = v === null ? "" : String(v); }
      };
      part.slots.push(cell);
      button.hidden = false;
      button.addEventListener("click", function () { active = cell; render(); });
    });
    parts.forEach(function (p) { cells = cells.concat(p.slots); });
    if (!cells.length) { return; }
    parts.forEach(function (p) { p.counts = new Counts(p.total, p.slots, false); });
    box.classList.add("js");
    var active = null;

    function nextEmpty(after) {
      var start = after ? cells.indexOf(after) + 1 : 0;
      for (var i = 0; i < cells.length; i++) {
        var c = cells[(start + i) % cells.length];
        if (c.get() === null) { return c; }
      }
      return null;
    }
    function render() {
      cells.forEach(function (c) {
        var v = c.get();
        c.button.textContent = v === null ? "" : String(v);
        toggle(c.td, "auto", c.auto);
        toggle(c.td, "active", c === active);
        if (c === active) { c.button.setAttribute("aria-current", "true"); } else { c.button.removeAttribute("aria-current"); }
      });
      parts.forEach(function (p) { showSum(p.sumError, p.template, p.counts.wrong()); });
      dock.hidden = !active;
      if (!active) { return; }
      dock.querySelector(".dock-who").textContent = active.who;
      dock.querySelector(".dock-what").textContent = active.part.label;
      parts.forEach(function (p) { if (p.dock) { p.dock.hidden = p !== active.part; } });
      inSight(active.td);
      var limit = active.part.counts.limit(active);
      var current = active.get();
      each(active.part.dock.querySelectorAll("button[data-v]"), function (b) {
        var v = parseInt(b.getAttribute("data-v"), 10);
        toggle(b, "off", v > limit);
        toggle(b, "on", v === current);
        b.setAttribute("aria-pressed", v === current ? "true" : "false");
      });
      var wrong = active.part.counts.wrong();
      var left = active.part.dock.querySelector(".left");
      if (wrong === null) { showLeft(left, active.part.counts.left()); } else if (left) { left.hidden = true; }
    }
    // The picker stays at the bottom of the screen (entry.css): the active cell is kept
    // above it, the page scrolled by as much as the cell is under it (on a small phone the
    // page opens so, the first cell over the picker).
    function inSight(td) {
      var under = td.getBoundingClientRect().bottom + 4 - dock.getBoundingClientRect().top;
      if (under > 0 && window.scrollBy) { window.scrollBy(0, under); }
    }
    var form = box.closest("form");
    var check = liveCheck(form, box, byName);
    dock.addEventListener("click", function (event) {
      var b = event.target.closest ? event.target.closest("button[data-v]") : null;
      if (!b || !active) { return; }
      var cell = active;
      cell.set(parseInt(b.getAttribute("data-v"), 10));
      cell.part.counts.fill(cell);
      active = nextEmpty(cell);
      render();
      check.changed();
      // the grid filled: what comes after it (the K♥, the penalty tricks) into sight
      var after = !active && form && form.querySelector("fieldset:last-of-type");
      if (after && after.scrollIntoView) { after.scrollIntoView({ block: "nearest" }); }
    });
    box.addEventListener("change", function (event) {  // a select changed some other way
      cells.forEach(function (c) {
        if (c.select === event.target) { c.part.counts.fill(c); }
      });
      render();
    });
    if (form) { form.addEventListener("change", check.changed); }  // cells, the K♥, tricks
    // a cell named in the list of problems above the form opens the picker on it
    each(form ? form.querySelectorAll(".error-summary a[href^='#rc-']") : [], function (a) {
      a.addEventListener("click", function () {
        cells.forEach(function (c) { if ("#" + c.td.id === a.getAttribute("href")) { active = c; } });
        render();
      });
    });
    // A part's blank cells marked and its players named; what its line says.
    function pointMissing(p) {
      var blank = p.slots.filter(function (c) { return c.get() === null; });
      p.slots.forEach(function (c) { mark(c.td, [c.select, c.button], blank.indexOf(c) >= 0); });
      return sayMissing(p.missing, blank.map(function (c) { return c.who; }),
                        leftWords(p.dock && p.dock.querySelector(".left"), p.counts.left()));
    }
    dock.addEventListener("click", function () {  // a named player given a number
      parts.forEach(function (p) { if (p.missing && !p.missing.hidden) { pointMissing(p); } });
    });
    parts.forEach(function (p) {
      guard(form, p.counts, function () {
        if (p.counts.wrong() !== null) { nudge(p.sumError); return p.label + ": " + p.sumError.textContent; }
        var said = pointMissing(p);
        active = nextEmpty(null);
        render();
        nudge(active ? active.td : box);
        return said;
      });
      p.counts.fill(null);
      if (p.counts.complete() && p.counts.wrong() === null) { p.slots[p.slots.length - 1].auto = true; }
    });
    active = nextEmpty(null);
    render();
    check.start(cells.some(function (c) { return c.get() !== null; }));
  }

  // -- the robber's cross-checks as the cells are filled ---------------------------------
  // The server checks what is entered so far by the rules that check the deal when it is
  // saved (POST <data-check>, nothing stored) and answers each problem in the page's
  // language with the input it concerns, and how far each count has got; here they are
  // only shown, beside the grid, and the inputs concerned marked. Save stays: the server
  // refuses it again if need be. Offline, nothing is shown until the next answer.
  function liveCheck(form, box, columns) {
    var url = form && form.getAttribute("data-check");
    var list = box.querySelector("[data-live-check]");
    var progress = box.querySelector("[data-progress]");
    var none = { changed: function () {}, start: function () {} };
    if (!url || !list || !progress || !window.fetch || !window.JSON) { return none; }
    var timer = null;
    var asked = 0;
    var touched = false;

    // The form's inputs as the deal's result (the names of forms.parse_deal: "tricks-2"
    // is the count of seat 2, "positions-0" the first penalty trick, "king_of_hearts").
    function result() {
      var out = {};
      each(form.elements, function (el) {
        if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") { return; }
        if (el.type === "radio" && !el.checked) { return; }
        var value = el.value === "" ? null : el.value;
        var m = /^(.+)-(\d+)$/.exec(el.name);
        if (!m) { out[el.name] = value; return; }
        var row = out[m[1]] = out[m[1]] || [];
        var i = parseInt(m[2], 10);
        while (row.length <= i) { row.push(null); }
        row[i] = value;
      });
      return out;
    }
    // The element an answer's field names: a cell ("hearts.2"), a column ("hearts"), a
    // penalty trick's row ("positions.1") or an input's fieldset ("king_of_hearts").
    function target(field) {
      var parts = field.split(".");
      if (parts.length === 2 && columns[parts[0]]) { return box.querySelector("#rc-" + parts[0] + "-" + parts[1]); }
      if (columns[field]) { return box.querySelector("thead th[data-part='" + field + "']"); }
      var fs = form.querySelector("fieldset[data-field='" + parts[0] + "']");
      if (fs && parts.length === 2) { return fs.querySelectorAll(".seats-row")[parseInt(parts[1], 10)] || fs; }
      return fs;
    }
    function show(data) {
      if (touched) {  // what the last Save said no longer holds: the answer below does
        each(box.querySelectorAll("td.rc.invalid"), function (td) {
          td.classList.remove("invalid");
          var select = td.querySelector("select");
          if (select) { select.removeAttribute("aria-invalid"); }
        });
        each(box.querySelectorAll("tr.rerr"), function (tr) { tr.hidden = true; });
      }
      each(form.querySelectorAll(".flagged"), function (el) { el.classList.remove("flagged"); });
      // how far each count has got, until every one adds up (then the grid says it all)
      progress.textContent = "";
      var counts = data && data.progress || [];
      if (!counts.every(function (p) { return p.done; })) {
        counts.forEach(function (p) {
          var span = document.createElement("span");
          span.className = p.done ? "done" : "";
          span.textContent = p.text;
          progress.appendChild(span);
        });
      }
      progress.hidden = !progress.firstChild;
      list.textContent = "";
      // One line per message, naming every input it concerns: "Darek · Hearts ♥, Kings
      // and jacks: …" (a cell by its player and column, as the server's "where" does).
      var lines = [];
      (data && data.problems || []).forEach(function (p) {
        // a column's sum is the page's own message (the same sentence, shown by the grid)
        if (columns[p.field]) { return; }
        var same = lines.filter(function (l) { return l.message === p.message; })[0];
        if (!same) { lines.push(same = { message: p.message, where: [] }); }
        var el = target(p.field);
        if (el) { el.classList.add("flagged"); }
        var cell = el && el.matches("td.rc") ? el : null;
        var who = cell ? cell.parentNode.querySelector("th .pname").textContent : null;
        var last = same.where[same.where.length - 1];
        if (who && last && last.who === who) {
          last.what.push(columns[cell.getAttribute("data-part")].label);
        } else if (who) {
          same.where.push({ who: who, what: [columns[cell.getAttribute("data-part")].label] });
        } else if (p.where) {
          same.where.push({ who: null, what: [p.where] });
        }
      });
      lines.forEach(function (l) {
        var where = l.where.map(function (w) {
          return (w.who ? w.who + " \u00b7 " : "") + w.what.join(", ");
        }).join("; ");
        var line = document.createElement("p");
        line.className = "error";
        line.textContent = where ? where + ": " + l.message : l.message;
        list.appendChild(line);
      });
    }
    function ask() {
      var mine = ++asked;
      fetch(url, { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "Accept": "application/json" },
        body: JSON.stringify({ result: result() }) })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) { if (mine === asked) { show(data); } })
        .catch(function () { /* offline: nothing to add until the next answer */ });
    }
    return {
      changed: function () {
        touched = true;
        clearTimeout(timer);
        timer = setTimeout(ask, 250);
      },
      // A deal being corrected shows how it stands at once; after a refused Save the
      // page already says what is wrong, and the next change asks again.
      start: function (entered) {
        if (entered && !form.querySelector(".error-summary, .error")) { ask(); }
      }
    };
  }

  // Everything under ``root`` (the page; or a part another script has just put in, e.g.
  // the live table's new deal: it calls ``KierkiEntry.init(part)``). Each element once.
  function init(root) {
    function fresh(selector, setup) {
      var found = Array.prototype.slice.call(root.querySelectorAll(selector));
      if (root.matches && root.matches(selector)) { found.unshift(root); }
      found.forEach(function (el) {
        if (el.hasAttribute("data-entry")) { return; }
        el.setAttribute("data-entry", "");
        setup(el);
      });
    }
    fresh("form.deal-form", setupForm);
    fresh("fieldset.quick", setupQuick);
    fresh("fieldset.bids", setupBids);
    fresh("[data-robber]", setupRobber);
  }
  window.KierkiEntry = { init: init };
  init(document);

  // -- Tybet: a declaration or the special wins opened show what they hold, the page
  // scrolled by as little as brings it into sight (above the Save at the bottom) -----------
  document.addEventListener("toggle", function (event) {
    var d = event.target;
    if (d.open && d.matches && d.matches("details.decl, details.specials") && d.scrollIntoView) {
      d.scrollIntoView({ block: "nearest" });
    }
  }, true);

  // -- Tybet: a special win after which the other pair took nothing gives the winners every
  // ace and honour on the form, and points at their last-trick button ----------------------
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input.name !== "special") { return; }
    var sweep = input.hasAttribute("data-sweep");
    var pair = input.getAttribute("data-pair");
    each(document.querySelectorAll("button[name=last]"), function (b) {
      toggle(b, "suggest", sweep && b.getAttribute("data-pair") === pair);
    });
    if (!sweep) { return; }
    each(document.querySelectorAll("fieldset.quick[data-follow]"), function (fs) {
      var row = fs.querySelectorAll(".qp-row")[parseInt(pair, 10)];
      var radio = row && row.querySelector("input[value='" + fs.getAttribute("data-total") + "']");
      if (radio && !radio.checked) {
        radio.checked = true;
        radio.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  });
}());
