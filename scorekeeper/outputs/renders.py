"""PDF renders outside the process that answers requests (issue 32, item 6).

A WeasyPrint render is seconds of one core (a 1,000-player tournament's results: some
14 s) and, in the server's one gevent process, nothing else is answered meanwhile. Here
the app renders the sheet's HTML (Jinja: cheap, and it needs the request's language,
address and database), and hands the string, with its base URL and style sheet, to a
bounded pool of worker processes that only run WeasyPrint (:func:`.pdf.render`):

* ``concurrent.futures.ProcessPoolExecutor`` with the ``spawn`` context (a fresh
  interpreter: nothing of the server's gevent patching, sockets or database connections
  is inherited, as ``fork`` would; the same on Linux and macOS), ``PDF_WORKERS``
  processes (``KIERKI_PDF_WORKERS``, 1 by default under ``kierki serve``). A worker runs
  at a lower priority (``nice`` :data:`NICE`), so on a shared core the process answering
  requests goes first, and ends when the server does (it watches its parent). The HTML
  goes to it, and the PDF comes back, as files in the sheets' folder: only their paths
  pass through the pool's pipes (see :meth:`Renders._run` for why).
* The request waits on the render's future. Under ``kierki serve`` threading is gevent's
  (``cli.patch``), so the executor's own thread is a greenlet and ``Future.result()``
  sleeps only the waiting greenlet: every other request goes on (measured and tested,
  ``tests/server/test_pdf_workers.py``). Under a threaded server or the test client it is
  an ordinary blocking wait.
* At most one render per document version in this process: a request for a key whose
  render is in flight waits for that render (the same future) and gets its bytes; the
  rendered file is kept by :class:`.pdf.SheetCache` as before, which answers every later
  request.
* A bounded queue: while ``PDF_WORKERS + PDF_QUEUE`` different renders are in flight
  (``KIERKI_PDF_QUEUE``, 8 by default), one more is refused with :class:`Full` (the web
  layer answers 503 with ``Retry-After``, estimated from the renders' recent times);
  waiting for a render already in flight is never refused.

``PDF_WORKERS = 0`` renders in the process itself (the tests' apps, made with a test
config, do so unless they ask for workers; the benchmarks of the render do too).
"""
from __future__ import annotations

import math
import multiprocessing
import multiprocessing.connection
import os
import tempfile
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..rules.errors import N_
from . import pdf

#: How much lower a worker's priority is than the server's (Unix ``nice``).
NICE = 19
DEFAULT_WORKERS = 1
DEFAULT_QUEUE = 8
#: A first guess of a render's seconds, before any was measured.
FIRST_GUESS = 5.0


class Full(Exception):
    """More renders are waiting than the queue holds: nothing was started."""

    message = N_("Many sheets are being printed just now. Try again in a few seconds.")

    def __init__(self, retry_after: int):
        super().__init__(f"the PDF queue is full; retry after {retry_after} s")
        self.retry_after = retry_after


@dataclass(frozen=True)
class Job:
    """What a worker needs: the sheet's HTML, where its files are, its style sheet."""

    html: str
    base_url: str
    stylesheet: str | None = None
    name: str = ""
    """What the server's log calls it."""


# --- in the worker ------------------------------------------------------------------------

def _end_with_parent() -> None:
    """Exit as soon as the server's process is gone (killed: no clean shutdown told us)."""
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - not a multiprocessing child
        return
    multiprocessing.connection.wait([parent.sentinel])
    os._exit(0)


def _start_worker() -> None:
    try:
        os.nice(NICE)
    except (AttributeError, OSError):  # pragma: no cover - not on Unix
        pass
    threading.Thread(target=_end_with_parent, daemon=True, name="parent-watch").start()


def _render_file(html_path: str, base_url: str, stylesheet: str | None) -> str:
    """The HTML in ``html_path`` rendered into a file beside it; that file's path."""
    html = Path(html_path).read_text(encoding="utf-8")
    body = pdf.render(html, base_url, stylesheet=stylesheet)
    fd, out = tempfile.mkstemp(dir=Path(html_path).parent, prefix=pdf.TEMP_PREFIX)
    with os.fdopen(fd, "wb") as f:
        f.write(body)
    return out


#: What a worker renders when the server starts (:meth:`Renders.start`).
WARM_HTML = "<p>Kierki</p>"


def _warm(base_url: str, stylesheet: str | None) -> bool:
    """A tiny document rendered with the sheets' style sheet, so that WeasyPrint is
    imported, the fonts found and the style sheet parsed before the first sheet is asked
    for, and the first sheet comes as fast as the next; whether it made a whole PDF."""
    return pdf.is_whole_pdf(pdf.render(WARM_HTML, base_url, stylesheet=stylesheet))


# --- in the server ------------------------------------------------------------------------

