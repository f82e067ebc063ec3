"""``kierki``: run the scorekeeper for a table, back up its database, tidy its games.

``kierki serve`` starts a production WSGI server (gevent's, one process) on every
interface and prints the address phones on the same Wi-Fi should open. Every
connection is a greenlet, so the live table's open event streams cost a few kilobytes
each instead of a thread. Its settings are chosen for a small computer (a Raspberry Pi)
serving one club evening; each can be changed by a flag or by an environment variable
(``KIERKI_CONNECTION_LIMIT``, ...), the flag winning. ``docs/production.md`` explains
each one.

``kierki serve`` also prints a host link, usable once: the browser that opens it is the
host (``kierki host-link`` makes a new one). Behind ``KIERKI_PROXY_HOPS`` proxies it
serves only on a loopback address unless told that only the proxy reaches it
(``--trust-proxy-on-public-address``, ``KIERKI_TRUST_PROXY_ANYWHERE=1``).

``kierki backup PATH`` writes a consistent copy of the database while the server
runs, the server's secret key kept in it (``--keep N`` into a folder: only the newest N
such copies stay); ``kierki restore BACKUP`` brings one back, on this machine or a new
one, with every token and link made before it working; ``kierki games
list`` and ``kierki games delete ID...`` are for the host.
"""
from __future__ import annotations

import argparse
import io
import os
import re
import signal
import socket
import sqlite3
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from . import create_app
from .common import collation
from .outputs.share import lan_address
from .storage import backups, connection, game_reads, instance_lock

if TYPE_CHECKING:
    from flask import Flask


