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
  // Each list says which page it shows, of how many, and how many items a page holds
  // (data-page, data-page-count, data-per). Every PAGE_MS the next page of each list with
  // more than one is asked for (the same fetch as a change's). What a page holds is
  // measured here once the first page is in: the standings hold the layout's lines
  // (their type is sized for them) unless a long name wrapped and pushed the last out of
  // sight (then as many as fit); the tables' grid as many cells as its columns and rows
  // hold. A page without script gets the layout's and turns by refreshing itself.
  var follower = null;
  var want = { standings: 0, tables: 0 }; // items a page (0: the server's own)
  var at = {}; // list name -> the page to ask for next

  function lists(root) { return root.querySelectorAll("[data-pages]"); }
  function num(el, name) { return parseInt(el.dataset[name], 10) || 0; }

  function partUrl() {
    var url = new URL(box.dataset.partUrl, window.location.href);
    if (at.standings) { url.searchParams.set("sp", String(at.standings)); }
    if (at.tables) { url.searchParams.set("tp", String(at.tables)); }
    if (want.standings) { url.searchParams.set("rows", String(want.standings)); }
    if (want.tables) { url.searchParams.set("cells", String(want.tables)); }
    return url.toString();
  }

  function whole(list, item) {
    return item.offsetTop + item.offsetHeight - list.firstElementChild.offsetTop <=
      list.clientHeight + 1 &&
      item.offsetLeft + item.offsetWidth - list.firstElementChild.offsetLeft <=
      list.clientWidth + 1;
  }

  // How many items this list's page should hold on this screen (0: as the server sent).
  function fits(list) {
    var items = list.children;
    if (!items.length) { return 0; }
    var per = num(list, "per");
    if (list.dataset.pages === "tables") {
      var cols = 0;
      while (cols < items.length && items[cols].offsetTop === items[0].offsetTop) { cols++; }
      var style = window.getComputedStyle(list);
      var gap = parseFloat(style.rowGap) || 0;
      var pitch = items.length > cols ? items[cols].offsetTop - items[0].offsetTop
        : items[0].offsetHeight + gap;
      var rows = pitch > 0 ? Math.floor((list.clientHeight + gap) / pitch) : 1;
      var fit = Math.max(1, cols * Math.max(1, rows));
      // one page that fits whole: nothing to ask for
      return num(list, "pageCount") <= 1 && fit >= items.length ? 0 : fit;
    }
    var shown = 0;
    while (shown < items.length && whole(list, items[shown])) { shown++; }
    return shown < items.length ? Math.max(1, shown) : (want.standings || 0);
  }

  // After a page is in: what fits measured again; asked again at once if it differs
  // from what the server sent (a resized window, a long name that wrapped).
  function measure() {
    var again = false;
    Array.prototype.forEach.call(lists(document), function (list) {
      var name = list.dataset.pages;
      at[name] = num(list, "page") || 1;
      var fit = fits(list);
      if (fit && fit !== num(list, "per") && (name !== "standings" || fit < num(list, "per"))) {
        want[name] = fit;
        again = true;
      }
    });
    if (again && follower) { follower.refresh(); }
  }

  function turn() {
    var more = false;
    Array.prototype.forEach.call(lists(document), function (list) {
      var count = num(list, "pageCount");
      if (count > 1) {
        at[list.dataset.pages] = (num(list, "page") || 1) % count + 1;
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

  window.addEventListener("resize", function () {
    want.standings = 0; // the layout's lines again, then measured
    measure();
    if (follower) { follower.refresh(); }
  });
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
