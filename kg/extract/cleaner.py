"""``kg_clean``: the first component of kg's pipeline, so that ``nlp(abstract)`` reads what
``kg build`` reads.

Abstracts carry LaTeX and Markdown (:mod:`kg.extract.clean`). The component cleans the text
of the Doc it is given and, when cleaning changed it, returns a new Doc of the clean text
(tokenised by the pipeline's own tokenizer; extension values set before the pipeline, such
as ``doc._.kg_title``, and the context of ``nlp.pipe(..., as_tuples=True)`` are carried
over). It sets ``doc._.kg_clean`` (the
:class:`~kg.extract.clean.CleanText`: plain offsets back into the text as given) and
``doc._.kg_emphasis`` (bold, italic and quoted spans, which the acronym and proposal rules read).

Corpora that come tokenised (``kg evaluate scierc|tdmsci``) run without it.

>>> import spacy
>>> nlp = spacy.blank("en")
>>> _ = nlp.add_pipe("kg_clean")
>>> doc = nlp(r"**M**otif-b**A**sed gains 4.5$\\times$")
>>> doc.text, [doc.text[s:e] for s, e, _ in doc._.kg_emphasis]
('Motif-bAsed gains 4.5×', ['M', 'A'])
>>> doc._.kg_clean.raw_span(0, 11)
(2, 19)
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.clean import clean_text

__all__ = ["MAX_ABSTRACT_CHARS", "Cleaner"]

#: Longer abstracts are extracted from their first this many characters (the record is kept
#: whole; the manifest says so). Real abstracts are a few thousand characters.
MAX_ABSTRACT_CHARS = 100_000

for _name in ("kg_clean", "kg_emphasis"):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=None if _name == "kg_clean" else [])


@Language.factory(
    "kg_clean",
    assigns=["doc._.kg_clean", "doc._.kg_emphasis"],
    default_config={"max_chars": MAX_ABSTRACT_CHARS},
)
def make_cleaner(nlp: Language, name: str, max_chars: int) -> Cleaner:
    return Cleaner(nlp, max_chars=max_chars)


class Cleaner:
    """Cleans a Doc's text (its first ``max_chars`` characters) and keeps the map back."""

    def __init__(self, nlp: Language, *, max_chars: int) -> None:
        self.nlp = nlp
        self.max_chars = max_chars

    def __call__(self, doc: Doc) -> Doc:
        clean = clean_text(doc.text[: self.max_chars])
        if clean.text != doc.text:
            cleaned = self.nlp.make_doc(clean.text)
            cleaned.user_data.update(doc.user_data)  # doc._ values set before the pipeline
            cleaned._context = doc._context  # what nlp.pipe(..., as_tuples=True) pairs it with
            doc = cleaned
        doc._.kg_clean = clean
        doc._.kg_emphasis = clean.emphasis
        return doc
