"""``kierki``: run the scorekeeper for a table, back up its database, tidy its games.

``kierki serve`` runs gunicorn's gevent worker (a greenlet a connection, so the live
tables' streams are cheap), each setting a flag or a ``KIERKI_<SETTING>`` variable.
"""
from __future__ import annotations

import argparse
import contextlib
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
from .outputs.share import is_loopback, lan_address
from .storage import backups, connection, game_reads, instance_lock

if TYPE_CHECKING:
    from flask import Flask


@dataclass(frozen=True)
class Setting:
    """One server setting: its flag, its environment variable, its default and why."""

    name: str
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
    if int(text) < 1:
        raise ValueError(text)
    return int(text)


def port_number(text: str) -> int:
    if not 0 <= int(text) <= 65535:
        raise ValueError(text)
    return int(text)


def _stream_limit(app: Flask) -> int:
    from .web import live  # after patch(): its locks are gevent's

    return int(app.config.get("LIVE_STREAM_LIMIT") or live.STREAM_LIMIT)


SETTINGS = [
    Setting("host", "0.0.0.0", str, "interface to listen on (all of them)"),
    Setting("port", 5000, port_number, "TCP port"),
    Setting("workers", 1, positive,
            "server processes (gunicorn's gevent workers), all on the same database"),
    Setting("connection_limit", 2000, positive,
            "open connections for pages and the API (idle kept-alive ones included) "
            "before new ones wait; a phone keeps one to three open. Streams come on top"),
    Setting("stream_limit", _stream_limit, positive,
            "open live-table streams (one per phone showing a game) a process; one more "
            "is answered 503 and that page asks every 5 s instead",
            "the app's LIVE_STREAM_LIMIT, 8000"),
    Setting("channel_timeout", 60, positive,
            "seconds an idle connection is kept, and a request's line and headers are "
            "waited for (an event stream sends a line every 15 s)"),
    Setting("max_request_body_size",
            lambda app: int(app.config.get("MAX_CONTENT_LENGTH") or 2 * 1024 * 1024),
            positive, "largest request body accepted, in bytes; a larger one is answered "
            "413", "the app's MAX_CONTENT_LENGTH, 2 MiB"),
]


def server_settings(args: argparse.Namespace, app: Flask,
                    environ: Mapping[str, str] = os.environ) -> dict[str, int | str]:
    """Each setting's flag, else its ``KIERKI_<SETTING>``, else its default."""
    chosen: dict[str, int | str] = {}
    for s in SETTINGS:
        value, raw = getattr(args, s.name, None), environ.get(s.env, "").strip()
        if value is None and raw:
            try:
                value = s.kind(raw)
            except ValueError:
                raise ValueError(f"{s.env}={raw!r} is not a valid {s.flag}") from None
        if value is None:
            value = s.default(app) if callable(s.default) else s.default
        chosen[s.name] = value
    return chosen


