"""Strip LaTeX and Markdown residue from an abstract, keeping a map back to the stored text.

Abstracts scraped from venues carry ``4.5$\\times$``, ``**M**otif-b**A**sed``,
``\\textbf{D}ynamic`` and ``\\url{...}``. The extractor reads the clean text;
every span it finds is mapped back so offsets point into the abstract as stored.

Examples
--------
>>> c = clean_text(r"a 4.5$\\times$ speedup, **M**otif-b**A**sed")
>>> c.text
'a 4.5× speedup, Motif-bAsed'
>>> c.raw_span(c.text.index("Motif"), len(c.text))
(25, 42)
>>> [c.text[s:e] for s, e, _ in c.emphasis]
['M', 'A']
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

__all__ = ["CleanText", "clean_text", "find_urls"]

_SYMBOLS = {
    "times": "×", "cdot": "·", "sim": "~", "approx": "≈", "leq": "≤", "le": "≤", "geq": "≥",
    "ge": "≥", "pm": "±", "infty": "∞", "rightarrow": "→", "to": "→", "ldots": "…",
    "dots": "…", "cdots": "…", "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ",
    "epsilon": "ε", "eta": "η", "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π",
    "sigma": "σ", "tau": "τ", "phi": "φ", "ell": "ℓ", "log": "log", "min": "min",
    "max": "max", "textasciitilde": "~", "quad": " ", "qquad": " ", "sqrt": "√",
    "bf": "", "it": "", "rm": "", "sf": "", "tt": "", "em": "",  # font switches: ``{\bf D}``
}
_STYLE_COMMANDS = (
    "textbf|textit|emph|texttt|textsc|textrm|textsf|text|mathbf|mathrm|mathcal|mathit|"
    "mathsf|mathbb|bm|boldsymbol|underline|mbox|operatorname"
)
_BOLD_COMMANDS = {"textbf", "mathbf", "bm", "boldsymbol"}

_SUPERSCRIPTS = str.maketrans("0123456789+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺")
#: TeX accents as the combining marks they stand for: ``Fr\\'echet`` -> ``Fréchet``.
_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
            ".": "\u0307", "H": "\u030b", "c": "\u0327", "v": "\u030c", "u": "\u0306", "k": "\u0328"}
_TOKEN = re.compile(
    # ``Fr\'echet``, ``{\"u}``, ``Erd\H{o}s``, ``\'{\i}``: a letter with a TeX accent
    r"(?P<accent>(?P<outer>\{)?\\(?P<accent_mark>['`^\"~=.]|[Hcvuk](?=\{))(?P<inner>\{)?"
    r"(?P<accent_letter>\\i|[A-Za-z])(?(inner)\})(?(outer)\}))|"
    # ``N$^2$-GNN``, ``$\chi^2$``, ``CFR$^+$``: a letter's power as the names are written (``N²-GNN``)
    r"(?P<power>(?<=[A-Za-z])\$?\^\{?(?P<power_text>[0-9+])\}?\$?(?![\w{]))"
    r"|(?P<href>\\href\{(?P<href_url>[^{}]*)\}\{(?P<href_text>[^{}]*)\})"
    # ``[this https URL](https://github.com/x/FastPLBF)``: a Markdown link, read as its address
    r"|(?P<mdlink>\[[^\[\]\n]{0,80}\]\((?P<mdlink_url>(?:https?://|www\.)[^\s()]+)\))"
    r"|(?P<url>\\url\{(?P<url_text>[^{}]*)\})"
    rf"|(?P<style>\\(?P<style_cmd>{_STYLE_COMMANDS})\{{(?P<style_text>[^{{}}]*)\}})"
    r"|(?P<escaped>\\\\?(?P<escaped_char>[%&_#${}]))"  # also ``\\%``, as some abstracts escape it twice
    r"|(?P<command>\\(?P<command_name>[A-Za-z]+)\s?)"
    r"|(?P<dollar>\$)"
    r"|(?P<bold>\*\*|__(?=\w)|(?<=\w)__)"
    r"|(?P<italic>(?<![\w*])\*(?=[^\s*])|(?<=[^\s*])\*(?![\w*]))"
    # _a term_ (Markdown italics): only as a closed pair outside math, not x_i or \ell_\infty
    r"|(?P<underscored>(?<![\w$\\{^_])_(?P<underscored_text>[A-Za-z][^_$\n]{0,80}?(?<=[^\s\\]))_(?![\w_]))"
    r"|(?P<quotes>``|'')"
    r"|(?P<tilde>(?<=\S)~(?=\S))"
    # ``CIFAR100.The code``: a sentence glued to the one before it (not ``www.Foo.org``)
    r"|(?P<glued>(?<=[a-z0-9)\]])\.(?=[A-Z][a-z]+(?:[\s,;:]|$)))"
    r"|(?P<brace>[{}])"
)
#: Inside a style command's braces: an escaped character, a command (``\\times``), a math dollar.
_IN_STYLE = re.compile(r"\\\\?(?P<char>[%&_#$])|\\(?P<command_name>[A-Za-z]+)\s?|\$")
_URL = re.compile(
    r"(?:https?://|www\.|(?<![\w.@/])(?:github\.com|gitlab\.com|bitbucket\.org|huggingface\.co)/)"
    r"[^\s{}<>\\\"'`|^]+",
    re.IGNORECASE,
)
_URL_TRAILING = ".,;:!?*"
#: A short phrase in double quotes (straight, curly, or LaTeX ``...'' once cleaned): authors
#: quote the terms they coin as they italicise them (we call "span rules").
_QUOTED = re.compile(r'["\u201c]([^"\u201c\u201d\n]{1,60})["\u201d]')
#: A leading "Abstract:" / "ABSTRACT" heading (not "Abstract reasoning is ...").
_HEADING = re.compile(r"\s*(?i:abstract|summary)(?:\s*[:.\u2014\u2013-]\s*|\s*\n\s*|\s+(?=[A-Z]))")


@dataclass
class CleanText:
    """Clean ``text`` plus, per clean character, the raw span it came from."""

    text: str
    starts: list[int]
    ends: list[int]
    raw_length: int
    emphasis: list[tuple[int, int, str]] = field(default_factory=list)

    def raw_span(self, start: int, end: int) -> tuple[int, int]:
        """Map a clean span ``[start, end)`` to the raw span that produced it."""
        if start >= end:
            at = self.starts[start] if start < len(self.starts) else self.raw_length
            return at, at
        return self.starts[start], self.ends[end - 1]


class _Builder:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.emphasis: list[tuple[int, int, str]] = []
        self.open_marks: dict[str, int] = {}

    @property
    def size(self) -> int:
        return len(self.starts)

    def copy(self, raw: str, start: int, end: int) -> None:
        self.parts.append(raw[start:end])
        self.starts.extend(range(start, end))
        self.ends.extend(range(start + 1, end + 1))

    def replace(self, text: str, start: int, end: int) -> None:
        self.parts.append(text)
        self.starts.extend([start] * len(text))
        self.ends.extend([end] * len(text))


def _keep(group: str):
    """A token reduced to the text of ``group``: the link text of ``\\href``, the address of ``\\url``."""
    def keep(out: _Builder, raw: str, match: re.Match) -> None:
        out.copy(raw, match.start(group), match.end(group))
    return keep


def _replace_with(text: str):
    """A token written as ``text``: LaTeX quotes as ``"``, a tie ``~`` as a space."""
    def replace(out: _Builder, raw: str, match: re.Match) -> None:
        out.replace(text, match.start(), match.end())
    return replace


