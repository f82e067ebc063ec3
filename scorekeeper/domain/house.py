"""The house's own writes beside the games': this server's settings (the default ruleset,
the host's link and sessions) and people's names."""
from __future__ import annotations

import secrets

from sqlite_utils import Database

from ..storage import house_writes
from ..storage.connection import HOME_CLUB
from ..storage.house_reads import setting

__all__ = ["HOME_CLUB"]  # asked here by the web

#: Settings: the hash of the one unused host link's token, the host epoch its sessions
#: carry, and the admin epoch the password's sessions carry (a new one ends them).
HOST_LINK, HOST_EPOCH, ADMIN_EPOCH = "host_link", "host_epoch", "admin_epoch"


def set_default_ruleset(db: Database, rid: str) -> None:
    house_writes.set_setting(db, "default_ruleset", rid)


def new_host_link(db: Database, token_hash: str) -> None:
    """Keep a new host link (its token's hash, usable once) and start a new host epoch:
    every browser an older link made the host is the host no longer."""
    house_writes.set_setting(db, HOST_EPOCH, secrets.token_hex(16))
    house_writes.set_setting(db, HOST_LINK, token_hash)


def use_host_link(db: Database, token_hash: str) -> bool:
    """Use up the host link whose token hashes to ``token_hash``: whether it was unused."""
    return house_writes.take_setting(db, HOST_LINK, token_hash)


def host_epoch(db: Database) -> str | None:
    return setting(db, HOST_EPOCH)


def admin_epoch(db: Database) -> str:
    return setting(db, ADMIN_EPOCH) or ""


def end_host_sessions(db: Database) -> None:
    """New epochs for both kinds of host session: every host's cookie stops working."""
    house_writes.set_setting(db, ADMIN_EPOCH, secrets.token_hex(16))
    house_writes.set_setting(db, HOST_EPOCH, secrets.token_hex(16))