def server_answer(code: int, https: bool = False) -> bytes:
    """An empty answer the server writes itself, closing the connection, with the app's
    security headers; HSTS when ``KIERKI_PUBLIC_URL`` is an https one."""
    from .web.hardening import HSTS, SECURITY_HEADERS

    reason = {400: "Bad Request", 414: "Request URI Too Long"}.get(code, "Internal Server Error")
    headers = [*SECURITY_HEADERS.items(), *([HSTS] if https else [])]
    lines = [f"HTTP/1.1 {code} {reason}", "Connection: close", "Content-Length: 0",
             *(f"{name}: {value}" for name, value in headers)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def accepted(settings: Mapping[str, int | str]) -> int:
    """Connections a server process holds: the pages' share and the streams' on top."""
    return int(settings["connection_limit"]) + int(settings["stream_limit"])


def patch() -> None:
    """gevent's sockets, time and threading, for the locks and threads the app makes."""
    from gevent import monkey

    monkey.patch_all()


def raise_file_limit(connections: int) -> None:
    """A connection is a file descriptor: the soft limit raised as far as the hard one."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 256  # the database, the listening socket, the rest
    if soft != resource.RLIM_INFINITY and soft < wanted:
        new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))


def worker_app(settings: Mapping[str, int | str]) -> Flask:
    """The app of one server process, its PDF workers started warm."""
    from .outputs import renders

    app = create_app()
    app.config["MAX_CONTENT_LENGTH"] = int(settings["max_request_body_size"])
    app.config["LIVE_STREAM_LIMIT"] = int(settings["stream_limit"])
    renders.renders.log = lambda line: print(line, file=sys.stderr, flush=True)
    static = str(app.static_folder).rstrip("/")
    renders.renders.start(int(app.config["PDF_WORKERS"]), static + "/", static + "/sheet.css")
    collation.warm(app.config["LANGUAGES"])
    return app


def worker_class(https: bool = False) -> type:
    """gunicorn's gevent worker, its own answers (400, 414) with the app's headers."""
    from gunicorn.http.errors import LimitRequestLine, ParseException
    from gunicorn.workers.ggevent import GeventWorker

    class Worker(GeventWorker):
        def handle_error(self, req, client, addr, exc):
            code = 414 if isinstance(exc, LimitRequestLine) else 400  # a request it cannot read
            if not isinstance(exc, ParseException):
                self.log.exception("Error handling request")
                code = 500
            with contextlib.suppress(OSError):
                client.sendall(server_answer(code, https))

    return Worker


def _worker_exit(server: object, worker: object) -> None:
    from .outputs import renders

    renders.renders.shutdown()  # else the pool's threads keep the process waiting


def gunicorn_options(settings: Mapping[str, int | str], https: bool = False) -> dict:
    """gunicorn's settings for ``kierki serve``'s; errors to standard error, no access log."""
    host = str(settings["host"])
    return {
        "bind": [f"[{host}]:{settings['port']}" if ":" in host else f"{host}:{settings['port']}"],
        "workers": int(settings["workers"]), "worker_class": worker_class(https),
        "worker_connections": accepted(settings), "keepalive": int(settings["channel_timeout"]),
        "timeout": 120,  # a process silent this long (its loop stuck) is started anew
        "graceful_timeout": 1,  # stopping: the live streams' phones reconnect by themselves
        "worker_exit": _worker_exit, "limit_request_line": 8190, "limit_request_fields": 100,
        "limit_request_field_size": 8190, "accesslog": None, "errorlog": "-", "loglevel": "warning",
    }


def run(make_app: Callable[[], Flask], settings: dict[str, int | str],
        https: bool = False) -> None:
    """Serve until stopped: gunicorn's master and its processes, each serving ``make_app()``."""
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):
        def load_config(self) -> None:
            for key, value in gunicorn_options(settings, https).items():
                self.cfg.set(key, value)

        def load(self) -> Flask:
            return make_app()

    raise_file_limit(accepted(settings))
    Server().run()


TRUST_ANYWHERE = "KIERKI_TRUST_PROXY_ANYWHERE"


def proxy_refusal(app: Flask, host: str, told: bool) -> str | None:
    """Why the server must not start: it would trust ``X-Forwarded-For`` on an address
    phones reach without the proxy, unless told that only the proxy reaches it."""
    hops = app.config["PROXY_HOPS"]
    told = told or os.environ.get(TRUST_ANYWHERE, "").strip().lower() in ("1", "true", "yes")
    if not hops or is_loopback(host) or told:
        return None
    return (f"Refused: KIERKI_PROXY_HOPS={hops} trusts the X-Forwarded-For header, and on {host} a "
            "phone can reach the server without the proxy: it could then forge its address and "
            "escape the rate limits. Serve on 127.0.0.1 behind a proxy on this machine (--host "
            "127.0.0.1), or, when only the proxy can reach this address (a container's own "
            f"network), say so: --trust-proxy-on-public-address or {TRUST_ANYWHERE}=1.")


