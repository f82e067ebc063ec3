"""The message bus: which handler reacts to which event (:mod:`.events`), in two phases.

* **In the write** (:func:`handles`): called with the write's connection inside the
  store's transaction; it may return further events, handled in turn.
* **After the commit** (:func:`subscribe`): told what was stored; its failure is logged
  and the write stands.

A write's events go through a :class:`Unit`: the store's write calls ``unit.then`` in
its transaction, and ``unit.publish()`` follows once it returned.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .events import Event

log = logging.getLogger(__name__)

_in_write: dict[type[Event], list[Callable[[Any, Event], Iterable[Event] | None]]] = {}
_after: dict[type[Event], list[Callable[[Event], None]]] = {}


def handles(*kinds: type[Event]) -> Callable[[Any], Any]:
    """Register the decorated function as the in-write handler of events of ``kinds``."""
    def register(fn: Any) -> Any:
        for kind in kinds:
            _in_write.setdefault(kind, []).append(fn)
        return fn
    return register


def subscribe(kind: type[Event], handler: Callable[[Event], None]) -> Callable[[], None]:
    """Call ``handler`` after every commit that stored an event of ``kind``; returns the
    function that unsubscribes it."""
    _after.setdefault(kind, []).append(handler)
    return lambda: _after[kind].remove(handler)


def _of(table: dict[type[Event], list[Any]], event: Event) -> Iterator[Any]:
    for kind in type(event).__mro__:
        yield from table.get(kind, ())  # type: ignore[arg-type]


class Unit:
    """One write's events, or how to make them from the game's id once the store knows
    it (a new game's id is the store's)."""

    def __init__(self, make: Callable[[str], list[Event]] | list[Event]) -> None:
        self._make = make
        self.events: list[Event] = []

    def then(self, db: Any, gid: str) -> None:
        """In the store's transaction: every event's in-write handlers."""
        self.events = list(self._make(gid) if callable(self._make) else self._make)
        for event in self.events:  # the list grows by what the handlers return
            for handler in _of(_in_write, event):
                self.events.extend(handler(db, event) or ())

    def publish(self) -> None:
        """After the commit: every event to its subscribers."""
        publish(self.events)


def publish(events: Iterable[Event]) -> None:
    for event in events:
        for handler in list(_of(_after, event)):
            try:
                handler(event)
            except Exception:  # the write is stored: its caller hears so
                log.exception("a handler of %s failed", type(event).__name__)
