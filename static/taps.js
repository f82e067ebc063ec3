// The table tools (the loteryjka board, the trick checker): a tap keeps its place.
//
// Their cards and buttons are plain links whose address holds the whole state, so the
// pages work without JavaScript (the address's fragment then brings the page back to the
// board). Here a tap on a link inside [data-taps] fetches that address instead and puts
// each part marked data-swap in place of this page's (the whole [data-taps] when the parts
// differ), then scrolls by as much as the tapped part moved: the part stays where it was
// on the screen, and the page does not scroll at all unless something above it grew or
// shrank. Why this and not a reload with the scroll position restored: nothing is repainted
// from the top, the address bar follows by history.replaceState (a reload shows the same
// board, and "back" leaves the board instead of taking back 62 taps one by one), and the
// status line (role="status") stays one element whose new text is read out.
// A part marked data-reveal that the tap brings (the trick's verdict, the finishing order)
// is scrolled into view. A <details data-keep-open> keeps the state the player gave it.
// Anything that goes wrong: the link is followed as without JavaScript.
(function () {
  "use strict";

  var root = document.querySelector("[data-taps]");
  if (!root || !window.fetch || !window.DOMParser || !window.history.replaceState) { return; }
  var busy = false;
  var swaps = 0; // root.dataset.swaps: how many taps were answered here (tests wait for it)

  function list(el, selector) { return Array.prototype.slice.call(el.querySelectorAll(selector)); }
  function names(el) {
    return list(el, "[data-swap]").map(function (p) { return p.dataset.swap; }).join(" ");
  }
  function adopt(nodes) {
    return Array.prototype.map.call(nodes, function (n) { return document.importNode(n, true); });
  }

  // `old` takes `fresh`'s attributes and children; `old` itself stays (and with it a live
  // region's identity).
  function morph(old, fresh) {
    Array.prototype.slice.call(old.attributes).forEach(function (a) {
      if (!fresh.hasAttribute(a.name)) { old.removeAttribute(a.name); }
    });
    Array.prototype.forEach.call(fresh.attributes, function (a) { old.setAttribute(a.name, a.value); });
    old.replaceChildren.apply(old, adopt(fresh.childNodes));
  }

  // The folds the player opened or closed themselves (unlike how the page rendered them).
  function chosenFolds() {
    var chosen = {};
    list(root, "details[data-keep-open]").forEach(function (d) {
      if (d.open !== (d.dataset.open === "1")) { chosen[d.dataset.keepOpen] = d.open; }
    });
    return chosen;
  }

  // This page's parts made the fetched page's; true if that brings a [data-reveal] part.
  function put(doc) {
    var fresh = doc.querySelector("[data-taps]");
    if (!fresh) { throw new Error("not a tool page"); }
    var chosen = chosenFolds();
    var revealed = list(root, "[data-reveal]").length > 0;
    if (names(root) === names(fresh) && names(root)) {
      var olds = list(root, "[data-swap]");
      var news = list(fresh, "[data-swap]");
      olds.forEach(function (old, i) { morph(old, news[i]); });
    } else {
      morph(root, fresh);
    }
    list(root, "details[data-keep-open]").forEach(function (d) {
      if (d.dataset.keepOpen in chosen) { d.open = chosen[d.dataset.keepOpen]; }
    });
    if (doc.title) { document.title = doc.title; }
    return !revealed;
  }

  function follow(href) { window.location.assign(href); }

  root.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
        event.shiftKey || event.altKey) { return; }
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || !root.contains(link) || link.target || link.hasAttribute("download")) { return; }
    var url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin || url.pathname !== window.location.pathname) { return; }
    event.preventDefault();
    if (busy) { return; } // one tap at a time: the next is made on the board this one gives
    busy = true;
    var part = link.closest("[data-swap]");
    var name = part ? part.dataset.swap : null;
    var before = part ? part.getBoundingClientRect().top : 0;
    var hash = url.hash;
    url.hash = "";
    fetch(url.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) {
        var type = r.headers.get("Content-Type") || "";
        if (type.indexOf("text/html") !== 0) { throw new Error(String(r.status)); }
        return r.text().then(function (html) { return { html: html, url: r.url }; });
      })
      .then(function (answer) {
        var doc = new DOMParser().parseFromString(answer.html, "text/html");
        var reveal = put(doc); // true: a part to reveal that was not there before
        window.history.replaceState(window.history.state, "", answer.url + hash);
        var again = name ? root.querySelector('[data-swap="' + name + '"]') : null;
        if (again) {
          var moved = again.getBoundingClientRect().top - before;
          if (moved) { window.scrollBy(0, moved); }
        }
        var shown = reveal && root.querySelector("[data-reveal]");
        if (shown) {
          var tall = shown.getBoundingClientRect().height > window.innerHeight;
          shown.scrollIntoView({ block: tall ? "start" : "nearest" });
        }
        swaps += 1;
        root.dataset.swaps = String(swaps);
        busy = false;
      })
      .catch(function () { follow(link.href); });
  });
}());