def _styled(out: _Builder, raw: str, match: re.Match) -> None:
    """``\\textbf{D}``: the text kept, escapes, symbols and math in it read (``\\textbf{90.4\\%}``,
    ``\\mathbf{\\ge 2\\times}``, ``\\textbf{5.18$\\times$}``); a bold command makes it emphasis."""
    begin = out.size
    at = match.start("style_text")
    for inner in _IN_STYLE.finditer(raw, at, match.end("style_text")):
        out.copy(raw, at, inner.start())
        if inner.group("char"):
            out.replace(inner.group("char"), inner.start(), inner.end())
        elif inner.group("command_name"):
            _command(out, raw, inner)
        at = inner.end()  # a math dollar leaves nothing
    out.copy(raw, at, match.end("style_text"))
    if match.group("style_cmd") in _BOLD_COMMANDS and out.size > begin:
        out.emphasis.append((begin, out.size, "bold"))


def _underscored(out: _Builder, raw: str, match: re.Match) -> None:
    """``_a term_``: the text kept as italic emphasis."""
    begin = out.size
    out.copy(raw, match.start("underscored_text"), match.end("underscored_text"))
    out.emphasis.append((begin, out.size, "italic"))


def _escaped(out: _Builder, raw: str, match: re.Match) -> None:
    """``\\%``: the character itself."""
    out.replace(match.group("escaped_char"), match.start(), match.end())


