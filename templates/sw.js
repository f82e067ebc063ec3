// Kierki scorekeeper's service worker (served as /sw.js by scorekeeper/views/installable.py).
//
// - The app shell (styles, scripts, icons, by their versioned URLs) is kept at install;
//   a static file is answered from it, else from the network.
// - Pages go to the network first, so a phone never shows an old score while the Wi-Fi
//   works. Each game page that loads is kept (the last copy per game); when the network
//   fails, that copy is shown with its "offline" note uncovered.
// - Nothing else is touched: forms (POST), the live table's event stream, the version
//   polls and the API all go to the network as if there were no worker.
// Deals entered while offline are kept and sent by static/offline.js, on the page.
"use strict";

var VERSION = {{ version | tojson }};
var SHELL = {{ shell | tojson }};
var SHELL_CACHE = "kierki-shell-" + VERSION;
var PAGES = "kierki-pages";
// A game's page: /games/<id>, not the set-up or import forms.
var GAME_PAGE = /^\/games\/(?!new$|import$)[^/]+$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) {
    return cache.addAll(SHELL);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("kierki-shell-") === 0 && name !== SHELL_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

// The kept copy of a game page, its offline note shown.
function offlineCopy(kept) {
  return kept.text().then(function (html) {
    var headers = { "Content-Type": "text/html; charset=utf-8" };
    var policy = kept.headers.get("Content-Security-Policy");
    if (policy) { headers["Content-Security-Policy"] = policy; }
    return new Response(html.replace("data-offline-note hidden", "data-offline-note"),
                        { status: 200, headers: headers });
  });
}

function noCopy() {
  return new Response(
    "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
    "<title>Kierki</title><p>Brak połączenia z serwerem gry. Sprawdź Wi-Fi i spróbuj ponownie." +
    "<p lang=en>No connection to the game's server. Check the Wi-Fi and try again.",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function page(request, url) {
  var keep = GAME_PAGE.test(url.pathname);
  return fetch(request).then(function (response) {
    if (keep && response.status === 200 && response.type === "basic") {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { return cache.put(url.pathname, copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(PAGES).then(function (cache) { return cache.match(url.pathname); })
      .then(function (kept) { return kept ? offlineCopy(kept) : noCopy(); });
  });
}

function asset(request, url) {
  return caches.match(request).then(function (hit) {
    if (hit) { return hit; }
    return fetch(request).then(function (response) {
      if (response.status === 200 && url.searchParams.has("v")) {
        var copy = response.clone();
        caches.open(SHELL_CACHE).then(function (cache) { return cache.put(request, copy); });
      }
      return response;
    }).catch(function (error) {
      // an older page names an older version of a file: the current one will do
      return caches.match(request, { ignoreSearch: true }).then(function (other) {
        if (other) { return other; }
        throw error;
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(asset(request, url));
  }
});

// Where Background Sync exists, the pages' kept deals are sent when the network is back,
// even with the game's page closed: the worker asks an open page to send them (the code
// that knows how lives on the page); with none open, they go at the next visit.
self.addEventListener("sync", function (event) {
  if (event.tag !== "kept-deals") { return; }
  event.waitUntil(self.clients.matchAll({ type: "window" }).then(function (windows) {
    windows.forEach(function (w) { w.postMessage("kierki-send-kept"); });
  }));
});
