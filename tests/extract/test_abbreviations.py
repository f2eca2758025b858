import pytest
import spacy

from kg.extract.abbreviations import is_short_form, schwartz_hearst_long_form
from kg.extract.clean import clean_text


@pytest.fixture(scope="module")
def detector_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("kg_abbreviations")
    return nlp


def definitions(nlp, raw):
    clean = clean_text(raw)
    doc = nlp.make_doc(clean.text)
    doc._.kg_emphasis = clean.emphasis
    doc = nlp(doc)
    return [(doc.text[a:b], doc.text[c:d]) for a, b, c, d in doc._.kg_abbreviations]


@pytest.mark.parametrize(
    "raw, short, long",
    [
        ("Graph Neural Networks (GNNs) are popular.", "GNNs", "Graph Neural Networks"),
        ("we propose Adaptive Parallel Encoding (**APE**), which", "APE", "Adaptive Parallel Encoding"),
        ("an innovative **M**otif-b**A**sed **G**NN **E**xplainer (MAGE) that", "MAGE", "Motif-bAsed GNN Explainer"),
        (r"we present DAWN (\textbf{D}ynamic frame \textbf{A}vatar \textbf{W}ith \textbf{N}on-autoregressive diffusion), a", "DAWN", "Dynamic frame Avatar With Non-autoregressive diffusion"),
        ("we introduce *TRON*, a **t**wo-step framework for **r**isk c**o**ntrol and assessme**n**t, applicable", "TRON", "two-step framework for risk control and assessment"),
        ("the Massive Text Embedding Benchmark (MTEB) and", "MTEB", "Massive Text Embedding Benchmark"),
        # one word whose capitals and digits spell the acronym
        ("a unified framework, Zorb2Quibble (Z2Q), that", "Z2Q", "Zorb2Quibble"),
        # 2 for "to", 4 for "for"
        ("a novel method, Learning-to-Zorble (L2Z), that", "L2Z", "Learning-to-Zorble"),
        ("we present Quibbles for Plonks (Q4P), a", "Q4P", "Quibbles for Plonks"),
        # a letter and a count: as many words with that initial
        ("we propose a zorbic subgame sampler (ZS2), a", "ZS2", "zorbic subgame sampler"),
        ("the Plonky Plink Plank-Quibbler (P3Q) agent", "P3Q", "Plonky Plink Plank-Quibbler"),
    ],
)
def test_definitions_are_found(detector_nlp, raw, short, long):
    assert (short, long) in definitions(detector_nlp, raw)


@pytest.mark.parametrize(
    "raw",
    ["results improve (see Table 1) a lot.", "we use two steps (i) and (ii).", "accuracy (95%) is high.",
     "we train Zorbnet (ZQ) on data."],  # one word whose capitals do not spell it
)
def test_parentheses_without_acronyms_define_nothing(detector_nlp, raw):
    assert definitions(detector_nlp, raw) == []


@pytest.mark.parametrize(
    "raw, short, long",
    [
        ("we propose the Zelective and Quaxable Normalization methodology, dubbed ZQN. It", "ZQN",
         "Zelective and Quaxable Normalization methodology"),
        ("we propose a single-loop variance-reduced gradient estimator, dubbed SILVER, which", "SILVER",
         "single-loop variance-reduced gradient estimator"),
        ("a Hypergraph-Enhanced DuAL framework, called HEAL, that", "HEAL", "Hypergraph-Enhanced DuAL framework"),
        ("graph quorum sampling, abbreviated as GQS, runs", "GQS", "graph quorum sampling"),
        ("a Spatial Quorum Net, dubbed SQNet, that", "SQNet", "Spatial Quorum Net"),  # a word of it, not an acronym
        # a blend longer than an acronym
        ("we propose a Zorbing image Quibbler, termed as ZorbingQuibbler. It", "ZorbingQuibbler",
         "Zorbing image Quibbler"),
        # bold letters are surer than the words before the naming word
        ("a **C**andidate **P**seudolabel **L**earning method, termed **CPL**, to", "CPL", "Candidate Pseudolabel Learning"),
    ],
)
def test_acronyms_after_a_naming_word_are_defined(detector_nlp, raw, short, long):
    assert definitions(detector_nlp, raw) == [(short, long)]


@pytest.mark.parametrize(
    "raw",
    [
        "These structural uses of WAEs, called StrWAEs, are",  # the long form holds an acronym
        "a sparse fine-tuning algorithm named Sparse-IFT that",  # a piece of a longer name
        "we propose a simple yet effective method, called Prompt, that",  # one capital: a word
        "a low-rank matrix. We introduce an algorithm called LORIL, which",  # no long form in its sentence
    ],
)
def test_naming_words_define_nothing_without_a_long_form(detector_nlp, raw):
    assert definitions(detector_nlp, raw) == []


def test_a_long_form_does_not_reach_back_across_another_parenthesis(detector_nlp):
    raw = "Zorbnet improves Plonk (QuaxNet-50) by +3.4 AP and reaches 50.9 (QuaxNet-50) on Flib."
    assert definitions(detector_nlp, raw) == []


@pytest.mark.parametrize("text, ok", [("GNN", True), ("LLMs", True), ("GNN-Diff", True), ("a", False), ("95%", False), ("ii", False)])
def test_is_short_form(text, ok):
    assert is_short_form(text) is ok


def test_schwartz_hearst_needs_first_letter_at_word_start():
    assert schwartz_hearst_long_form("XYZ", "some unrelated words".split()) is None