@dataclass(frozen=True)
class Setting:
    """One server setting: its flag, its environment variable, its default and why."""

    name: str
    #: The value, or how it follows the app (a function of it, said in ``shown``).
    default: int | str | Callable[[Flask], int]
    kind: Callable[[str], int | str]
    help: str
    shown: str = ""

    @property
    def env(self) -> str:
        return "KIERKI_" + self.name.upper()

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def port_number(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise ValueError(text)
    return value


SETTINGS = [
    Setting("host", "0.0.0.0", str, "interface to listen on (all of them)"),
    Setting("port", 5000, port_number, "TCP port"),
    Setting("connection_limit", 2000, positive,
            "open connections for pages and the API (requests being read and idle "
            "kept-alive ones included) before new ones wait; a phone keeps one to three "
            "open, so enough for some 600 phones. The live tables' streams come on top"),
    Setting("stream_limit", lambda app: _app_stream_limit(app), positive,
            "open live-table streams (one per phone showing a game); one more is "
            "answered 503 and that page asks every 5 s instead. The server accepts "
            "connection_limit + stream_limit connections, so streams never take the "
            "pages' share", "the app's LIVE_STREAM_LIMIT, 8000"),
    Setting("channel_timeout", 60, positive,
            "seconds an idle connection is kept; a phone put away frees its slot (an "
            "event stream is never idle: it sends a line every 15 s)"),
    Setting("request_timeout", 30, positive,
            "seconds from a request's first byte until its headers and body are read; "
            "past it the server answers 408 and closes the connection"),
    Setting("max_request_body_size", lambda app: _app_body_limit(app), positive,
            "largest request body accepted, in bytes (the app's limit is set to it); a "
            "larger one is answered 413 by the app without its reading it",
            "the app's MAX_CONTENT_LENGTH, 2 MiB"),
]

class SettingError(ValueError):
    """An environment variable holds no valid value for its setting."""



def _app_body_limit(app: Flask) -> int:
    return int(app.config.get("MAX_CONTENT_LENGTH") or 2 * 1024 * 1024)


def _app_stream_limit(app: Flask) -> int:
    from .web import live  # after patch(): its locks are gevent's

    return int(app.config.get("LIVE_STREAM_LIMIT") or live.STREAM_LIMIT)


def server_settings(args: argparse.Namespace, app: Flask,
                    environ: Mapping[str, str] = os.environ) -> dict[str, int | str]:
    """The server's settings: the flag, else ``KIERKI_<SETTING>``, else the default.

    The largest body defaults to the app's ``MAX_CONTENT_LENGTH`` (2 MiB), the streams to
    its ``LIVE_STREAM_LIMIT`` (8000)."""
    chosen: dict[str, int | str] = {}
    for s in SETTINGS:
        value = getattr(args, s.name, None)
        raw = environ.get(s.env, "").strip()
        if value is None and raw:
            try:
                value = s.kind(raw)
            except ValueError:
                raise SettingError(f"{s.env}={raw!r} is not a valid {s.flag}") from None
        if value is None:
            value = s.default(app) if callable(s.default) else s.default
        chosen[s.name] = value
    return chosen


#: How much of a body over the limit the server reads (and drops) before the app's 413,
#: so that a client that sends its whole body before reading gets the answer rather
#: than a reset connection. Past it the connection is closed unread.
DRAIN_FACTOR = 4

#: The reason phrase of each answer the server writes itself.
REASONS = {400: "Bad Request", 408: "Request Timeout", 414: "Request URI Too Long",
           500: "Internal Server Error"}


def server_answer(code: int, https: bool = False) -> bytes:
    """An answer the server writes itself (a request it cannot read, a failure outside the
    app): empty, closing the connection, with the app's security headers, and with
    ``Strict-Transport-Security`` when the server is reached over HTTPS (``https``: its
    ``KIERKI_PUBLIC_URL`` is an https one; the server itself cannot tell a proxy's
    forwarded scheme from a forged one before it has read the request)."""
    from .web.hardening import HSTS, SECURITY_HEADERS

    headers = [*SECURITY_HEADERS.items(), *([HSTS] if https else [])]
    lines = [f"HTTP/1.1 {code} {REASONS[code]}", "Connection: close", "Content-Length: 0",
             *(f"{name}: {value}" for name, value in headers)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def accepted(settings: Mapping[str, int | str]) -> int:
    """How many connections the server holds at once: the pages' share
    (``connection_limit``) and the live tables' streams (``stream_limit``, which the app
    counts and refuses past) on top of it, so that streams never take what pages need."""
    return int(settings["connection_limit"]) + int(settings["stream_limit"])


class _Read:
    """The body of a refused request, already read (or given up on): nothing to discard."""

    def _discard(self) -> None:
        pass


def make_server(app: Flask, settings: dict[str, int | str]):
    """gevent's WSGI server for ``app`` with the settings (call after :func:`patch`).

    One greenlet per connection, at most :func:`accepted` of them (more wait to be
    accepted), of which the app lets ``stream_limit`` be event streams (its
    ``LIVE_STREAM_LIMIT`` is set to it); a connection that waits ``channel_timeout``
    seconds for the client between requests is closed, and a request whose line,
    headers and body are not all read ``request_timeout`` seconds after its first byte
    is answered 408 and its connection closed (one deadline for the whole request: a
    client sending a header line every few seconds is not waited for); responses go out
    without Nagle's delay. Every body is read (within the deadline) before the app is
    called, so the app never waits for a client. The body limit is the app's
    ``MAX_CONTENT_LENGTH``, set to ``max_request_body_size``: a larger body (announced,
    or counted while reading a chunked one) is read and dropped, up to
    :data:`DRAIN_FACTOR` times the limit, and the app answers 413 with its own page
    (the connection then closed). The app's errors go to standard error (Flask logs a
    failure's traceback there); no access log, no ``Server`` header, no traceback in an
    answer; the server's own answers carry the app's security headers."""
    from gevent import Timeout
    from gevent.pool import Pool
    from gevent.pywsgi import WSGIHandler, WSGIServer

    idle = int(settings["channel_timeout"])
    whole = int(settings["request_timeout"])
    limit = int(settings["max_request_body_size"])
    app.config["MAX_CONTENT_LENGTH"] = limit  # one limit: the app's 413 page names it
    app.config["LIVE_STREAM_LIMIT"] = int(settings["stream_limit"])  # the app counts them
    https = str(app.config.get("PUBLIC_URL") or "").startswith("https://")

    def answer(code: int) -> bytes:
        return server_answer(code, https)

    class Handler(WSGIHandler):
        deadline: Timeout | None = None

        def handle(self) -> None:
            self.socket.settimeout(idle)  # reading the next request, or a stalled client
            # gevent sends a response's headers and its body in two writes; with Nagle's
            # algorithm the body then waits for the phone's delayed ACK of the headers,
            # 40 ms on Linux, on every answer over a kept-alive connection.
            try:
                self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:  # not TCP (a Unix socket in a test)
                pass
            super().handle()

        def read_requestline(self) -> str:
            """The request line, once its first byte has come: until then the connection
            is idle (a socket timeout of ``channel_timeout``), from then on the whole
            request has ``request_timeout`` seconds."""
            if not self.rfile.peek(1):  # the client closed the connection
                return ""
            self.deadline = Timeout.start_new(whole)
            return super().read_requestline()

        def _end_deadline(self) -> None:
            if self.deadline is not None:
                self.deadline.close()  # kept: what it raised is still told by it

        def _too_late(self, error: BaseException) -> bool:
            return self.deadline is not None and error is self.deadline

        def handle_one_request(self):
            try:
                result = super().handle_one_request()
            except Timeout as late:
                if not self._too_late(late):
                    raise
                # Answered rather than dropped: a phone whose upload stalled is told
                # why (and a browser retries a request answered 408 by itself).
                self.close_connection = True
                return "408", answer(408)
            finally:
                self._end_deadline()
            if isinstance(result, tuple):  # (code, bytes): a request it could not read
                return result[0], answer(int(result[0]))
            return result

        def read_request(self, raw_requestline: str) -> bool:
            try:
                return super().read_request(raw_requestline)
            except OSError as e:  # headers cut off or too slow: a client error, no traceback
                raise ValueError(f"reading the headers: {e}") from None

        def _handle_client_error(self, ex: BaseException):
            """A request that cannot be read (too many or too long headers, a broken chunk):
            the client's mistake, answered 400 and not logged (gevent would print a
            traceback for some)."""
            return "400", answer(400)

        def _send_error_response_if_possible(self, error_code: int) -> None:
            if self.response_length:  # the answer had begun: only closing is left
                self.close_connection = True
                return
            try:
                self.socket.sendall(answer(error_code))
            except OSError:
                pass
            self.close_connection = True

        def _drain(self) -> None:
            """Read and drop the rest of a body over the limit, up to the bound (not at
            all for a client that waits to be told before sending it)."""
            if self.environ.get("HTTP_EXPECT", "").lower() == "100-continue":
                return
            length = self.content_length
            left = DRAIN_FACTOR * limit
            if length is not None and length - self.wsgi_input.position > left:
                return
            try:
                while left > 0:
                    chunk = self.wsgi_input.read(min(65536, left))
                    if not chunk:
                        return
                    left -= len(chunk)
            except (OSError, ValueError):  # a broken chunk, a client gone
                return
            except Timeout as late:  # the request's time is up: the 413 all the same
                if not self._too_late(late):
                    raise

        def handle_one_response(self) -> None:
            try:
                if not self._read_body():
                    return
            finally:
                self._end_deadline()  # the app's own time is not limited (streams)
            super().handle_one_response()

        def _read_body(self) -> bool:
            """Read the body whole, before the app runs and within the request's deadline
            (a :class:`Timeout` past it); False when it was answered here (400)."""
            length = self.content_length
            if length is None and self.wsgi_input.chunked_input:
                # No length announced: read the body here, one byte past the limit at
                # most (werkzeug would hand the app a body cut at the limit).
                try:
                    body = self.wsgi_input.read(limit + 1)
                except (OSError, ValueError):  # a broken chunk, a client gone
                    self._send_error_response_if_possible(400)
                    return False
                length = len(body)
                self.environ["wsgi.input"] = io.BytesIO(body)
                self.environ["CONTENT_LENGTH"] = str(length)
                self.environ.pop("HTTP_TRANSFER_ENCODING", None)
            elif length and length <= limit:
                try:
                    body = self.wsgi_input.read(length)
                except OSError:  # the client is gone: nobody to answer
                    self.close_connection = True
                    return False
                self.environ["wsgi.input"] = io.BytesIO(body)  # short if it left early
            if length is not None and length > limit:
                # The app answers (its page, in its language) and reads no body: the
                # server has read what it will of it. The connection is then closed.
                self._drain()
                self.close_connection = True
                self.environ["wsgi.input"] = io.BytesIO(b"")
                self.wsgi_input = _Read()
            return True

    return WSGIServer((str(settings["host"]), int(settings["port"])), app,
                      spawn=Pool(accepted(settings)), handler_class=Handler,
                      log=None, error_log=None, environ={"wsgi.errors": sys.stderr})


def patch() -> None:
    """gevent's cooperative socket, time, threading...: before the app is imported, so
    that a waiting stream (``threading.Condition``, ``time.sleep``) lets others run."""
    from gevent import monkey

    monkey.patch_all()


#: How often the collector looks at every object again (:func:`pace_collector`), s.
FULL_COLLECTION_EVERY = 600.0


def pace_collector(every: float = FULL_COLLECTION_EVERY,
                   clock: Callable[[], float] = time.monotonic) -> None:
    """Keep Python's cyclic collector from stopping the server for a whole heap's scan
    every few seconds. A night of 1,000 tables holds a million container objects (4,000
    streams, their sockets and greenlets, the kept pages): a full collection scanned them
    all every 10-15 s, 300-780 ms each, every request of the one thread waiting
    (``bench/club.py``). Here what survives a full collection is frozen (``gc.freeze``:
    kept out of later scans; freed by its reference count as before), so the next one
    scans what came since; every ``every`` seconds the frozen are put back, and the next
    full collection looks at everything once (cycles among the frozen are reclaimed
    then). What the process holds when it starts serving is frozen once. gevent's
    greenlet tree (each greenlet's spawning stack, kept for debugging: a frame object per
    greenlet) is not recorded."""
    import gc

    import gevent

    gevent.config.track_greenlet_tree = False

    state = {"thawed": clock()}

    def after(phase: str, info: dict[str, int]) -> None:
        if phase != "stop" or info["generation"] != 2:
            return
        if clock() - state["thawed"] >= every:
            gc.unfreeze()  # the next full collection scans everything
            state["thawed"] = clock()
        else:
            gc.freeze()

    gc.collect()
    gc.freeze()
    gc.callbacks.append(after)


def raise_file_limit(connections: int) -> None:
    """Each connection is a file descriptor; many systems allow a process 1024 by
    default. Raise the soft limit as far as the hard one allows (Linux, macOS)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Linux or macOS
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 256  # the database, the listening socket, the rest
    if soft != resource.RLIM_INFINITY and soft < wanted:
        new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        except (ValueError, OSError):
            pass


def run(app: Flask, settings: dict[str, int | str]) -> None:
    """Serve until stopped: Ctrl+C, or SIGTERM (which ends the process at once)."""
    import gevent

    raise_file_limit(accepted(settings))
    pace_collector()  # before the server's greenlets (hello-world's in bench/server.py too)
    server = make_server(app, settings)
    hub = gevent.get_hub()
    if os.getpid() == 1:
        # The first process of a container: the kernel ignores a signal it has no handler
        # for, so SIGTERM (podman stop) would wait for SIGKILL. End at once, as elsewhere.
        gevent.signal_handler(signal.SIGTERM, os._exit, 0)
    hub.NOT_ERROR = (*hub.NOT_ERROR, KeyboardInterrupt)  # Ctrl+C: no traceback printed
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def is_loopback(host: str) -> bool:
    """Whether a bind address is this machine's own (only its programs can connect)."""
    import ipaddress

    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


TRUST_ANYWHERE = "KIERKI_TRUST_PROXY_ANYWHERE"


def proxy_refusal(app: Flask, host: str, told: bool,
                  environ: Mapping[str, str] = os.environ) -> str | None:
    """Why the server must not start (None: it may): with ``KIERKI_PROXY_HOPS`` it trusts
    the ``X-Forwarded-For`` a client sends, so on an address phones can reach directly
    any client could forge its address and escape every rate limit. Told (the flag or
    ``KIERKI_TRUST_PROXY_ANYWHERE=1``) that only the proxy reaches it, it starts."""
    hops = int(app.config.get("PROXY_HOPS") or 0)
    told = told or environ.get(TRUST_ANYWHERE, "").strip().lower() in ("1", "true", "yes")
    if not hops or is_loopback(host) or told:
        return None
    return (f"Refused: KIERKI_PROXY_HOPS={hops} trusts the X-Forwarded-For header, and on "
            f"{host} a phone can reach the server without the proxy: it could then forge "
            "its address and escape the rate limits. Serve on 127.0.0.1 behind a proxy on "
            "this machine (--host 127.0.0.1), or, when only the proxy can reach this "
            "address (a container's own network), say so: --trust-proxy-on-public-address "
            f"or {TRUST_ANYWHERE}=1.")


def host_link(app: Flask, base: str) -> str:
    """A new host link (the one before it is replaced, the browsers it made the host are
    the host no longer): ``<base>/host/<token>``."""
    from .storage import connection
    from .web import access

    db = connection.connect(app.config["DATABASE"])
    try:
        return f"{base.rstrip('/')}/host/{access.new_host_link(db)}"
    finally:
        db.close()


def _base_url(app: Flask, host: str, port: int | str) -> str:
    public = app.config.get("PUBLIC_URL")  # KIERKI_PUBLIC_URL: what phones are to open
    if public:
        return str(public)
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    return f"http://{shown}:{port}"


HOST_LINK_HELP = ("Host link (once; the browser that opens it is the host: it may delete "
                  "any game and rename anyone; kierki host-link makes a new one):")


def serve(args: argparse.Namespace) -> int:
    patch()
    app = create_app()
    from .outputs import renders  # after patch(): the pool's thread is a greenlet

    renders.renders.log = lambda line: print(line, file=sys.stderr, flush=True)
    renders.renders.start(int(app.config["PDF_WORKERS"]))  # PDFs render in other processes
    collation.warm(app.config["LANGUAGES"])  # names' order: its tables read now, not mid-request
    try:
        settings = server_settings(args, app)
    except SettingError as e:
        print(e, file=sys.stderr)
        return 2
    host, port = settings["host"], settings["port"]
    refusal = proxy_refusal(app, str(host), bool(getattr(args, "trust_proxy", False)))
    if refusal:
        print(refusal, file=sys.stderr)
        return 2
    lock = instance_lock.hold(app.instance_path)  # kierki restore refuses while it is held
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    limits = ", ".join(f"{k}={v}" for k, v in settings.items() if k not in ("host", "port"))
    local = f"http://{shown}:{port}/"
    public = app.config.get("PUBLIC_URL")  # KIERKI_PUBLIC_URL: what phones are to open
    where = (f"Open on every phone:\n    {public}/\nLocal address (for the proxy in "
             f"front): {local}") if public else f"Open on every phone at the table:\n    {local}"
    link = host_link(app, _base_url(app, str(host), port))
    print(f"Kierki scorekeeper is running. {where}\n"
          f"{HOST_LINK_HELP}\n    {link}\n"
          f"Database: {app.config['DATABASE']}   (Ctrl+C stops the server)\n"
          f"Server: {limits}, pdf_workers={app.config['PDF_WORKERS']}, "
          f"pdf_queue={app.config['PDF_QUEUE']}", flush=True)
    run(app, settings)
    lock.close()
    return 0


def new_host_link(app: Flask, args: argparse.Namespace) -> int:
    """``kierki host-link``: a new host link for the running server (same database)."""
    host = args.host or os.environ.get("KIERKI_HOST", "").strip() or "0.0.0.0"
    port = args.port or os.environ.get("KIERKI_PORT", "").strip() or 5000
    print(f"{HOST_LINK_HELP}\n    {host_link(app, _base_url(app, host, port))}")
    return 0


def made_by_backup(folder: Path, stem: str) -> list[Path]:
    """The copies ``kierki backup FOLDER`` wrote there (``<stem>-YYYYmmdd-HHMMSS.sqlite``),
    oldest first; any other file is not one of them."""
    named = re.compile(re.escape(stem) + r"-\d{8}-\d{6}\.sqlite")
    return sorted(p for p in folder.iterdir() if named.fullmatch(p.name) and p.is_file())


#: The table a backup keeps the server's secret key in (:func:`backup`, :func:`restore`).
#: In the copy, not beside it: a backup is one file, so it cannot be copied, moved or
#: pruned (``--keep``) without its secret, and it is already this user's alone (0600).
#: Without the secret every game's, director's and variant's token, and every sheet's
#: reference, would be orphaned by a restore on a new machine. The live database never
#: holds it: a restore takes it out (the SQL of both: :mod:`.storage.backups`).
SECRET_TABLE = backups.SECRET_TABLE


def backup(app: Flask, target: Path, keep: int | None = None) -> int:
    """A consistent copy of the live database (SQLite's online backup) with the server's
    secret key in it (:data:`SECRET_TABLE`), one file, mode 0600. Into a folder with
    ``keep``: then only the newest ``keep`` copies made so are left there."""

    source = Path(app.config["DATABASE"])
    target = target.expanduser()
    folder = target if target.is_dir() else None
    if keep is not None and folder is None:
        print(f"--keep needs a folder to write into: {target} is not one.", file=sys.stderr)
        return 1
    if folder is not None:
        target = folder / f"{source.stem}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite"
    if target.exists() and target.resolve() == source.resolve():
        print(f"Refused: {target} is the live database.", file=sys.stderr)
        return 1
    if not target.parent.is_dir():
        print(f"No such folder: {target.parent}", file=sys.stderr)
        return 1
    part = target.with_name(f".{target.name}.part")
    part.unlink(missing_ok=True)
    part.touch(mode=0o600)  # the secret goes in: this user's alone from the first byte
    db = connection.connect(str(source))
    try:
        check, games = backups.write_copy(db.conn, part, _text(app.config["SECRET_KEY"]))
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    finally:
        db.close()
    if check != "ok":
        part.unlink(missing_ok=True)
        print(f"The copy failed its integrity check ({check}); nothing written.",
              file=sys.stderr)
        return 1
    os.chmod(part, 0o600)
    os.replace(part, target)
    print(f"Backup written: {target} ({games} games, and the server's secret key)")
    if folder is not None and keep is not None:
        older = [p for p in made_by_backup(folder, source.stem) if p != target]
        for old in older[:max(0, len(older) - (keep - 1))]:
            old.unlink(missing_ok=True)
            print(f"Removed the older copy {old.name}")
    return 0


def _text(secret: str | bytes) -> str:
    return secret.decode() if isinstance(secret, bytes) else str(secret)


def restore(app: Flask, source: Path, force: bool = False) -> int:
    """A backup (:func:`backup`) brought back into this server's instance folder: the
    database (its integrity checked first, then migrated to this version's schema) and
    the secret key kept in it, so every token and link made before still works. Refused
    over a live database holding any game, person, tournament or variant unless
    ``force``, and always while a server uses the instance (it holds the instance's lock:
    :mod:`.storage.instance_lock`); no server starts while it runs."""
    try:
        lock = instance_lock.alone(app.instance_path)
    except instance_lock.InUse:
        print(f"Refused: a server is using {app.instance_path} now (it holds "
              f"{instance_lock.LOCK_FILE} there), and a restore would replace the database "
              "under it. Stop every `kierki serve` on this folder, then restore.",
              file=sys.stderr)
        return 1
    try:
        return _restore(app, source, force)
    finally:
        lock.close()


def _restore(app: Flask, source: Path, force: bool) -> int:
    from .web.db import init_db

    source = source.expanduser()
    live = Path(app.config["DATABASE"])
    instance = Path(app.instance_path)
    if not source.is_file():
        print(f"No such backup: {source}", file=sys.stderr)
        return 1
    if live.exists() and source.resolve() == live.resolve():
        print(f"Refused: {source} is the live database.", file=sys.stderr)
        return 1
    try:
        found = backups.read(source)
    except sqlite3.DatabaseError as e:
        print(f"Refused: {source} is not a database ({e}).", file=sys.stderr)
        return 1
    check, tables, secret, counts = found.check, found.tables, found.secret, found.counts
    if check != "ok":
        print(f"Refused: {source} failed its integrity check ({check}).", file=sys.stderr)
        return 1
    if "games" not in tables:
        print(f"Refused: {source} is not a Kierki database (it has no games).",
              file=sys.stderr)
        return 1
    if not isinstance(secret, str) or not secret.strip():
        secret = None
    # the app's key came from instance/secret_key unless KIERKI_SECRET_KEY or config.py set it
    elsewhere = _text(app.config["SECRET_KEY"]) != _secret_file(instance)
    db = connection.connect(str(live))
    try:
        there = backups.kept_rows(db.conn)
        if there and not force:
            held = ", ".join(f"{n} {t}" for t, n in there.items())
            print(f"Refused: the live database {live} is not empty ({held}). Back it up, "
                  f"then restore with --force to replace it.", file=sys.stderr)
            return 1
        part = instance / ".restore.sqlite.part"
        part.unlink(missing_ok=True)
        part.touch(mode=0o600)
        try:
            backups.bring_back(source, part, db.conn)  # the live one whole or unchanged
        finally:
            part.unlink(missing_ok=True)
    finally:
        db.close()
    init_db(str(live))  # a copy made by an older version: its schema brought up to date
    connection.owner_only(live)
    if secret is not None:
        key = instance / "secret_key"
        written = instance / ".secret_key.part"
        written.unlink(missing_ok=True)
        written.touch(mode=0o600)
        written.write_text(secret.strip())
        os.chmod(written, 0o600)
        os.replace(written, key)
    held = ", ".join(f"{n} {t}" for t, n in counts.items())
    print(f"Restored {source} into {live} ({held}).")
    if secret is None:
        print("The backup holds no secret key (made before backups kept it): the tokens and "
              "links made before it will not work unless the old instance/secret_key is put "
              f"in {instance / 'secret_key'} by hand.")
    else:
        print(f"Restored the server's secret key into {instance / 'secret_key'} (mode 0600): "
              "the tokens and links made before work again.")
        if elsewhere and _text(app.config["SECRET_KEY"]) != secret.strip():
            print("KIERKI_SECRET_KEY (or config.py) sets another secret key, and it wins over "
                  "the file: unset it, or set it to the restored one.", file=sys.stderr)
    print("Start (or restart) the server to use them.")
    return 0


def _secret_file(instance: Path) -> str | None:
    try:
        return (instance / "secret_key").read_text().strip()
    except OSError:
        return None


def _local(stamp: str | None) -> str:
    if not stamp:
        return ""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def list_games(app: Flask) -> int:

    db = connection.connect(app.config["DATABASE"])
    try:
        games = game_reads.list_games(db)
    finally:
        db.close()
    if not games:
        print("No games.")
        return 0
    rows = [("id", "code", "family", "ruleset", "players", "deals", "updated")] + [
        (g["id"], g["join_code"] or "", g["family"], g["ruleset_id"] or "",
         ", ".join(g["players"]),
         str(g["deals_entered"]) + (" (over)" if g["finished"] else ""), _local(g["updated_at"]))
        for g in games]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])
    return 0


