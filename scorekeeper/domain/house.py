"""The house's own writes, beside the games': this server's settings (the default
ruleset, the host's link and sessions), people's names and taking a rename back. What a
view changes it changes here, never through the storage."""
from __future__ import annotations

import secrets

from sqlite_utils import Database

from ..storage import connection, house_writes
from . import people, reads

#: Settings: the hash of the one unused host link's token, and the host epoch the
#: sessions it opened carry (a new link or a logout makes a new one: they end); the
#: admin epoch the password's sessions carry.
HOST_LINK, HOST_EPOCH, ADMIN_EPOCH = "host_link", "host_epoch", "admin_epoch"
#: The server's own club (issue 36): what a write that names no club is made in.
HOME_CLUB = connection.HOME_CLUB


def set_default_ruleset(db: Database, rid: str) -> None:
    """New games start with ruleset ``rid`` from now on."""
    house_writes.set_setting(db, "default_ruleset", rid)


def rename_person(db: Database, pid: int, name: str, by: str = "host") -> list[str]:
    """Give a person a new name everywhere (``NameTaken`` if another has it,
    ``PersonNotFound`` if there is no such person), kept in the renames with the right it
    was made with; returns the games they played (each has a new version). One path:
    :func:`.people.rename`, which tells the live table (``PersonRenamed``)."""
    return people.rename(db, pid, name, by)


def undo_rename(db: Database, rename_id: int) -> int:
    """Take a rename back (the host's): the old name again. ``PersonNotFound`` for no such
    rename, ``RenameChanged`` if it was taken back already or the person renamed since,
    ``NameTaken`` if another person has the old name now. Returns the person's id."""
    return people.undo_rename(db, rename_id)


def new_host_link(db: Database, token_hash: str) -> None:
    """Keep a new host link (its token's hash, usable once) and start a new host epoch:
    every browser an older link made the host is the host no longer."""
    house_writes.set_setting(db, HOST_EPOCH, secrets.token_hex(16))
    house_writes.set_setting(db, HOST_LINK, token_hash)


def use_host_link(db: Database, token_hash: str) -> bool:
    """Use up the host link whose token hashes to ``token_hash``, in one write: whether it
    was the unused one (two requests with it: one wins)."""
    return house_writes.take_setting(db, HOST_LINK, token_hash)


def host_epoch(db: Database) -> str | None:
    """The host epoch a host link's sessions carry (None before any link was made)."""
    return reads.setting(db, HOST_EPOCH)


def admin_epoch(db: Database) -> str:
    """The epoch the password's sessions carry ("" before any logout)."""
    return reads.setting(db, ADMIN_EPOCH) or ""


def end_host_sessions(db: Database) -> None:
    """New epochs for both kinds of host session: every host's cookie (by password or by
    host link, any copy of it) stops working."""
    house_writes.set_setting(db, ADMIN_EPOCH, secrets.token_hex(16))
    house_writes.set_setting(db, HOST_EPOCH, secrets.token_hex(16))
