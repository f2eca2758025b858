"""Universal part-of-speech tags from the tagger's Penn Treebank tags, by lookup.

The rules need only coarse tags. The English pipeline's ``attribute_ruler``
(179 patterns, with word exceptions) and ``lemmatizer`` cost about a quarter of
the extraction time, so the default pipeline replaces them with this table.

Examples
--------
>>> import spacy
>>> nlp = spacy.blank("en")
>>> pos = nlp.add_pipe("kg_pos")
>>> doc = nlp.make_doc("we propose")
>>> doc[0].tag_, doc[1].tag_ = "PRP", "VBP"
>>> [t.pos_ for t in pos(doc)]
['PRON', 'VERB']
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

__all__ = ["PTB_TO_UPOS", "TagToPos"]

PTB_TO_UPOS = {
    "_SP": "SPACE", ".": "PUNCT", ",": "PUNCT", "-LRB-": "PUNCT", "-RRB-": "PUNCT",
    "``": "PUNCT", '""': "PUNCT", "''": "PUNCT", ":": "PUNCT", "$": "SYM", "#": "SYM",
    "AFX": "ADJ", "CC": "CCONJ", "CD": "NUM", "DT": "DET", "EX": "PRON", "FW": "X",
    "HYPH": "PUNCT", "IN": "ADP", "JJ": "ADJ", "JJR": "ADJ", "JJS": "ADJ", "LS": "X",
    "MD": "AUX", "NIL": "X", "NN": "NOUN", "NNP": "PROPN", "NNPS": "PROPN", "NNS": "NOUN",
    "PDT": "DET", "POS": "PART", "PRP": "PRON", "PRP$": "PRON", "RB": "ADV", "RBR": "ADV",
    "RBS": "ADV", "RP": "ADP", "SYM": "SYM", "TO": "PART", "UH": "INTJ", "VB": "VERB",
    "VBD": "VERB", "VBG": "VERB", "VBN": "VERB", "VBP": "VERB", "VBZ": "VERB", "WDT": "DET",
    "WP": "PRON", "WP$": "DET", "WRB": "SCONJ", "ADD": "X", "NFP": "PUNCT", "GW": "X",
    "XX": "X", "BES": "VERB", "HVS": "VERB",
}


@Language.factory("kg_pos", assigns=["token.pos"], requires=["token.tag"])
def make_tag_to_pos(nlp: Language, name: str):
    return TagToPos(nlp.vocab.strings)


class TagToPos:
    def __init__(self, strings) -> None:
        self.table = {strings.add(tag): pos for tag, pos in PTB_TO_UPOS.items()}

    def __call__(self, doc: Doc) -> Doc:
        table = self.table
        for token in doc:
            token.pos_ = table.get(token.tag, "X")
        return doc
