"""A candidate name (token extent, type, how strong its rule is) and the rules' priorities."""

from __future__ import annotations

from dataclasses import dataclass

PRIORITY_CATALOGUE, PRIORITY_DEFINED, PRIORITY_NAME, PRIORITY_TITLE, PRIORITY_PHRASE = 4, 3, 2, 1, 0


_SOURCES = {PRIORITY_CATALOGUE: "catalogue", PRIORITY_DEFINED: "defined", PRIORITY_NAME: "name",
            PRIORITY_TITLE: "title", PRIORITY_PHRASE: "phrase"}


@dataclass
class Candidate:
    start: int  # token indices
    end: int
    label: str | None
    priority: float
    kb_id: str = ""
    source: str = ""
    coined: bool = False  # a word the field has not used, where a paper names something (``dubbed X``)
    score: float | None = None  # the learned choice's: how likely a whole name (entities.ranking)

    def __post_init__(self) -> None:
        self.source = self.source or _SOURCES.get(self.priority, "other")  # type: ignore[call-overload]
