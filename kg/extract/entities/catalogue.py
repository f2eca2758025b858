"""Catalogue matches as candidates, unless the text redefines their acronym; widened to the whole
glued name and a model's variant and size."""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.entities.candidate import PRIORITY_CATALOGUE, Candidate
from kg.ids import name_key


def _names_entry(text: str, catalogue_id: str) -> bool:
    """``text`` is the name or an alias of the catalogue entry (by name key)."""
    from kg.extract.lexicons import catalogue_entry

    entry = catalogue_entry(catalogue_id)
    if entry is None:
        return False
    key = name_key(text)
    return any(name_key(n) == key for n in (entry["name"], *entry["aliases"]))


#: Languages as translation datasets name their pairs (``En-De``, ``English-German``): ISO 639-1
#: codes are read by their shape, these names of the languages of the WMT, IWSLT and FLORES
#: shared tasks by list.
_LANGUAGES = frozenset(
    "english german french spanish italian portuguese dutch romanian russian czech polish finnish estonian "
    "latvian lithuanian hungarian turkish greek bulgarian ukrainian chinese japanese korean vietnamese thai "
    "hindi bengali tamil gujarati nepali sinhala arabic hebrew persian kazakh icelandic swedish danish "
    "norwegian croatian serbian slovenian slovak indonesian khmer pashto swahili".split())


def _language(token) -> bool:
    """An ISO 639-1 code (``En``, not a stop word such as ``It``) or a language's name."""
    text = token.text
    return (len(text) == 2 and text[0].isupper() and text[1].islower() and not token.is_stop) \
        or text.lower() in _LANGUAGES


def _language_pair_end(doc: Doc, end: int) -> int | None:
    """The end of a language pair right after token ``end - 1`` (``En-De``, ``English→German``)."""
    if end + 2 < len(doc) and doc[end - 1].whitespace_ and _language(doc[end]) and doc[end + 1].text in ("-", "→", "->", "–") \
            and _language(doc[end + 2]) and not doc[end].whitespace_ and not doc[end + 1].whitespace_:
        return end + 3
    return None


class CatalogueCandidates:
    """Mixed into :class:`~kg.extract.entities.EntityRecognizer`; reads ``catalogue_key``, ``vocab``
    and the document's tokens, and widens a match by the glued runs and sizes of
    :class:`~kg.extract.entities.names.NameCandidates`."""

    def _redefined(self, doc: Doc) -> set[str]:
        """Catalogue acronyms the text defines as something else: ``SAM`` for sharpness-aware
        minimization is not the catalogue's Segment Anything Model, anywhere in the text."""
        out = set()
        at = self._catalogue_at(doc)
        for s_start, s_end, l_start, l_end in doc._.kg_abbreviations:
            match = at.get((s_start, s_end))
            if match is not None and not _names_entry(doc.text[l_start:l_end], match.id_):
                out.add(match.text)
        return out

    def _catalogue_at(self, doc: Doc) -> dict[tuple[int, int], Span]:
        """Catalogue matches by their character offsets."""
        return {(m.start_char, m.end_char): m for m in doc.spans.get(self.catalogue_key, [])}

    def _catalogue(self, doc: Doc):
        redefined = self._redefined(doc)
        for span in doc.spans.get(self.catalogue_key, []):
            if span.text in redefined:
                continue
            start, end = self._whole_glued_name(doc, span.start, span.end)
            changed = (start, end) != (span.start, span.end)
            if span.label_ == "Model":
                end, sized = self._with_size(doc, self._with_variant(doc, end))
                changed = changed or sized or end != span.end
            elif span.label_ == "Dataset" and (paired := _language_pair_end(doc, end)) is not None:
                end, changed = paired, True  # ``WMT14 En-De``: one translation dataset, not two
            yield Candidate(start, end, span.label_, PRIORITY_CATALOGUE, "" if changed else span.id_)

    def _whole_glued_name(self, doc: Doc, start: int, end: int) -> tuple[int, int]:
        """A catalogue name inside a longer hyphenated name is that name, another entity:
        ``CIFAR-10-Warehouse``, ``OGB-LSC-PCQM4Mv1``, ``NExT-GPT`` (not ``-based`` suffixes)."""
        texts, spaces = self._texts, self._spaces
        first = start
        while first >= 2 and texts[first - 1] == "-" and spaces[first - 2] == "" and spaces[first - 1] == "" and (
            texts[first - 2][:1].isalnum() and not (doc[first - 2].is_lower and doc[first - 2].is_stop)
        ):
            first -= 2
        run_end = self._glued_run(doc, first)[1]
        last = self._strip_suffixes(doc, first, max(end, run_end))
        return first, max(end, last)

    def _with_variant(self, doc: Doc, end: int) -> int:
        """``GPT-2 XL``, ``BERT base``, ``T5-large``: a size or variant word names a release."""
        while end < len(doc) and doc[end].lower_ in self.vocab.model_variants and doc[end - 1].whitespace_:
            end += 1
        return end
