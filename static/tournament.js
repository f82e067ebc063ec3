// A tournament's live pages: the projector (/tournaments/<id>/screen) and a player's phone
// page follow every table's saves (issue 27).
//
// The page's box names the tournament's event stream, its version URL (polled when the
// stream cannot be kept) and its live part's URL. On a newer version the live part is
// fetched again and put in place of this page's, through static/follow.js (as live.js
// does): at most one fetch in flight, an event during a fetch asks for one more fetch after
// it, and two fetches start at least data-min-gap ms apart, so a busy club (many saves a
// second) costs a page a few fetches a second at most. Long lists ([data-pages]) page by
// themselves every 10 s when they do not fit, so the projector needs no input.
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

  // -- paging: each [data-pages] list shows a screenful at a time -----------------------
  var pages = {}; // list name -> the index of the first item shown

  function firstItems(list) {
    // The index of each page's first item, measured with every item shown: an item that
    // would end below the list's foot starts the next page (a grid's row starts together),
    // and so does one that would end right of it (a list in columns: the overflow column).
    var items = list.children;
    var starts = [0];
    if (!items.length) { return starts; }
    var top = items[0].offsetTop, left = items[0].offsetLeft;
    for (var i = 1; i < items.length; i++) {
      if (items[i].offsetTop + items[i].offsetHeight - top > list.clientHeight + 1 ||
          items[i].offsetLeft + items[i].offsetWidth - left > list.clientWidth + 1) {
        starts.push(i);
        top = items[i].offsetTop;
        left = items[i].offsetLeft;
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

  function update() {
    return window.KierkiFollow.text(box.dataset.partUrl).then(function (html) {
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

  window.addEventListener("resize", function () { pageAll(false); });
  pageAll(false);
  if (document.querySelector("[data-pages]")) {
    window.setInterval(function () { pageAll(true); }, PAGE_MS);
  }
  // The stream, the polled fallback, one fetch in flight at most (static/follow.js). The
  // least time between two fetches' starts (data-min-gap, ms): a projector 0.5 s, a phone
  // more, so a club saving many deals a second costs each page a bounded number.
  window.KierkiFollow.follow(box, {
    known: known,
    update: update, // a failed fetch: the next change, or the next poll, tries again
    minGap: parseInt(box.dataset.minGap, 10) || 500
  });
}());
