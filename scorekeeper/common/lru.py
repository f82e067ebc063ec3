"""A bounded least-recently-used mapping: every value this process keeps between
requests is kept in one (no Flask here: the service uses it too)."""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, ClassVar
from weakref import WeakSet


class LRU:
    """A bounded mapping: the least recently used entry goes first.

    No lock: each step is one operation of the C ``OrderedDict`` (the interpreter's lock
    makes each whole), and the keys kept here hash in C (strings, numbers, tuples of
    them). Two threads at once can at worst evict an entry early or keep one too many
    for a moment; a lock cost more than the lookup itself (a greenlet-aware one under
    gevent), a dozen times per request.
    """

    #: Every LRU of the process, for :meth:`clear_every`.
    _every: ClassVar[WeakSet[LRU]] = WeakSet()

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        LRU._every.add(self)

    @classmethod
    def clear_every(cls) -> None:
        """Empty every LRU of the process (as after a restart)."""
        for lru in list(cls._every):
            lru.clear()

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

