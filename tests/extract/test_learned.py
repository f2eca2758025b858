"""The learned parts of extraction on invented abstracts with known answers: the recogniser
(``kg_learned_entities``), the linear models (entities, proposals, relations) and how the
rules and models combine. Names here are invented, never taken from annotated abstracts."""

import numpy
import pytest

from kg.extract.clean import clean_text
from kg.extract.learned import LearnedEntities
from kg.extract.linear import LinearModel

ABSTRACT = (
    "Image segmentation remains hard for thin structures. "
    "We propose Zorblat, a novel framework for image segmentation. "
    "Zorblat builds on a graph neural network trained with stochastic gradient descent. "
    "On the Plinkset benchmark, Zorblat outperforms U-Net and improves mean IoU by 4.2%."
)


def annotate(nlp, raw, title=""):
    clean = clean_text(raw)
    doc = nlp.make_doc(clean.text)
    doc._.kg_emphasis = clean.emphasis
    doc._.kg_title = title
    return nlp(doc)


def entities(doc):
    return {(s.text, s.label_) for s in doc.spans["kg_entities"]}


def test_recogniser_finds_lower_case_technical_names(nlp):
    doc = annotate(nlp, "We train a graph neural network with stochastic gradient descent for node classification.")
    learned = {(s.text, s.label_) for s in doc.spans["kg_learned"]}
    assert ("stochastic gradient descent", "Method") in learned
    assert ("node classification", "Task") in learned


def test_recogniser_restores_the_docs_own_entities(nlp):
    doc = nlp.make_doc("We train a graph neural network.")
    doc.ents = [doc.char_span(11, 31, label="X")]
    nlp.get_pipe("kg_learned_entities")(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("graph neural network", "X")]


def test_recogniser_without_a_model_says_so(tmp_path):
    component = LearnedEntities(None, model=str(tmp_path / "nothing"), spans_key="x")
    with pytest.raises(ValueError, match="no trained pipeline"):
        component.initialize()


def test_an_invented_abstract_gets_its_proposal_entities_and_relations(nlp):
    doc = annotate(nlp, ABSTRACT, title="Zorblat: Thin-Structure Segmentation")
    found = entities(doc)
    assert {("Zorblat", "Method"), ("image segmentation", "Task"), ("Plinkset", "Dataset")} <= found
    assert {s.text for s in doc.spans["kg_proposed"]} == {"Zorblat"}
    relations = {(doc.text[a:b], p, doc.text[c:d]) for a, b, p, c, d, _, _ in doc._.kg_relations}
    assert ("Zorblat", "evaluated_on", "Plinkset") in relations
    assert ("Zorblat", "applied_to", "image segmentation") in relations


def test_a_sentence_without_entities_gives_no_relation(nlp):
    doc = annotate(nlp, "This is a sentence about nothing in particular. It has no names.")
    assert doc._.kg_relations == []


@pytest.mark.parametrize("abstract, evaluated", [
    ("Long inputs remain hard for language models. We introduce Zorbench, a benchmark of 12,000 questions "
     "over long documents. Across 14 models, Plonk-7B and Quorb-13B stay below 30% accuracy.", True),
    ("Long inputs remain hard for language models. We propose Zorblat, a novel retrieval method for long "
     "documents. Across 14 models, Plonk-7B and Quorb-13B stay below 30% accuracy.", False),
])
def test_the_models_a_benchmark_paper_names_are_evaluated_on_its_benchmark(nlp, abstract, evaluated):
    """A paper that proposes a dataset and no method evaluates the models it names on it, in
    whichever sentence it names them; a paper that proposes a method does not."""
    doc = annotate(nlp, abstract)
    relations = {(doc.text[a:b], p, doc.text[c:d]) for a, b, p, c, d, _, _ in doc._.kg_relations}
    on = {(m, "evaluated_on", "Zorbench") for m in ("Plonk-7B", "Quorb-13B")}
    assert (on <= relations) == evaluated
    assert not any(p == "evaluated_on" and o in ("Plonk-7B", "Quorb-13B") for _, p, o in relations)


def test_linear_model_round_trips_and_ignores_unknown_features(tmp_path):
    model = LinearModel(["none", "uses", "extends"], ["a", "b"],
                        numpy.array([[0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]), numpy.array([1.0, 0.0, 0.0]))
    path = tmp_path / "m.npz"
    model.save(path)
    again = LinearModel.load(path)
    for features in (["a"], ["b"], ["a", "b", "zzz"], []):
        assert numpy.allclose(again.probabilities(features), model.probabilities(features))
        assert abs(again.probabilities(features).sum() - 1) < 1e-9
    assert again.predict(["b"])[0] == "extends"
    assert again.predict(["nothing"])[0] == "none"
    assert again.probability(["a"], "uses") > again.probability([], "uses")


def test_a_model_saved_with_its_feature_names_as_an_array_of_strings_still_loads(tmp_path):
    path = tmp_path / "old.npz"
    numpy.savez_compressed(path, classes=numpy.array(["none", "uses"]), features=numpy.array(["w=using", "ß=ü"]),
                           weights=numpy.array([[0.0, 2.0], [0.0, -1.0]]), bias=numpy.zeros(2))
    old = LinearModel.load(path)
    assert old.features == ["w=using", "ß=ü"]
    old.save(tmp_path / "new.npz")
    again = LinearModel.load(tmp_path / "new.npz")
    assert again.features == old.features and again.predict(["w=using"])[0] == "uses"
    assert numpy.load(tmp_path / "new.npz")["features"].dtype == numpy.uint8  # UTF-8 lines, half the size


def test_shipped_models_are_small_data_files():
    from kg.extract.models import MODELS_DIR

    for name in ("relations.npz", "proposals.npz", "entities.npz"):
        path = MODELS_DIR / name
        assert path.is_file() and path.stat().st_size < 2_000_000
        with numpy.load(path, allow_pickle=False) as data:  # plain arrays, never pickles
            assert set(data.files) == {"classes", "features", "weights", "bias"}


def test_a_learned_span_cut_after_a_hyphen_is_mended(nlp):
    """``Zorb-2-9B-`` of ``Zorb-2-9B-it``: the name goes on past the hyphen; a hyphen before a
    space ends nothing and is left out."""
    from spacy.tokens import Span

    recogniser = nlp.get_pipe("kg_entities")
    doc = nlp.make_doc("We tune Zorb-2-9B-it and Plonk-7B - models.")
    words = [t.text for t in doc]
    cut = words.index("it")  # the recogniser's span stops at the hyphen before it
    doc.spans[recogniser.learned_key] = [Span(doc, 2, cut, label="Model"),
                                         Span(doc, words.index("Plonk-7B"), words.index("models"), label="Model")]
    found = {doc[c.start:c.end].text for c in recogniser._learned(doc)}
    assert found == {"Zorb-2-9B-it", "Plonk-7B"}
