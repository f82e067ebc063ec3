"""``kierki``: run the scorekeeper for a table, or prepare its database.

``kierki serve`` starts a production WSGI server (waitress) on every interface
and prints the address phones on the same Wi-Fi should open.
"""
from __future__ import annotations

import argparse
import socket

from . import create_app


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def serve(host: str, port: int, threads: int) -> None:
    from waitress import serve as waitress_serve

    app = create_app()
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    print(f"Kierki scorekeeper is running. Open on every phone at the table:\n"
          f"    http://{shown}:{port}/\n"
          f"Database: {app.config['DATABASE']}   (Ctrl+C stops the server)", flush=True)
    waitress_serve(app, host=host, port=port, threads=threads, ident="")  # no Server header


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("serve", help="serve the app on the local network")
    run.add_argument("--host", default="0.0.0.0", help="interface (default: all)")
    run.add_argument("--port", type=int, default=5000)
    run.add_argument("--threads", type=int, default=8)
    sub.add_parser("init-db", help="create the database or migrate it to the current schema")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args.host, args.port, args.threads)
    else:
        app = create_app()
        print(f"Database ready: {app.config['DATABASE']}")


if __name__ == "__main__":
    main()
