// A tournament's live pages: the projector (/tournaments/<id>/screen) and a player's phone
// page follow every table's saves (issue 27).
//
// The page's box names the tournament's event stream, its version URL (polled when the
// stream cannot be kept) and its live part's URL. On a newer version the live part is
// fetched again and put in place of this page's, through static/follow.js (as live.js
// does): at most one fetch in flight, an event during a fetch asks for one more fetch after
// it, and two fetches start at least data-min-gap ms apart, so a busy club (many saves a
// second) costs a page a few fetches a second at most. Long lists ([data-pages]) come a
// page at a time from the server, the next asked for every 10 s, so the projector needs no
// input and a version of a 4,000-player night is a few KB, not the whole field.
(function () {
  "use strict";

  var box = document.querySelector(".tour-box[data-events-url]");
  if (!box || !window.fetch || !window.DOMParser || !window.KierkiFollow) { return; }

  var PAGE_MS = 10000;

  function live(root) { return root.querySelector("[data-tour-live]"); }
  function known() {
    var el = live(document);
    return el ? parseInt(el.dataset.version, 10) || 0 : 0;
  }

  // -- paging: the server sends one page of each [data-pages] list -----------------------
  // Each list says where its page starts, how many items there are in all and how many a
  // page holds (data-start, data-count, data-per). What does not fit this screen whole is
  // hidden, and starts the next page: a long name that wrapped never keeps anyone out of
  // sight. Every PAGE_MS the next page of each list with more is asked for (the same fetch
  // as a change's). The standings hold the layout's lines (their type is sized for them);
  // the tables' grid as many cells as its columns and rows hold, measured here. A page
  // without script gets the layout's and turns by refreshing itself.
  var follower = null;
  var cells = 0; // the tables' cells a page on this screen (0: the server's)
  var from = {}; // list name -> the first item to ask for
  var turning = {}; // list name -> a turn asked for and not shown yet

  function lists(root) { return root.querySelectorAll("[data-pages]"); }
  function num(el, name) { return parseInt(el.dataset[name], 10) || 0; }

  function partUrl() {
    var url = new URL(box.dataset.partUrl, window.location.href);
    if (from.standings) { url.searchParams.set("sf", String(from.standings)); }
    if (from.tables) { url.searchParams.set("tf", String(from.tables)); }
    if (cells) { url.searchParams.set("cells", String(cells)); }
    return url.toString();
  }

  // Whether an item lies whole inside its list's box (a list in columns: a column that
  // falls outside it does not).
  function whole(list, item) {
    var first = list.firstElementChild;
    return item.offsetTop + item.offsetHeight - first.offsetTop <= list.clientHeight + 1 &&
      item.offsetLeft + item.offsetWidth - first.offsetLeft <= list.clientWidth + 1;
  }

  // How many cells the tables' grid holds on this screen: its columns times its rows.
  function gridFits(list) {
    var items = list.children;
    var cols = 0;
    while (cols < items.length && items[cols].offsetTop === items[0].offsetTop) { cols++; }
    var gap = parseFloat(window.getComputedStyle(list).rowGap) || 0;
    var pitch = items.length > cols ? items[cols].offsetTop - items[0].offsetTop
      : items[0].offsetHeight + gap;
    var rows = pitch > 0 ? Math.floor((list.clientHeight + gap) / pitch) : 1;
    return Math.max(1, cols * Math.max(1, rows));
  }

  // The standings' type for a field that is all on one page in two columns: as large as
  // still keeps every line whole on this screen (a long name may wrap), so that 16 players
  // fill the screen as 40 do. Kept between versions (the field does not change with a
  // save); found again when a line no longer fits, on a resize, or for another field.
  var fit = { size: 0, count: 0 };

  function fitStandings() {
    var list = document.querySelector(".dense [data-pages=standings]");
    if (!list || !list.children.length) { return; }
    var section = list.parentNode;
    var count = num(list, "count");
    var all = function () {
      return Array.prototype.every.call(list.children, function (item) { return whole(list, item); });
    };
    if (num(list, "start") > 0 || count > list.children.length) {
      section.style.removeProperty("--fit"); // a field that pages keeps the layout's type
      return;
    }
    if (fit.size && fit.count === count) {
      section.style.setProperty("--fit", fit.size + "px");
      if (all()) { return; }
    }
    section.style.removeProperty("--fit");
    var low = parseFloat(window.getComputedStyle(list.children[0]).fontSize) || 16;
    if (!all()) { return; }
    var high = Math.min(low * 2.5, window.innerHeight / 12);
    for (var i = 0; i < 8; i++) {
      var mid = (low + high) / 2;
      section.style.setProperty("--fit", mid + "px");
      if (all()) { low = mid; } else { high = mid; }
    }
    fit = { size: Math.floor(low * 10) / 10, count: count };
    section.style.setProperty("--fit", fit.size + "px");
  }

  // After a page is in: items that do not fit hidden, each list's counter set, and the
  // page asked for again at once if this screen holds another count of cells.
  function measure() {
    var again = false;
    fitStandings();
    Array.prototype.forEach.call(lists(document), function (list) {
      var items = list.children;
      var start = num(list, "start"), count = num(list, "count"), per = num(list, "per");
      Array.prototype.forEach.call(items, function (item) { item.hidden = false; });
      var shown = 0;
      while (shown < items.length && whole(list, items[shown])) { shown++; }
      shown = Math.max(1, shown);
      Array.prototype.forEach.call(items, function (item, i) { item.hidden = i >= shown; });
      list.dataset.shown = String(shown);
      // counted in pages of what a page holds when no line wraps (the server's)
      var size = Math.max(1, per || shown);
      var page = Math.ceil(start / size) + 1;
      var pages = page + Math.max(0, Math.ceil((count - start - shown) / size));
      var label = list.parentNode.querySelector("[data-page-no]");
      if (label) { label.textContent = pages > 1 ? page + "/" + pages : ""; }
      list.dataset.page = String(page);
      list.dataset.pageCount = String(pages);
      // an answer asked for before a page turn does not take the turn back
      if (!turning[list.dataset.pages] || from[list.dataset.pages] === start) {
        turning[list.dataset.pages] = false;
        from[list.dataset.pages] = start;
      }
      if (list.dataset.pages === "tables" && items.length) {
        var fit = gridFits(list);
        if (fit !== per && (count > items.length || fit < items.length)) {
          cells = fit;
          again = true;
        }
      }
    });
    if (again && follower) { follower.refresh(); }
  }

  // The next page of each list that has more than this one.
  function turn() {
    var more = false;
    Array.prototype.forEach.call(lists(document), function (list) {
      var count = num(list, "count");
      var next = num(list, "start") + (num(list, "shown") || 1);
      if (num(list, "start") > 0 || next < count) {
        from[list.dataset.pages] = next < count ? next : 0;
        turning[list.dataset.pages] = true;
        more = true;
      }
    });
    if (more && follower) { follower.refresh(); }
  }

  // -- live ------------------------------------------------------------------------------
  function apply(doc) {
    var fresh = live(doc);
    var old = live(document);
    if (!fresh || !old) { return; }
    if ((parseInt(fresh.dataset.version, 10) || 0) < known()) { return; } // an older answer
    old.replaceWith(document.importNode(fresh, true));
    measure();
  }

  function update() {
    return window.KierkiFollow.text(partUrl()).then(function (html) {
      apply(new DOMParser().parseFromString("<body>" + html + "</body>", "text/html"));
    });
  }

  // A player's page: this phone follows that player, so the game page of their finished
  // round marks them when the next round is drawn (static/live.js).
  if (box.dataset.player && box.dataset.tournament) {
    try {
      window.localStorage.setItem("kierki-player:" + box.dataset.tournament, box.dataset.player);
    } catch (e) { /* storage refused: nothing marked */ }
  }

  window.addEventListener("resize", function () { fit.size = 0; measure(); });
  // The stream, the polled fallback, one fetch in flight at most (static/follow.js). The
  // least time between two fetches' starts (data-min-gap, ms): a projector 0.5 s, a phone
  // more, so a club saving many deals a second costs each page a bounded number.
  follower = window.KierkiFollow.follow(box, {
    known: known,
    update: update, // a failed fetch: the next change, or the next poll, tries again
    minGap: parseInt(box.dataset.minGap, 10) || 500
  });
  measure();
  if (lists(document).length) { window.setInterval(turn, PAGE_MS); }
}());
