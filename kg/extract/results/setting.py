"""The setting a result was measured in: shots, model sizes, bit widths, epochs the sentence states."""

from __future__ import annotations

import re

from spacy.tokens import Span

_SETTING = re.compile(
    r"\b(?:zero|one|few|\d+)-shot\b|\b\d+(?:\.\d+)?\s?[BM]\b(?!-)|\b\d+-bit\b|\b\d+\s?epochs?\b"
    r"|\blinear[- ]prob(?:e|ing)\b|\bfine-?tun(?:ed|ing)\b|\bfrom scratch\b|\bsingle[- ]model\b",
    re.IGNORECASE)


def _setting(sent: Span, ents: list[Span]) -> str | None:
    """Shots, sizes, bit widths, epochs the sentence states (outside entity names)."""
    found = []
    for match in _SETTING.finditer(sent.text):
        start = sent.start_char + match.start()
        if any(e.start_char <= start < e.end_char for e in ents):
            continue
        text = match.group(0)
        if text.lower() not in (f.lower() for f in found):
            found.append(text)
    return ", ".join(found) or None
