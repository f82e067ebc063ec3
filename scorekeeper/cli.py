"""``kierki``: run the scorekeeper for a table, back up its database, tidy its games.

``kierki serve`` starts a production WSGI server (gunicorn, ``--workers`` processes of
its gevent worker) on every interface and prints the address phones on the same Wi-Fi
should open. Every connection is a greenlet, so the live table's open event streams cost
a few kilobytes each instead of a thread; the processes share nothing but the database,
whose writes each sees at once. Its settings are chosen for a small computer (a Raspberry Pi)
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
import os
import re
import sqlite3
import sys
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
    Setting("workers", 1, positive,
            "server processes (gunicorn's, each a gevent worker); every one reads and "
            "writes the same database and keeps nothing another's answers depend on"),
    Setting("connection_limit", 2000, positive,
            "open connections for pages and the API (requests being read and idle "
            "kept-alive ones included) before new ones wait; a phone keeps one to three "
            "open, so enough for some 600 phones. The live tables' streams come on top"),
    Setting("stream_limit", lambda app: _app_stream_limit(app), positive,
            "open live-table streams (one per phone showing a game); one more is "
            "answered 503 and that page asks every 5 s instead. The server accepts "
            "connection_limit + stream_limit connections a process, so streams never "
            "take the pages' share", "the app's LIVE_STREAM_LIMIT, 8000"),
    Setting("channel_timeout", 60, positive,
            "seconds an idle connection is kept, and a request's line and headers are "
            "waited for; a phone put away frees its slot (an event stream is never "
            "idle: it sends a line every 15 s)"),
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


#: The reason phrase of each answer the server writes itself.
REASONS = {400: "Bad Request", 414: "Request URI Too Long", 500: "Internal Server Error",
           501: "Not Implemented"}


def server_answer(code: int, https: bool = False) -> bytes:
    """An answer the server writes itself (a request it cannot read, a failure outside the
    app): empty, closing the connection, with the app's security headers, and with
    ``Strict-Transport-Security`` when the server is reached over HTTPS (``https``: its
    ``KIERKI_PUBLIC_URL`` is an https one; the server itself cannot tell a proxy's
    forwarded scheme from a forged one before it has read the request)."""
    from .web.hardening import HSTS, SECURITY_HEADERS

    headers = [*SECURITY_HEADERS.items(), *([HSTS] if https else [])]
    lines = [f"HTTP/1.1 {code} {REASONS.get(code, 'Bad Request')}", "Connection: close",
             "Content-Length: 0", *(f"{name}: {value}" for name, value in headers)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def accepted(settings: Mapping[str, int | str]) -> int:
    """How many connections a server process holds at once: the pages' share
    (``connection_limit``) and the live tables' streams (``stream_limit``, which the app
    counts and refuses past) on top of it, so that streams never take what pages need."""
    return int(settings["connection_limit"]) + int(settings["stream_limit"])


def patch() -> None:
    """gevent's cooperative socket, time, threading...: before the app's modules are
    imported, so that the locks, conditions and threads they make (the live table's
    watcher, the pool's committer, the PDF pool's) are gevent's in every server process
    forked from this one (gunicorn's gevent worker patches again, finding it done)."""
    from gevent import monkey

    monkey.patch_all()


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


def worker_app(settings: Mapping[str, int | str]) -> Flask:
    """The app as one server process serves it: its body and stream limits the server's
    settings, its PDF workers started and warmed, its names' collation read."""
    app = create_app()
    app.config["MAX_CONTENT_LENGTH"] = int(settings["max_request_body_size"])
    app.config["LIVE_STREAM_LIMIT"] = int(settings["stream_limit"])  # the app counts them
    from .outputs import renders

    renders.renders.log = lambda line: print(line, file=sys.stderr, flush=True)
    static = str(app.static_folder).rstrip("/")
    renders.renders.start(int(app.config["PDF_WORKERS"]), static + "/", static + "/sheet.css")
    collation.warm(app.config["LANGUAGES"])  # names' order: its tables read now
    return app


def worker_class(https: bool = False) -> type:
    """gunicorn's gevent worker, whose own answers (to a request it cannot read: 400, a
    request line too long: 414) carry the app's security headers (:func:`server_answer`)
    and are not logged as the server's errors."""
    from gunicorn.http.errors import LimitRequestLine, ParseException
    from gunicorn.workers.ggevent import GeventWorker

    class Worker(GeventWorker):
        def handle_error(self, req, client, addr, exc):
            if isinstance(exc, ParseException):
                code = 414 if isinstance(exc, LimitRequestLine) else 400
            else:
                self.log.exception("Error handling request")
                code = 500
            try:
                client.sendall(server_answer(code, https))
            except OSError:
                pass

    return Worker


def _worker_exit(server: object, worker: object) -> None:
    """A server process ending: its PDF workers end with it (the pool's own threads would
    keep the process waiting for them)."""
    from .outputs import renders

    renders.renders.shutdown()


def gunicorn_options(settings: Mapping[str, int | str], https: bool = False) -> dict:
    """gunicorn's settings for ``kierki serve``'s: ``workers`` processes of its gevent
    worker (:func:`worker_class`), one greenlet per connection, at most :func:`accepted` a
    process, an idle connection and a request's line and headers waited for
    ``channel_timeout`` seconds; no access log, errors (a failure's traceback, which
    Flask logs) to standard error."""
    host = str(settings["host"])
    bind = f"[{host}]:{settings['port']}" if ":" in host else f"{host}:{settings['port']}"
    return {
        "bind": [bind], "workers": int(settings["workers"]),
        "worker_class": worker_class(https),
        "worker_connections": accepted(settings),
        "keepalive": int(settings["channel_timeout"]),
        "timeout": 120,  # a process silent this long (its loop stuck) is started anew
        "graceful_timeout": 1,  # stopping: the live streams' phones reconnect by themselves
        "worker_exit": _worker_exit,
        "limit_request_line": 8190, "limit_request_fields": 100,
        "limit_request_field_size": 8190,
        "accesslog": None, "errorlog": "-", "loglevel": "warning",
    }


def run(make_app: Callable[[], Flask], settings: dict[str, int | str],
        https: bool = False) -> None:
    """Serve until stopped (Ctrl+C, SIGTERM): gunicorn's master and ``workers`` processes,
    each serving the app ``make_app`` makes there (after gevent's patching)."""
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):
        def load_config(self) -> None:
            for key, value in gunicorn_options(settings, https).items():
                self.cfg.set(key, value)

        def load(self) -> Flask:
            return make_app()

    raise_file_limit(accepted(settings))
    Server().run()


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
    patch()  # before the app's modules make their locks and threads: gevent's, in every worker
    app = create_app()  # here the database is made or migrated once, before any worker
    # The threads the app starts when made (the rate limiter's expiry timer) are greenlets
    # here: let them run and end before gunicorn forks, so no worker inherits one unstarted.
    import gevent
    gevent.sleep(0.05)
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
    run(lambda: worker_app(settings), settings,
        str(public or "").startswith("https://"))
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
        description="Serve the app with gunicorn's gevent workers. Every setting also reads "
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
