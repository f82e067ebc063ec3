"""PDF renders in worker processes, so that a long render never stalls the pages.

The app renders a sheet's HTML (Jinja) and hands it to a bounded pool of ``spawn``ed
processes that run only WeasyPrint (:func:`.pdf.render`), at a lower priority, each ending
with the server. Under ``kierki serve`` threading is gevent's, so waiting on a render's
future sleeps only the asking greenlet. A request for a sheet whose render is in flight
waits for that render; past ``PDF_WORKERS + PDF_QUEUE`` renders in flight a new one is
refused with :class:`Full` (503). ``PDF_WORKERS = 0`` renders in the process itself."""
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

NICE = 19  # a worker's priority below the server's
FIRST_GUESS = 5.0  # a render's seconds before any was measured


class Full(Exception):
    """More renders are waiting than the queue holds: nothing was started."""

    message = N_("Many sheets are being printed just now. Try again in a few seconds.")

    def __init__(self, retry_after: int):
        super().__init__(f"the PDF queue is full; retry after {retry_after} s")
        self.retry_after = retry_after


@dataclass(frozen=True)
class Job:
    """What a worker needs: the sheet's HTML, where its files are, its style sheet, and
    what the server's log calls it."""

    html: str
    base_url: str
    stylesheet: str | None = None
    name: str = ""


def _end_with_parent() -> None:
    parent = multiprocessing.parent_process()
    if parent is not None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)  # the server is gone (killed: no shutdown told us)


def _start_worker() -> None:
    os.nice(NICE)
    threading.Thread(target=_end_with_parent, daemon=True, name="parent-watch").start()


def _render_file(html_path: str, base_url: str, stylesheet: str | None) -> str:
    """The HTML in ``html_path`` rendered into a file beside it; that file's path."""
    out = Path(html_path + ".out")  # a temporary file's name: trimmed if left over
    out.write_bytes(pdf.render(Path(html_path).read_text(encoding="utf-8"), base_url, stylesheet))
    return str(out)


def _warm(base_url: str, stylesheet: str | None) -> bool:
    """A tiny document rendered, so that the fonts and the style sheet are ready before the
    first sheet; whether it made a whole PDF."""
    return pdf.is_whole_pdf(pdf.render("<p>Kierki</p>", base_url, stylesheet))


class Renders:
    """Renders in flight, the worker pool and the recent render time; one per process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flight: dict[Hashable, Future] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._seconds = FIRST_GUESS
        #: Told a line per render and per refusal (``kierki serve``: standard error).
        self.log: Callable[[str], None] | None = None

    def pool(self, workers: int) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker)
            return self._pool

    def start(self, workers: int, base_url: str,
              stylesheet: str | None = None) -> list[Future]:
        """The workers started now, each warmed by a tiny render (:func:`_warm`); the warm
        renders' futures (none without workers)."""
        return [self.pool(workers).submit(_warm, base_url, stylesheet)
                for _ in range(workers)] if workers > 0 else []

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _submit(self, workers: int, html_path: str, job: Job) -> Path:
        pool = self.pool(workers)
        try:
            return Path(pool.submit(_render_file, html_path, job.base_url, job.stylesheet).result())
        except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise

    def _run(self, job: Job, workers: int, folder: Path) -> bytes:
        """``job`` rendered here (no workers) or by a worker. The HTML and the PDF pass as
        files in ``folder``, never through the pool's pipes: under gevent a pipe write
        larger than its buffer blocks the whole process while the worker writes its result."""
        if workers <= 0:
            return pdf.render(job.html, job.base_url, job.stylesheet)
        folder.mkdir(parents=True, exist_ok=True)
        fd, html_path = tempfile.mkstemp(dir=folder, prefix=pdf.TEMP_PREFIX)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(job.html)
            try:
                out = self._submit(workers, html_path, job)
            except BrokenProcessPool:
                out = self._submit(workers, html_path, job)  # once more, by a new worker
            try:
                return out.read_bytes()
            finally:
                out.unlink(missing_ok=True)
        finally:
            Path(html_path).unlink(missing_ok=True)

    def waiting(self) -> int:
        """Renders in flight in this process (running or queued)."""
        with self._lock:
            return len(self._flight)

    def retry_after(self, workers: int) -> int:
        """Seconds until the queue has likely moved on by one (1 to 120)."""
        estimate = self._seconds * (self.waiting() + 1) / max(workers, 1)
        return max(1, min(120, math.ceil(estimate)))

    def render(self, cache: pdf.SheetCache, key: tuple[Any, ...],
               make_job: Callable[[], Job], workers: int, queue: int) -> bytes:
        """The kept file for ``key``, else the render in flight for it, else a new render
        of ``make_job()`` kept as ``key``'s file; :class:`Full` past ``workers + queue``
        renders in flight."""
        body = cache.get(*key)
        if body is not None:
            return body
        flight = (str(cache.folder), *key)
        with self._lock:
            shared = self._flight.get(flight)
            full = shared is None and len(self._flight) >= max(workers, 1) + queue
            if shared is None and not full:
                mine = self._flight[flight] = Future()
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
                self._seconds = 0.7 * self._seconds + 0.3 * took
                cache.put(body, *key)
                if self.log:
                    self.log(f"PDF rendered in {took:.1f} s, queue included ({len(body) // 1024} "
                             f"KiB, {'a worker' if workers > 0 else 'in process'}): "
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
    workers, queue = int(config["PDF_WORKERS"]), int(config["PDF_QUEUE"])
    if workers < 0 or queue < 0:
        raise ValueError(f"PDF_WORKERS and PDF_QUEUE must be 0 or more: {workers}, {queue}")
    return workers, queue


def for_app(app: Any, key: tuple[Any, ...], make_job: Callable[[], Job]) -> bytes:
    """A sheet's PDF under ``app``'s cache and pool settings (:meth:`Renders.render`)."""
    return renders.render(pdf.cache.for_app(app), key, make_job, *settings(app.config))