def host_link(app: Flask, base: str) -> str:
    """A new host link, ``<base>/host/<token>``, with what it is; the one before stops working."""
    from .web import access

    with connection.connect(app.config["DATABASE"]) as db:
        return ("Host link (once; the browser that opens it is the host: it may delete any game "
                "and rename anyone; kierki host-link makes a new one):\n    "
                f"{base.rstrip('/')}/host/{access.new_host_link(db)}")


def _local_url(host: str, port: int | str) -> str:
    return f"http://{lan_address() if host in ('0.0.0.0', '::') else host}:{port}"


def _fail(message: str, status: int = 1) -> int:
    print(message, file=sys.stderr)
    return status


def _fresh(path: Path) -> Path:
    """An empty file at ``path``, this user's alone from its first byte."""
    path.unlink(missing_ok=True)
    path.touch(mode=0o600)
    return path


def serve(args: argparse.Namespace) -> int:
    patch()  # before the app's modules make their locks and threads: gevent's, in every worker
    app = create_app()  # the database made or migrated once, before any worker
    # The threads create_app started (the rate limiter's expiry timer) are greenlets here:
    # let them run and end before gunicorn forks, so no worker inherits one unstarted.
    import gevent
    gevent.sleep(0.05)
    try:
        settings = server_settings(args, app)
    except ValueError as e:
        return _fail(str(e), 2)
    host, port = str(settings["host"]), settings["port"]
    if refusal := proxy_refusal(app, host, args.trust_proxy):
        return _fail(refusal, 2)
    lock = instance_lock.hold(app.instance_path)  # kierki restore refuses while it is held
    local, public = _local_url(host, port), app.config.get("PUBLIC_URL")
    where = (f"Open on every phone:\n    {public}/\nLocal address (for the proxy in "
             f"front): {local}/") if public else f"Open on every phone at the table:\n    {local}/"
    limits = ", ".join(f"{k}={v}" for k, v in settings.items() if k not in ("host", "port"))
    print(f"Kierki scorekeeper is running. {where}\n"
          f"{host_link(app, public or local)}\n"
          f"Database: {app.config['DATABASE']}   (Ctrl+C stops the server)\n"
          f"Server: {limits}, pdf_workers={app.config['PDF_WORKERS']}, "
          f"pdf_queue={app.config['PDF_QUEUE']}", flush=True)
    with lock:
        run(lambda: worker_app(settings), settings, str(public or "").startswith("https://"))
    return 0


def new_host_link(app: Flask, args: argparse.Namespace) -> int:
    host = args.host or os.environ.get("KIERKI_HOST", "").strip() or "0.0.0.0"
    port = args.port or os.environ.get("KIERKI_PORT", "").strip() or 5000
    print(host_link(app, app.config.get("PUBLIC_URL") or _local_url(host, port)))
    return 0


def database_ready(app: Flask, args: argparse.Namespace) -> int:
    print(f"Database ready: {app.config['DATABASE']}")  # create_app made or migrated it
    return 0


def _text(secret: str | bytes) -> str:
    return secret.decode() if isinstance(secret, bytes) else str(secret)


