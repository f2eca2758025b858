"""Tokenizer rules for scientific text, added to spaCy's English defaults.

spaCy keeps a period attached after a digit and one capital (``7B.``), as it would
after an initial; in abstracts that is a model size ending a sentence
(``... with Llama-2-7B.``), so the period is split off; so it is after a hyphen and one
capital (``ViT-B.``, ``ImageNet-R.``). A dash written as ``---``,
``--`` or ``—`` after a closing bracket stays glued in spaCy's rules
(``(DLPA)---for``); it is split off, with the bracket, so the acronym stands alone.

The tokenizer's cache is made larger (:data:`CACHE_SIZE` chunks instead of spaCy's
10,000): loading the catalogues tokenises some 6,500 phrases, which filled spaCy's
default cache before the first abstract was read.

Examples
--------
>>> import spacy
>>> nlp = add_scientific_suffixes()(spacy.blank("en"))
>>> [t.text for t in nlp("We fine-tune Llama-2-7B.")][-2:]
['7B', '.']
>>> [t.text for t in nlp("We test on ImageNet-R.")][-4:]
['ImageNet', '-', 'R', '.']
>>> [t.text for t in nlp("an algorithm---Dynamics Learning (DL)---for control")][1:]
['algorithm', '---', 'Dynamics', 'Learning', '(', 'DL', ')', '---', 'for', 'control']
"""

from __future__ import annotations

from collections.abc import Callable

from spacy.language import Language
from spacy.util import compile_infix_regex, compile_suffix_regex, registry

__all__ = ["add_scientific_suffixes"]

SCIENTIFIC_SUFFIXES = (r"(?<=[0-9][A-Z])\.", r"(?<=-[A-Z])\.")
SCIENTIFIC_INFIXES = (r"(?<=[A-Za-z)\]])(?:---|--|—)(?=[A-Za-z(\[])", r"[)\]](?=(?:---|--|—))")
CACHE_SIZE = 200_000


@registry.callbacks("kg.scientific_suffixes.v1")
def add_scientific_suffixes() -> Callable[[Language], Language]:
    """An ``[nlp.after_creation]`` callback adding :data:`SCIENTIFIC_SUFFIXES` and
    :data:`SCIENTIFIC_INFIXES`."""

    def after_creation(nlp: Language) -> Language:
        suffixes = list(nlp.Defaults.suffixes or ()) + list(SCIENTIFIC_SUFFIXES)
        nlp.tokenizer.suffix_search = compile_suffix_regex(suffixes).search
        infixes = list(nlp.Defaults.infixes or ()) + list(SCIENTIFIC_INFIXES)
        nlp.tokenizer.infix_finditer = compile_infix_regex(infixes).finditer
        nlp.tokenizer.max_cache_size = CACHE_SIZE
        return nlp

    return after_creation