def delete_games(app: Flask, ids: list[str]) -> int:
    """Delete through the service, with each game's current version (history goes too)."""
    from .domain import service

    status = 0
    db = connection.connect(app.config["DATABASE"])
    try:
        for gid in ids:
            for _attempt in range(3):  # a phone may write between the read and the delete
                try:
                    game = service.load(db, gid)
                    service.delete_game(db, game, game.version)
                except service.GameNotFound:
                    print(f"No game {gid}", file=sys.stderr)
                    status = 1
                except service.Conflict:
                    continue
                else:
                    print(f"Deleted {gid}: {', '.join(game.players)} "
                          f"({game.recorded} deals)")
                break
            else:
                print(f"Not deleted {gid}: it keeps changing; try again", file=sys.stderr)
                status = 1
    finally:
        db.close()
    return status


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = top.add_subparsers(dest="command", required=True)
    run = sub.add_parser(
        "serve", help="serve the app on the local network",
        description="Serve the app with gevent's WSGI server. Every setting also reads "
                    "KIERKI_<SETTING> from the environment (KIERKI_PORT=8080); "
                    "a flag wins over the environment.")
    for s in SETTINGS:
        default = s.shown or s.default
        run.add_argument(s.flag, type=s.kind, default=None,
                         help=f"{s.help} (default: {default}; env {s.env})")
    run.add_argument("--trust-proxy-on-public-address", dest="trust_proxy",
                     action="store_true",
                     help="with KIERKI_PROXY_HOPS, serve on an address other than loopback "
                          "all the same: only the proxy can reach it (a container's own "
                          f"network); env {TRUST_ANYWHERE}=1")
    link = sub.add_parser("host-link", help="a new host link: the browser that opens it "
                                            "is the host (the one before stops working)")
    link.add_argument("--host", default=None, help="the address the server listens on "
                                                   "(default: env KIERKI_HOST, else all)")
    link.add_argument("--port", type=port_number, default=None,
                      help="the server's port (default: env KIERKI_PORT, else 5000)")
    sub.add_parser("init-db", help="create the database or migrate it to the current schema")
    save = sub.add_parser("backup", help="copy the database while it is in use",
                          description="Write a consistent copy of the database "
                                      "(SQLite's online backup) to PATH, a file or a folder "
                                      "(then named with the date and time). Safe while the "
                                      "server runs.")
    save.add_argument("path", type=Path)
    save.add_argument("--keep", type=positive, metavar="N", default=None,
                      help="into a folder: keep the newest N copies made by this command "
                           "there and delete the older ones (other files are left alone)")
    back = sub.add_parser("restore", help="bring a backup back, with its secret key",
                          description="Restore a backup made by 'kierki backup' into this "
                                      "server's instance folder (KIERKI_INSTANCE): the "
                                      "database, integrity-checked, and the secret key kept "
                                      "with it, so every token and link made before works. "
                                      "Stop the server first; start it after.")
    back.add_argument("backup", type=Path)
    back.add_argument("--force", action="store_true",
                      help="replace a live database that already holds games, people, "
                           "tournaments or variants")
    games = sub.add_parser("games", help="list or delete games")
    what = games.add_subparsers(dest="games_command", required=True)
    what.add_parser("list", help="every game, latest activity first")
    gone = what.add_parser("delete", help="delete games for good, with their history")
    gone.add_argument("ids", nargs="+", metavar="ID")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    os.umask(0o077)  # every file the server makes (copies, sheets) readable by its user alone
    if args.command == "serve":
        return serve(args)
    app = create_app()
    if args.command == "backup":
        return backup(app, args.path, args.keep)
    if args.command == "host-link":
        return new_host_link(app, args)
    if args.command == "restore":
        return restore(app, args.backup, args.force)
    if args.command == "games":
        if args.games_command == "list":
            return list_games(app)
        return delete_games(app, args.ids)
    print(f"Database ready: {app.config['DATABASE']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