def backup(app: Flask, args: argparse.Namespace) -> int:
    """A consistent copy of the live database with the secret key in it, mode 0600."""
    source, target = Path(app.config["DATABASE"]), args.path.expanduser()
    folder = target if target.is_dir() else None
    if args.keep is not None and folder is None:
        return _fail(f"--keep needs a folder to write into: {target} is not one.")
    if folder is not None:
        target = folder / f"{source.stem}-{datetime.now():%Y%m%d-%H%M%S}.sqlite"
    if target.exists() and target.resolve() == source.resolve():
        return _fail(f"Refused: {target} is the live database.")
    if not target.parent.is_dir():
        return _fail(f"No such folder: {target.parent}")
    part = _fresh(target.with_name(f".{target.name}.part"))
    try:
        with connection.connect(str(source)) as db:
            check, games = backups.write_copy(db.conn, part, _text(app.config["SECRET_KEY"]))
        if check != "ok":
            return _fail(f"The copy failed its integrity check ({check}); nothing written.")
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)
    print(f"Backup written: {target} ({games} games, and the server's secret key)")
    if args.keep is not None:
        named = re.compile(re.escape(source.stem) + r"-\d{8}-\d{6}\.sqlite")
        older = sorted(p for p in folder.iterdir()
                       if p != target and named.fullmatch(p.name) and p.is_file())
        for old in older[:max(0, len(older) + 1 - args.keep)]:
            old.unlink(missing_ok=True)
            print(f"Removed the older copy {old.name}")
    return 0


def restore(app: Flask, args: argparse.Namespace) -> int:
    """A backup and its secret key brought back, never while a server holds the lock."""
    from .web.db import init_db

    source, live = args.backup.expanduser(), Path(app.config["DATABASE"])
    instance = Path(app.instance_path)
    try:
        lock = instance_lock.alone(instance)
    except instance_lock.InUse:
        return _fail(f"Refused: a server is using {instance} now (it holds "
                     f"{instance_lock.LOCK_FILE} there), and a restore would replace the database "
                     "under it. Stop every `kierki serve` on this folder, then restore.")
    with lock:
        if not source.is_file():
            return _fail(f"No such backup: {source}")
        if live.exists() and source.resolve() == live.resolve():
            return _fail(f"Refused: {source} is the live database.")
        try:
            found = backups.read(source)
        except sqlite3.DatabaseError as e:
            return _fail(f"Refused: {source} is not a database ({e}).")
        if found.check != "ok":
            return _fail(f"Refused: {source} failed its integrity check ({found.check}).")
        if "games" not in found.tables:
            return _fail(f"Refused: {source} is not a Kierki database (it has no games).")
        with connection.connect(str(live)) as db:
            there = backups.kept_rows(db.conn)
            if there and not args.force:
                held = ", ".join(f"{n} {t}" for t, n in there.items())
                return _fail(f"Refused: the live database {live} is not empty ({held}). Back "
                             "it up, then restore with --force to replace it.")
            part = _fresh(instance / ".restore.sqlite.part")
            try:
                backups.bring_back(source, part, db.conn)  # the live one whole or unchanged
            finally:
                part.unlink(missing_ok=True)
        init_db(str(live))  # a copy made by an older version: its schema brought up to date
        connection.owner_only(live)
        held = ", ".join(f"{n} {t}" for t, n in found.counts.items())
        print(f"Restored {source} into {live} ({held}).")
        secret = found.secret.strip() if isinstance(found.secret, str) else ""
        key_file = instance / "secret_key"
        if not secret:
            print("The backup holds no secret key (made before backups kept it): the tokens and "
                  "links made before it will not work unless the old instance/secret_key is put "
                  f"in {key_file} by hand.")
        else:
            before = key_file.read_text().strip() if key_file.is_file() else None
            written = _fresh(instance / ".secret_key.part")
            written.write_text(secret)
            os.replace(written, key_file)
            print(f"Restored the server's secret key into {key_file} (mode 0600): "
                  "the tokens and links made before work again.")
            if _text(app.config["SECRET_KEY"]) not in (before, secret):  # set elsewhere
                print("KIERKI_SECRET_KEY (or config.py) sets another secret key, and it wins "
                      "over the file: unset it, or set it to the restored one.", file=sys.stderr)
    print("Start (or restart) the server to use them.")
    return 0


def _local(stamp: str | None) -> str:
    return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M") if stamp else ""


