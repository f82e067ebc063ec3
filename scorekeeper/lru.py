"""A bounded least-recently-used mapping, and the loaded-games cache the service keeps
(no Flask here: the service uses it)."""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class LRU:
    """A bounded mapping: the least recently used entry goes first.

    No lock: each step is one operation of the C ``OrderedDict`` (the interpreter's lock
    makes each whole), and the keys kept here hash in C (strings, numbers, tuples of
    them). Two threads at once can at worst evict an entry early or keep one too many
    for a moment; a lock cost more than the lookup itself (a greenlet-aware one under
    gevent), a dozen times per request.
    """

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        value = self._items.get(key)
        if value is not None:
            try:
                self._items.move_to_end(key)
            except KeyError:  # evicted by another thread meanwhile
                pass
        return value

    def put(self, key: Hashable, value: Any) -> None:
        items = self._items
        items[key] = value
        try:
            items.move_to_end(key)
            while len(items) > self.size:
                items.popitem(last=False)
        except KeyError:  # another thread evicted it, or emptied the mapping, meanwhile
            pass

    def made_for(self, owner: object, key: Hashable, make: Callable[..., Any],
                 *args: Any) -> Any:
        """``make(*args)``, kept under ``key``, a key built from ``id(owner)``: such an id
        names the same object only while it lives, so the entry keeps ``owner`` alive,
        and an entry found under the id of another object is made again. (A caller asked
        many times per request passes a function and its arguments, not a new closure.)

        >>> kept, made = LRU(4), []
        >>> rules = object()
        >>> kept.made_for(rules, id(rules), lambda: made.append(1) or "json")
        'json'
        >>> kept.made_for(rules, id(rules), lambda: made.append(1) or "json"), len(made)
        ('json', 1)
        """
        kept = self.get(key)
        if kept is not None and kept[0] is owner:
            return kept[1]
        made = make(*args)
        self.put(key, (owner, made))
        return made

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)



#: Loaded games (row, rules, replayed state) by (id, version): a club evening's games,
#: many times over. The version is read from the database on every request, and every
#: write raises it, so an entry is never served after the game changed.
games = LRU(256)
#: The newest of those per game id, for a write to start from without reading the
#: version (:func:`.service.kept`; the write's own version check catches a stale one).
newest = LRU(256)
