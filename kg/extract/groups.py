"""Union-find over the indices of a list: which mentions or candidates of one abstract belong
together (``kg.extract.mentions``, ``kg.extract.entities.ranking``). networkx has one too, but
importing it would add a tenth of a second to every extraction worker's start.

>>> groups = IndexGroups(4)
>>> groups.union(0, 2); groups.union(3, 2)
>>> groups.find(3) == groups.find(0), groups.find(1) == groups.find(0)
(True, False)
"""

from __future__ import annotations

__all__ = ["IndexGroups"]


class IndexGroups:
    def __init__(self, size: int) -> None:
        self._parent = list(range(size))

    def find(self, i: int) -> int:
        """The representative of ``i``'s group."""
        parent = self._parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(self, i: int, j: int) -> None:
        """``i``'s group joins ``j``'s."""
        self._parent[self.find(i)] = self.find(j)
