"""How a result's number is written: the pattern of every value a result can be stated with
(:data:`VALUE`) and the parts of one (:func:`parse_value`)."""

from __future__ import annotations

import re

_NUM = r"(?:\d{1,3}(?:,\d{3})+(?![\d])|\d+(?:\.\d+)?)"
_UNIT = (r"(?:\s?%\s?points?\b|\s?%|\s?×|x(?![\w])|\s?-?fold\b|\s?times\b|\s?percentage[- ]points?\b|\s?points?\b|\s?pp\b"
         r"|\s?p\.p\.|\s?percent\b|\s?dB\b"
         # time, memory and energy, as efficiency results are stated (``from 5 days to 5 hours``,
         # ``0.5 MB``, ``6.59 kcal/mol``); a glued ``s`` only after decimals (not ``10s of billions``)
         r"|\s?(?:ms|sec|seconds?|minutes?|hours?|days?|[KMGT]B|kilobytes|megabytes|gigabytes|kcal/mol)\b"
         r"|(?<=\.\d)s\b|(?<=\.\d\d)s\b|\ss\b)")
# the words start a word: "speedup to 2x" is not "up to 2x"
_APPROX = (r"(?:(?:(?<!\w)(?:up to|over|more than|nearly|almost|around|about|approximately|roughly|at least|"
           r"at most|as much as|as high as|as low as|an average of|on average|average of|maximum|max\.?)|"
           r"~|∼|≈|>|<|≥|≤)\s*)*")
_WORD_NUMBER = r"(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|several|multiple)"
_ARROW = r"(?:→|->|⇒|⟶|-->)"
_RANGE = r"(?:\s?(?:--|-|–|−|~|∼)\s?|\s(?:to)\s)"  # ``3--8%``: LaTeX writes a range with --
VALUE = re.compile(
    rf"{_APPROX}(?:"
    rf"(?P<from>from\s{_NUM}{_UNIT}?[KMB]?\sto\s{_NUM}{_UNIT}?[KMB]?(?!\w|\.\d))"
    rf"|(?P<arrow>{_NUM}{_UNIT}?[KMB]?\s?{_ARROW}\s?{_NUM}{_UNIT}?[KMB]?(?!\w|\.\d))"
    rf"|(?P<paren>{_NUM}{_UNIT}?\s?\(\s?\+\s?{_NUM}{_UNIT}?\s?\){_UNIT}?)"
    rf"|(?P<range>{_NUM}{_UNIT}?{_RANGE}{_NUM}{_UNIT})"
    rf"|(?P<factor>(?:a\s)?factor of (?:{_NUM}(?:\s?(?:-|–|to)\s?{_NUM})?x?|{_WORD_NUMBER})(?!\w|\.\d))"
    rf"|(?P<magnitude>(?:{_WORD_NUMBER}\s|\d+(?:\s?(?:-|–|to)\s?\d+)?\s)?orders?[- ]of[- ]magnitude)"
    rf"|(?P<signed>(?<![\w.])\+\s?{_NUM}{_UNIT}?)"
    rf"|(?P<unit>{_NUM}{_UNIT})"
    rf"|(?P<bare>(?<![\w.\-/]){_NUM}(?![\w\-/]|\.\d))"
    rf")(?:\son average)?",
    re.IGNORECASE,
)
_NUMBER_RE = re.compile(_NUM)
_UNIT_NAMES = (("% point", "pp"), ("percentage point", "pp"), ("p.p.", "pp"), ("%", "%"), ("percent", "%"),
               ("×", "x"), ("fold", "x"), ("times", "x"), ("x", "x"), ("pp", "pp"), ("point", "points"), ("db", "dB"),
               ("ms", "ms"), ("sec", "s"), ("minute", "min"), ("hour", "h"), ("day", "d"), ("kcal/mol", "kcal/mol"),
               ("kb", "KB"), ("kilobyte", "KB"), ("mb", "MB"), ("megabyte", "MB"), ("gb", "GB"), ("gigabyte", "GB"),
               ("tb", "TB"), ("s", "s"))


def _unit_of(text: str) -> str | None:
    lower = text.lower()
    tail = lower.rstrip(" )")
    for surface, unit in _UNIT_NAMES:
        if surface in ("x", "s"):  # a letter alone is a unit only right after the number
            if re.search(rf"\d\s?{surface}$", tail):
                return unit
        elif surface in lower:
            return unit
    return None


def parse_value(text: str, kind: str | None = None) -> tuple[str, float | None, str | None, str | None]:
    """``(value, number, unit, delta)`` of a value as stated: the value cleaned (``->`` for arrows,
    ``x`` for ×), the score it states (none for a change or a range), its unit, and the change
    it states (``+2.8%``; a multiple or a signed number is itself a change).

    >>> parse_value("from 73% to 93.4%")
    ('73% -> 93.4%', 93.4, '%', None)
    >>> parse_value("up to 4.5×"), parse_value("+3.4")
    (('up to 4.5x', None, 'x', 'up to 4.5x'), ('+3.4', None, None, '+3.4'))
    """
    value = " ".join(text.replace("×", "x").replace("−", "-").replace("∼", "~").split())
    value = re.sub(r"(\d)\s+x\b", r"\1x", value)
    value = re.sub(r"\s?(?:→|⇒|⟶|-->)\s?", " -> ", value)
    value = re.sub(r"\s?->\s?", " -> ", value)
    numbers = [float(n.replace(",", "")) for n in _NUMBER_RE.findall(value)]
    paren = re.fullmatch(rf"(.*?{_NUM})\s?({_UNIT})?\s?\(\s?(\+\s?{_NUM})\s?({_UNIT})?\s?\)\s?({_UNIT})?", value,
                         re.IGNORECASE)
    if paren:
        unit_text = (paren.group(2) or paren.group(5) or "").strip()
        delta_unit = (paren.group(4) or paren.group(5) or "").strip()
        delta = paren.group(3).replace(" ", "") + delta_unit
        value = f"{paren.group(1)}{unit_text} ({delta})"
        return value, numbers[0], _unit_of(unit_text) if unit_text else None, delta
    if value.lower().startswith("from ") and " to " in value:
        value = re.sub(r"(?i)^from\s+(.*?)\s+to\s+", r"\1 -> ", value)
    unit = _unit_of(value)
    if " -> " in value:
        return value, numbers[-1] if numbers else None, unit, None
    if value.lstrip("~<>≈≥≤ ").startswith("+") or unit in ("x", "pp") or (kind in ("factor", "magnitude")):
        return value, None, unit, value
    if kind == "range" or (len(numbers) > 1 and kind != "paren"):
        return value, None, unit, None
    return value, numbers[0] if numbers else None, unit, None
