"""A bounded least-recently-used mapping: every value this process keeps between
requests is kept in one (no Flask here: the service uses it too)."""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, ClassVar
from weakref import WeakSet


class LRU:
    """A bounded mapping: the least recently used entry goes first.

    No lock: each step is one operation of the C ``OrderedDict``; two threads at once can
    at worst evict an entry early or keep one too many for a moment.
    """

    _every: ClassVar[WeakSet[LRU]] = WeakSet()

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        LRU._every.add(self)

    @classmethod
    def clear_every(cls) -> None:
        """Empty every LRU of the process (as after a restart)."""
        for lru in list(cls._every):
            lru._items.clear()

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