class Renders:
    """Renders in flight, the worker pools, the recent render time; one per process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flight: dict[Hashable, Future] = {}
        self._pools: dict[int, ProcessPoolExecutor] = {}
        self._seconds = FIRST_GUESS
        #: Told one line per render and per refusal (``kierki serve``: standard error).
        self.log: Callable[[str], None] | None = None

    # the pool

    def pool(self, workers: int) -> ProcessPoolExecutor:
        with self._lock:
            made = self._pools.get(workers)
            if made is None:
                made = self._pools[workers] = ProcessPoolExecutor(
                    workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker)
            return made

    def _broken(self, workers: int, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pools.get(workers) is pool:
                del self._pools[workers]
        pool.shutdown(wait=False, cancel_futures=True)

    def start(self, workers: int, base_url: str,
              stylesheet: str | None = None) -> list[Future]:
        """Start the workers now (``kierki serve``), each warmed by a tiny render with the
        sheets' files (:func:`_warm`), not at the first sheet asked for; the warm renders'
        futures (none without workers)."""
        if workers <= 0:
            return []
        pool = self.pool(workers)
        return [pool.submit(_warm, base_url, stylesheet) for _ in range(workers)]

    def shutdown(self) -> None:
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for p in pools:
            p.shutdown(wait=True, cancel_futures=True)

    def _run(self, job: Job, workers: int, folder: Path) -> bytes:
        """``job`` rendered: here (no workers) or by a worker. The HTML goes to the worker
        and the PDF comes back as files in ``folder`` (the sheets' own, on the same disk),
        never through the pool's pipes: under gevent the pool's feeder is a greenlet, and
        a pipe write larger than the pipe's buffer blocks the whole process until the
        worker reads it, which it does not while it writes a finished render's result:
        the server hung for good (a 1,000-player round sheet's HTML is megabytes)."""
        if workers <= 0:
            return pdf.render(job.html, job.base_url, stylesheet=job.stylesheet)
        folder.mkdir(parents=True, exist_ok=True)
        fd, html_path = tempfile.mkstemp(dir=folder, prefix=pdf.TEMP_PREFIX)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(job.html)
            for attempt in (1, 2):
                pool = self.pool(workers)
                try:
                    out = Path(pool.submit(_render_file, html_path, job.base_url,
                                           job.stylesheet).result())
                except BrokenProcessPool:  # a worker died (killed, out of memory): anew
                    self._broken(workers, pool)
                    if attempt == 2:
                        raise
                    continue
                try:
                    return out.read_bytes()
                finally:
                    out.unlink(missing_ok=True)
        finally:
            Path(html_path).unlink(missing_ok=True)
        raise AssertionError("unreachable")  # pragma: no cover

    # the queue

    def waiting(self) -> int:
        """Renders in flight in this process (running or queued)."""
        with self._lock:
            return len(self._flight)

    def retry_after(self, workers: int) -> int:
        """Seconds until the queue has likely moved on by one: the renders ahead of a new
        one over the workers, times a recent render's time; 1 to 120."""
        ahead = self.waiting() + 1
        estimate = self._seconds * ahead / max(workers, 1)
        return max(1, min(120, math.ceil(estimate)))

    def _took(self, seconds: float) -> None:
        self._seconds = 0.7 * self._seconds + 0.3 * seconds

    def render(self, cache: pdf.SheetCache, key: tuple[Any, ...],
               make_job: Callable[[], Job], workers: int, queue: int) -> bytes:
        """The kept file for ``key``, else the render in flight for it, else a new render
        (its job made by ``make_job``, in this process) kept as ``key``'s file. Raises
        :class:`Full` when ``workers + queue`` renders are already in flight."""
        body = cache.get(*key)
        if body is not None:
            return body
        flight = (str(cache.folder), *key)
        with self._lock:
            shared = self._flight.get(flight)
            if shared is None:
                if len(self._flight) >= max(workers, 1) + max(queue, 0):
                    full = True
                else:
                    full = False
                    mine: Future = Future()
                    self._flight[flight] = mine
        if shared is not None:
            return shared.result()
        if full:
            retry = self.retry_after(workers)
            if self.log:
                self.log(f"PDF queue full ({self.waiting()} renders): answered 503, "
                         f"retry after {retry} s")
            raise Full(retry)
        try:
            body = cache.get(*key)  # a render that ended since the first look kept it
            if body is None:
                job = make_job()
                began = time.monotonic()
                body = self._run(job, workers, cache.folder)
                took = time.monotonic() - began
                self._took(took)
                cache.put(body, *key)
                if self.log:
                    self.log(f"PDF rendered in {took:.1f} s, queue included "
                             f"({len(body) // 1024} KiB, "
                             f"{'a worker' if workers > 0 else 'in process'}): "
                             f"{job.name or key[0]}")
            mine.set_result(body)
            return body
        except BaseException as e:
            mine.set_exception(e)
            raise
        finally:
            with self._lock:
                del self._flight[flight]


renders = Renders()


def settings(config: Any) -> tuple[int, int]:
    """``(PDF_WORKERS, PDF_QUEUE)`` from an app's config, each a whole number ≥ 0."""
    workers = int(config.get("PDF_WORKERS", DEFAULT_WORKERS))
    queue = int(config.get("PDF_QUEUE", DEFAULT_QUEUE))
    if workers < 0 or queue < 0:
        raise ValueError(f"PDF_WORKERS and PDF_QUEUE must be 0 or more: {workers}, {queue}")
    return workers, queue


def for_app(app: Any, key: tuple[Any, ...], make_job: Callable[[], Job]) -> bytes:
    """A sheet's PDF under ``app``'s cache and pool settings (see :meth:`Renders.render`)."""
    workers, queue = settings(app.config)
    return renders.render(pdf.cache.for_app(app), key, make_job, workers, queue)
