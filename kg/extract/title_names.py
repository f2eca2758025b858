"""``kg_title_names``: the name a paper gives its contribution in the title only.

Many titles open with the name of what the paper introduces (``VanillaNet: the Power of
Minimalism in Deep Learning``) while the abstract speaks of "our method" and never writes the
name. The abstract's rules cannot find such a name, since every entity they find is a span
of the abstract. This component reads the title: a coined name before a colon (shaped like a name, see
:func:`~kg.extract.entities.is_name_like`, or a capitalised word the field's abstracts do not
use; in no catalogue; rare in the field's abstracts) that the abstract does not write (nor one
a letter or two away: a typo) is proposed by the paper. Its type is the one the subtitle's head noun gives (``X: A Benchmark
for ...`` is a Dataset), else Method.

Offsets are into the title as given (``doc._.kg_title``), in ``doc._.kg_title_names``:
``[(start, end, label), ...]``; :func:`title_spans` reads them as spans of a small Doc of the
title for the components that relate them to the abstract's entities.

>>> import spacy
>>> nlp = spacy.blank("en")
>>> _ = nlp.add_pipe("kg_title_names")
>>> doc = nlp.make_doc("Our method halves the error of diffusion models.")
>>> doc._.kg_title = "ZorbNet: A Faster Sampler for Diffusion Models"
>>> nlp(doc)._.kg_title_names
[(0, 7, 'Method')]
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.clean import clean_text
from kg.extract.entities import is_name_like
from kg.extract.lexicons import catalogue_ids_of, term_frequency
from kg.extract.vocabulary import Vocabulary, default_vocabulary

__all__ = ["TITLE", "TitleNames", "title_name", "title_proposal", "title_spans"]

#: Marks offsets into the title where offsets into the abstract are the rule (``(TITLE, start, end)``).
TITLE = "title"

for _name, _default in (("kg_title", ""), ("kg_title_names", [])):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=_default)

#: ``Name: subtitle`` (a colon or a dash between them).
_NAMED_TITLE = re.compile(r"^\s*(?P<name>[^\s:]+)\s*(?::|\s[-–—]\s)\s*(?P<rest>\S.*)$")
#: Words that end the subtitle's first noun phrase (``A Benchmark for ...``).
_PHRASE_END = re.compile(r"\s(?:for|of|to|with|on|in|via|from|and|by|towards?|through|using|that|as)\s", re.I)


@Language.factory(
    "kg_title_names",
    assigns=["doc._.kg_title_names"],
    default_config={"vocabulary": {"@misc": "kg.vocabulary.v1"}, "max_field_frequency": 9},
)
def make_title_names(nlp: Language, name: str, vocabulary: Vocabulary, max_field_frequency: int):
    return TitleNames(vocabulary=vocabulary, max_field_frequency=max_field_frequency)


class TitleNames:
    """Finds the coined name a title gives and the abstract does not write (see the module)."""

    def __init__(self, *, vocabulary: Vocabulary, max_field_frequency: int = 9) -> None:
        self.vocab = vocabulary
        self.max_field_frequency = max_field_frequency  # above it, the name is the field's, not the paper's

    def __call__(self, doc: Doc) -> Doc:
        found = title_name(doc._.kg_title, self.vocab, self.max_field_frequency)
        if found is not None and _written_in(found[0], doc):
            found = None
        doc._.kg_title_names = [] if found is None else [found[1:]]
        return doc


def title_name(title: str, vocabulary: Vocabulary | None = None,
               max_field_frequency: int = 9) -> tuple[str, int, int, str] | None:
    """``(name, start, end, label)`` of the coined name opening ``title`` (offsets into ``title``
    as given), or None.

    >>> title_name("VanillaNet: the Power of Minimalism in Deep Learning")
    ('VanillaNet', 0, 10, 'Method')
    >>> title_name("OODBench: A Benchmark for Robustness")[3]
    'Dataset'
    >>> title_name("Position: Rethinking Benchmarks"), title_name("BERT: Pre-training of Transformers")
    (None, None)
    """
    vocabulary = vocabulary or default_vocabulary()
    clean = clean_text(title or "")
    match = _NAMED_TITLE.match(clean.text)
    if match is None:
        return None
    name = match.group("name")
    if "/" in name or not name[:1].isalnum() or catalogue_ids_of(name):
        return None
    frequency = term_frequency(name)
    if frequency > max_field_frequency or not (is_name_like(name, vocabulary) or (name[:1].isupper() and frequency == 0)):
        return None
    start, end = clean.raw_span(match.start("name"), match.end("name"))
    return name, start, end, _label(name, match.group("rest"), vocabulary)


def _label(name: str, subtitle: str, vocabulary: Vocabulary) -> str:
    """The type the subtitle's first noun phrase gives (``A Benchmark for ...``), or a name ending
    in a dataset head (``...Bench``); else Method, the commonest kind of contribution."""
    phrase = _PHRASE_END.split(f" {subtitle} ", maxsplit=1)[0].split()
    head = phrase[-1].lower().strip(".,;!?") if phrase else ""
    if head and (head in vocabulary.dataset_heads or head.rstrip("s") in vocabulary.dataset_heads):
        return "Dataset"
    if re.search(r"[a-z](?:Bench|Benchmarks?)$", name):
        return "Dataset"
    return "Method"


def _written_in(name: str, doc: Doc) -> bool:
    """The abstract writes the name, or a name one letter or two away (a title's typo:
    ``ClusterFomer`` for ``ClusterFormer``)."""
    if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", doc.text, re.IGNORECASE) is not None:
        return True
    lower = name.lower()
    return any(abs(len(t.text) - len(name)) <= 2 and SequenceMatcher(None, lower, t.lower_).ratio() >= 0.85
               for t in doc)


def title_spans(doc: Doc, tokenizer) -> list[Span]:
    """The title names of ``doc`` as labelled spans of a Doc of its title (for features that
    read a name's words), in ``doc._.kg_title_names`` order."""
    if not doc._.kg_title_names:
        return []
    title = tokenizer(doc._.kg_title)
    spans = [title.char_span(start, end, label=label, alignment_mode="expand")
             for start, end, label in doc._.kg_title_names]
    return [span for span in spans if span is not None]


def title_proposal(doc: Doc, tokenizer) -> Span | None:
    """The title's name of a Method or Model: the paper's proposal when its abstract names none."""
    return next((s for s in title_spans(doc, tokenizer) if s.label_ in ("Method", "Model")), None)
