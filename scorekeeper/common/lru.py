"""A bounded least-recently-used mapping: every value this process keeps between
requests is kept in one (no Flask here: the service uses it too)."""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from contextlib import suppress
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
            with suppress(KeyError):  # evicted by another thread meanwhile
                self._items.move_to_end(key)
        return value

    def put(self, key: Hashable, value: Any) -> None:
        self._items[key] = value
        with suppress(KeyError):  # another thread evicted it, or emptied the mapping, meanwhile
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