def _command(out: _Builder, raw: str, match: re.Match) -> None:
    """``\\times`` -> ``×``; an unknown command keeps its name, as a word."""
    name = match.group("command_name")
    text = _SYMBOLS.get(name, name)
    if text.isalpha() and match.end() < len(raw) and (raw[match.end()].isalnum() or raw[match.end()] == "{"):
        text += " "  # \log T, \mathcal O: a word, not glued to what follows ("logT")
    out.replace(text, match.start(), match.end())


def _accent(out: _Builder, raw: str, match: re.Match) -> None:
    """``Fr\\'echet`` -> ``Fréchet``: the letter with its mark, composed where Unicode has one."""
    letter = "i" if match.group("accent_letter") == "\\i" else match.group("accent_letter")
    text = unicodedata.normalize("NFC", letter + _ACCENTS[match.group("accent_mark")])
    out.replace(text, match.start(), match.end())


def _power(out: _Builder, raw: str, match: re.Match) -> None:
    out.replace(match.group("power_text").translate(_SUPERSCRIPTS), match.start(), match.end())


def _glued(out: _Builder, raw: str, match: re.Match) -> None:
    """``CIFAR100.The``: a space after the period, unless the word is part of an address."""
    word = raw[max(raw.rfind(" ", 0, match.start()), raw.rfind("\n", 0, match.start())) + 1:match.start()]
    out.replace("." if "/" in word or "@" in word else ". ", match.start(), match.end())


def _mark(out: _Builder, raw: str, match: re.Match) -> None:
    """``**`` or ``*``: opens an emphasis span of its kind, or closes the open one (if not empty)."""
    kind = match.lastgroup
    if kind not in out.open_marks:
        out.open_marks[kind] = out.size
        return
    begin = out.open_marks.pop(kind)
    if out.size > begin:
        out.emphasis.append((begin, out.size, kind))


#: What each kind of markup token leaves in the clean text; ``dollar`` and ``brace`` leave nothing.
_HANDLERS = {
    "href": _keep("href_text"),
    "url": _keep("url_text"),
    "mdlink": _keep("mdlink_url"),
    "style": _styled,
    "underscored": _underscored,
    "escaped": _escaped,
    "command": _command,
    "bold": _mark,
    "italic": _mark,
    "quotes": _replace_with('"'),
    "tilde": _replace_with(" "),
    "glued": _glued,
    "power": _power,
    "accent": _accent,
}


def clean_text(raw: str) -> CleanText:
    """Remove markup and a leading ``Abstract:`` heading from ``raw``; ``emphasis`` lists
    the bold, italic and quoted spans of the clean text.

    >>> clean_text("ABSTRACT: We propose Zorb.").text
    'We propose Zorb.'
    >>> clean_text("Abstract reasoning is hard.").text
    'Abstract reasoning is hard.'
    """
    out = _Builder()
    heading = _HEADING.match(raw)
    pos = heading.end() if heading and heading.end() < len(raw) else 0
    for match in _TOKEN.finditer(raw, pos):
        out.copy(raw, pos, match.start())
        pos = match.end()
        handler = _HANDLERS.get(match.lastgroup)
        if handler is not None:
            handler(out, raw, match)
    out.copy(raw, pos, len(raw))
    text = "".join(out.parts)
    emphasis = out.emphasis
    emphasis.extend((m.start(1), m.end(1), "quoted") for m in _QUOTED.finditer(text)
                    if len(m.group(1)) > 2 and m.group(1) == m.group(1).strip())
    emphasis.sort()
    return CleanText(text, out.starts, out.ends, len(raw), emphasis)


def find_urls(raw: str) -> list[str]:
    """URLs in the stored text, clean of LaTeX braces and trailing punctuation, in order, unique."""
    found: list[str] = []
    for match in _URL.finditer(raw):
        url = match.group(0).rstrip(_URL_TRAILING)
        while url.endswith(")") and url.count("(") < url.count(")"):
            url = url[:-1].rstrip(_URL_TRAILING)
        if not re.match(r"[a-z]+://", url, re.IGNORECASE):
            url = "https://" + url
        if url not in found and "." in url.split("://", 1)[-1]:
            found.append(url)
    return found