def list_games(app: Flask, args: argparse.Namespace) -> int:
    with connection.connect(app.config["DATABASE"]) as db:
        games = game_reads.list_games(db)
    if not games:
        print("No games.")
        return 0
    rows = [("id", "code", "family", "ruleset", "players", "deals", "updated")] + [
        (g["id"], g["join_code"] or "", g["family"], g["ruleset_id"] or "", ", ".join(g["players"]),
         str(g["deals_entered"]) + (" (over)" if g["finished"] else ""), _local(g["updated_at"]))
        for g in games]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])
    return 0


def delete_games(app: Flask, args: argparse.Namespace) -> int:
    """Each game deleted through the service at its current version, history and all."""
    from .domain import service

    status = 0
    with connection.connect(app.config["DATABASE"]) as db:
        for gid in args.ids:
            for _attempt in range(3):  # a phone may write between the read and the delete
                try:
                    game = service.load(db, gid)
                    service.delete_game(db, game, game.version)
                except service.GameNotFound:
                    status = _fail(f"No game {gid}")
                except service.Conflict:
                    continue
                else:
                    print(f"Deleted {gid}: {', '.join(game.players)} ({game.recorded} deals)")
                break
            else:
                status = _fail(f"Not deleted {gid}: it keeps changing; try again")
    return status


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = top.add_subparsers(dest="command", required=True)
    run = sub.add_parser("serve", help="serve the app on the local network", description=(
        "Serve the app with gunicorn's gevent workers. Every setting also reads KIERKI_<SETTING> "
        "from the environment (KIERKI_PORT=8080); a flag wins over the environment."))
    for s in SETTINGS:
        run.add_argument(s.flag, type=s.kind, default=None,
                         help=f"{s.help} (default: {s.shown or s.default}; env {s.env})")
    run.add_argument("--trust-proxy-on-public-address", dest="trust_proxy", action="store_true",
                     help="with KIERKI_PROXY_HOPS, serve on an address other than loopback all "
                          "the same: only the proxy can reach it (a container's own network); "
                          f"env {TRUST_ANYWHERE}=1")
    link = sub.add_parser("host-link", help="a new host link: the browser that opens it is the "
                                            "host (the one before stops working)")
    link.add_argument("--host", default=None,
                      help="the address the server listens on (default: env KIERKI_HOST, else all)")
    link.add_argument("--port", type=port_number, default=None,
                      help="the server's port (default: env KIERKI_PORT, else 5000)")
    init = sub.add_parser("init-db", help="create the database or migrate it to the current schema")
    save = sub.add_parser("backup", help="copy the database while it is in use", description=(
        "Write a consistent copy of the database (SQLite's online backup) to PATH, a file or a "
        "folder (then named with the date and time). Safe while the server runs."))
    save.add_argument("path", type=Path)
    save.add_argument("--keep", type=positive, metavar="N", default=None,
                      help="into a folder: keep the newest N copies made by this command there "
                           "and delete the older ones (other files are left alone)")
    back = sub.add_parser("restore", help="bring a backup back, with its secret key", description=(
        "Restore a backup made by 'kierki backup' into this server's instance folder "
        "(KIERKI_INSTANCE): the database, integrity-checked, and the secret key kept with it, so "
        "every token and link made before works. Stop the server first; start it after."))
    back.add_argument("backup", type=Path)
    back.add_argument("--force", action="store_true", help="replace a live database that already "
                      "holds games, people, tournaments or variants")
    games = sub.add_parser("games", help="list or delete games")
    what = games.add_subparsers(dest="games_command", required=True)
    listing = what.add_parser("list", help="every game, latest activity first")
    gone = what.add_parser("delete", help="delete games for good, with their history")
    gone.add_argument("ids", nargs="+", metavar="ID")
    for command, handler in ((link, new_host_link), (init, database_ready), (save, backup),
                             (back, restore), (listing, list_games), (gone, delete_games)):
        command.set_defaults(run=handler)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    os.umask(0o077)  # every file the server makes (copies, sheets) readable by its user alone
    if args.command == "serve":
        return serve(args)
    return args.run(create_app(), args)


if __name__ == "__main__":
    sys.exit(main())
