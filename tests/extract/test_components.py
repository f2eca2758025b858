"""The rule components on made-up sentences: names here are invented, never from the examples."""

import pytest
import spacy

from kg.extract.proposals import _earlier_example


def annotate(nlp, raw, title=""):
    doc = nlp.make_doc(raw)
    doc._.kg_title = title
    return nlp(doc)  # kg_clean cleans it as kg build does


def entities(doc):
    return {(s.text, s.label_) for s in doc.spans["kg_entities"]}


def before(nlp, raw, component):
    """``raw`` through the pipeline up to ``component`` (not run), kg_clean first."""
    doc = nlp.make_doc(raw)
    for name, step in nlp.pipeline:
        if name == component:
            break
        doc = step(doc)
    return doc


def chosen(nlp, raw):
    """What the rules and the recogniser choose, typed, before the learned decision."""
    doc = before(nlp, raw, "kg_entities")
    picked, _ = nlp.get_pipe("kg_entities").choose(doc)
    return {(doc[c.start:c.end].text, c.label) for c in picked}


def proposed(doc):
    return {s.text for s in doc.spans["kg_proposed"]}


@pytest.mark.parametrize(
    "text, name",
    [
        ("In this paper, we propose Quibblex, a novel framework for graph learning.", "Quibblex"),
        ("We introduce ZORVAK, an automated framework that explores this space.", "ZORVAK"),
        ("We propose a new method to improve stability, dubbed Frandle Optimal Mapping (FROM).", "FROM"),
        ("To this end, we propose an alignment framework named BriskAlign, which presents a new objective.", "BriskAlign"),
        ("In this paper, we present TWIZZLE, a novel graph generative model based on diffusion.", "TWIZZLE"),
        ("This work introduces a graph-conditioned latent diffusion framework (Glim-Diff) to generate networks.", "Glim-Diff"),
        ("Plonkify is a versatile audio synthesis model capable of following instructions.", "Plonkify"),
        ("We introduce **Q**uick **R**etrieval **A**gent (QRA), which retrieves documents.", "QRA"),
        ("We show that our method, Plinkrow, converges faster than gradient surgery.", "Plinkrow"),
        ("Our second algorithm (ZQV-Mix) adds noise to the gradients.", "ZQV-Mix"),
        ("Experiments show that VorPlex, our sampling framework for molecules, is fast.", "VorPlex"),
        (r"In this paper, we propose Q$^2$-Zorbnet, a novel framework for graph learning.", "Q²-Zorbnet"),
        ("The proposed algorithm, Plinkwise Quorb Recovery (PQR), first perturbs a data point.",
         "Plinkwise Quorb Recovery"),
        # a naming word with its *as*
        ("We propose a lightweight method denoted as ZEST for pruning.", "ZEST"),
        ("We introduce a new sampling scheme, termed as Zorbic sampling, for diffusion models.", "Zorbic sampling"),
    ],
)
def test_proposals_are_found_by_syntax(nlp, text, name):
    """The patterns alone (the learned decision weighs them with the rest of an abstract)."""
    doc = annotate(nlp, text)
    entities = list(doc.spans["kg_entities"])
    found, _ = nlp.get_pipe("kg_proposals")._by_patterns(doc, entities)
    assert name in {entities[i].text for i in found}


@pytest.mark.parametrize("text, name", [
    ("We propose a lightweight method denoted as ZEST for pruning.", "ZEST"),
    ("We introduce a new sampling scheme, termed as Zorbic sampling, for diffusion models.", "Zorbic sampling"),
])
def test_a_name_after_a_naming_word_and_its_as_is_proposed(nlp, text, name):
    assert name in proposed(annotate(nlp, text))


@pytest.mark.parametrize(
    "text, name",
    [
        ("Our method outperforms QuibbleNet on three benchmarks.", "QuibbleNet"),
        ("Prior work such as ZORVAK relies on manual setup.", "ZORVAK"),
        ("Unlike our method, QuibbleNet needs labels.", "QuibbleNet"),
        ("We introduce Plimbench, a benchmark designed to evaluate the abilities of QLMs in planning.", "QLMs"),
        ("In this work, we introduce PLATE (Zorbson et al., 2016) to a new setting and study its leakage.", "PLATE"),
        ("We present Quibnet [Zorbson and Quill, 2021a], which we extend to graphs.", "Quibnet"),
        # an example of earlier work, in parentheses
        ("Our methods outperform a state-of-the-art method (QUAXTRADE) by more than 4% in robust AP.", "QUAXTRADE"),
        ("Our plonk beats existing baselines (ZORBLA) on CIFAR-10.", "ZORBLA"),
    ],
)
def test_mentioned_names_are_not_proposals(nlp, text, name):
    doc = annotate(nlp, text)
    assert name in {s.text for s in doc.spans["kg_entities"]}
    assert name not in proposed(doc)


@pytest.mark.parametrize("text, name, earlier", [
    ("Our methods outperform a state-of-the-art method (QUAXTRADE) by 4% in robust AP.", "QUAXTRADE", True),
    ("Our plonk beats existing baselines (ZORBLA) on CIFAR-10.", "ZORBLA", True),
    ("We propose a data-dependent gated-prior graph autoencoder (GPGAE) for link plonking.", "GPGAE", False),
])
def test_a_name_in_parentheses_after_earlier_work_is_an_example_of_it(nlp, text, name, earlier):
    doc = annotate(nlp, text)
    start = text.index(name)
    assert _earlier_example(doc, doc.char_span(start, start + len(name))) is earlier


def test_a_catalogued_name_the_title_opens_with_is_the_papers_own(nlp):
    text = "Plonking is costly. We build Procgen to make plonking cheap. Procgen runs fast."
    assert "Procgen" in proposed(annotate(nlp, text, title="Procgen: Cheap Plonking for All"))
    assert "Procgen" not in proposed(annotate(nlp, text, title="Cheap Plonking for All"))


def test_a_name_in_parentheses_after_generic_words_does_not_name_them(nlp):
    doc = annotate(nlp, "Our methods outperform a state-of-the-art method (QUAXTRADE) by more than 4% in robust AP.")
    assert doc._.kg_abbreviations == []
    assert "state-of-the-art method" not in {s.text for s in doc.spans["kg_entities"]}


def test_a_word_before_the_head_of_the_phrase_before_a_name_does_not_type_it(nlp):
    doc = annotate(nlp, "We thereby propose to improve GANs with score zorbing regularity (SZoR). SZoR lowers FID.")
    assert [(s.text, s.label_) for s in doc.spans["kg_proposed"]][:1] == [("SZoR", "Method")]


def test_proposed_type_comes_from_the_description(nlp):
    doc = annotate(nlp, "We introduce Blorpbench, a benchmark of 500 graph problems.")
    assert ("Blorpbench", "Dataset") in entities(doc)
    doc = annotate(nlp, "We present Snarfnet-7B, a language model trained on code.")
    assert ("Snarfnet-7B", "Model") in entities(doc)


@pytest.mark.parametrize(
    "text, name, label",
    [
        ("These gist models form the basis for Quorbscore, a novel metric for scoring examples.", "Quorbscore", "Metric"),
        ("Results on PlinkEval, BlorpEval and PlinkLongEval, a new long-form code benchmark, show gains.",
         "PlinkLongEval", "Dataset"),
    ],
)
def test_a_name_called_new_anywhere_is_proposed(nlp, text, name, label):
    """``X, a novel metric`` introduces X wherever it stands, with no *we* in the sentence, and
    the description's head gives its type."""
    doc = annotate(nlp, text)
    assert name in proposed(doc)
    assert (name, label) in entities(doc)


@pytest.mark.parametrize(
    "text, name",
    [
        ("We propose Plinko, a retrieval-augmented translation method that retrieves examples.", "Plinko"),
        ("We propose Zorbet, a score-based method for sampling.", "Zorbet"),
        ("We present Quorbo, a memory-guided Transformer using a reconstruction-based approach.", "Quorbo"),
        ("We introduce Blorpa, a natural language-based deductive reasoning format.", "Blorpa"),
    ],
)
def test_a_description_is_read_past_its_hyphenated_modifiers(nlp, text, name):
    """The head of ``a retrieval-augmented translation method`` is ``method``: a hyphen joins a
    modifier, it does not end the description (``retrieval`` is no Task here), and a word that
    modifies the noun after it (``reasoning format``) is no head either."""
    doc = annotate(nlp, text)
    assert (name, "Method") in {(s.text, s.label_) for s in doc.spans["kg_proposed"]}


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("To explain it, we propose a novel technique named zorbed plink contraction to capture the losses.",
         "zorbed plink contraction"),
        ("This leads us to the contextual zorb lasso, a new statistical estimator that fits a sparse model.",
         "contextual zorb lasso"),
        ("We present a family of methods for sparse graphs that we term adaptive plonk smoothing, and show "
         "it converges.", "adaptive plonk smoothing"),
    ],
)
def test_a_phrase_the_paper_names_has_its_proposal_pattern(nlp, text, phrase):
    """A descriptive phrase (no capitals) gets the naming and *a new ...* patterns, which a name gets,
    so the learned decision weighs them; the other patterns stay for names."""
    doc = annotate(nlp, text)
    entities = list(doc.spans["kg_entities"])
    found, reasons = nlp.get_pipe("kg_proposals")._by_patterns(doc, entities)
    assert {entities[i].text: reasons[i] for i in found}.get(phrase) in ("naming", "apposition")


def test_a_phrase_called_a_new_issue_has_no_proposal_pattern(nlp):
    """``unauthorized plink recognition, a new and often overlooked issue``: a new thing of no
    kind the paper could propose."""
    doc = annotate(nlp, "Studies protect users against unauthorized plink recognition, a new and often "
                        "overlooked issue has emerged.")
    entities = list(doc.spans["kg_entities"])
    found, _ = nlp.get_pipe("kg_proposals")._by_patterns(doc, entities)
    assert "unauthorized plink recognition" not in {entities[i].text for i in found}


def test_a_name_called_popular_is_not_proposed(nlp):
    doc = annotate(nlp, "These models form the basis for Quorbscore, a popular metric for scoring examples.")
    assert "Quorbscore" not in proposed(doc)


@pytest.mark.parametrize(
    "text, metric",
    [
        ("On the Plonk benchmark, Zorbret advances the state of the art by 2.8 nDCG@10 without distillation.", "nDCG@10"),
        ("Zorbret reaches an FID of 5.17 on the Plonk faces.", "FID"),
        # ``average F1`` is a catalogue entry too: the reading kept for F1 is not the catalogue's
        ("On the Plonk corpus, Zorbret achieves an average F1 of 78.4.", "F1"),
    ],
)
def test_a_catalogued_metric_written_with_its_number_is_kept(nlp, text, metric):
    """The number reads the catalogue's metric as a metric: a second reading the decision does
    not overrule."""
    assert (metric, "Metric") in entities(annotate(nlp, text))


@pytest.mark.parametrize(
    "text, metrics",
    [
        ("Zorbret outperforms the baselines in terms of probe count.", {"probe count"}),
        ("Zorbret outperforms the baselines in terms of robustness and speed.", {"robustness", "speed"}),
    ],
)
def test_what_a_comparison_is_measured_in_terms_of_is_a_metric(nlp, text, metrics, monkeypatch):
    """The decision doubts bare words like ``robustness``; written after ``in terms of`` they name
    what the comparison is measured by, and a doubt below ``IN_TERMS_OF_THRESHOLD`` keeps them."""
    from kg.extract.entities import component

    found = entities(annotate(nlp, text))
    assert {(m, "Metric") for m in metrics} <= found
    monkeypatch.setattr(component, "IN_TERMS_OF_THRESHOLD", 0.0)
    assert not {(m, "Metric") for m in metrics} & entities(annotate(nlp, text))


def test_in_terms_of_reads_a_list_and_stops_at_a_clause(nlp):
    from kg.extract.entities.candidate import Candidate
    from kg.extract.entities.component import _measured_in_terms_of

    doc = nlp("Zorbret wins in terms of speed, memory and rollout error, which shows that recall matters.")
    words = [t.text for t in doc]
    at = {w: Candidate(words.index(w), words.index(w) + 1, "Metric", 4) for w in ("speed", "memory", "recall")}
    assert _measured_in_terms_of(doc, at["speed"]) and _measured_in_terms_of(doc, at["memory"])
    assert not _measured_in_terms_of(doc, at["recall"])


def test_a_year_is_not_a_score():
    from spacy.lang.en import English

    from kg.extract.entities.candidate import Candidate
    from kg.extract.entities.component import _scores_a_number

    doc = English()("the algorithm of Arthur (SODA 2007) and BLEU 31.5")
    assert [t.text for t in doc[5:7]] == ["SODA", "2007"] and [t.text for t in doc[9:11]] == ["BLEU", "31.5"]
    assert not _scores_a_number(doc, Candidate(5, 6, "Metric", 4, source="catalogue"))
    assert _scores_a_number(doc, Candidate(9, 10, "Metric", 4, source="catalogue"))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("We evaluate on node classification and link prediction.", {("node classification", "Task"), ("link prediction", "Task")}),
        ("Experiments on MNIST, FooBench and CIFAR10 show gains.", {("MNIST", "Dataset"), ("FooBench", "Dataset"), ("CIFAR10", "Dataset")}),
        ("We run OPT (30B) and Llama-2 (70B) models.", {("OPT (30B)", "Model"), ("Llama-2 (70B)", "Model")}),
        ("We use Monte Carlo Tree Search to explore.", {("Monte Carlo Tree Search", "Method")}),
        ("It reduces inference latency and improves accuracy.", {("inference latency", "Metric"), ("accuracy", "Metric")}),
        ("We study sentence ordering tasks and world knowledge tasks.", {("sentence ordering", "Task"), ("world knowledge", "Task")}),
        ("It excels at personalized recommendations and theorem proving.", {("personalized recommendations", "Task"), ("theorem proving", "Task")}),
        ("We report the semantic accuracy and the blorp coherence metric.", {("semantic accuracy", "Metric"), ("blorp coherence", "Metric")}),
        ("It reaches much higher accuracy with noticeable latency.", {("accuracy", "Metric"), ("latency", "Metric")}),
        ("It beats AR models on the MNIST image classification benchmark.", {("MNIST", "Dataset"), ("image classification", "Task")}),
        ("We evaluate on the Zorb-Plinks Extended benchmark.", {("Zorb-Plinks Extended", "Dataset")}),
    ],
)
def test_entities_and_types(nlp, text, expected):
    """The rules' candidates and their types (the learned decision keeps or drops them)."""
    assert expected <= chosen(nlp, text)


def test_invented_release_names_are_typed_by_the_decision(nlp):
    """A name's shape makes it a candidate; the recogniser's type for an invented name is a
    guess (``Zorbo-v2`` as a Metric) that the learned decision settles."""
    found = entities(annotate(nlp, "We compare GPT-q3 with Zorbo-v2 and Flarn-7B."))
    assert {("GPT-q3", "Model"), ("Zorbo-v2", "Method"), ("Flarn-7B", "Model")} <= found


@pytest.mark.parametrize("keep_agreed, kept", [(True, {("BLEU", "Metric"), ("WMT14", "Dataset")}),
                                               (False, {("BLEU", "Metric")})])
def test_a_name_the_catalogue_and_the_recogniser_agree_on_outlasts_the_decision(nlp, monkeypatch,
                                                                              keep_agreed, kept):
    """With the decision dropping every name (threshold 0), only catalogue entries the recogniser
    reads with the same extent and type stay, and a catalogued metric with its number (``BLEU
    31.5``); ``Zorblat`` (no catalogue entry) goes."""
    recogniser = nlp.get_pipe("kg_entities")
    monkeypatch.setattr(recogniser, "threshold", 0.0)
    monkeypatch.setattr(recogniser, "keep_agreed", keep_agreed)
    assert entities(annotate(nlp, "On WMT14, Zorblat obtains BLEU 31.5.")) == kept


@pytest.mark.parametrize("written, annotated, kept", [(5, 4, True), (5, 2, False), (2, 2, False)])
def test_a_name_the_training_annotation_marks_where_written_outlasts_the_decision(nlp, monkeypatch,
                                                                                written, annotated, kept):
    """With the decision dropping every name, a phrase stays when the training annotation names it
    in three abstracts or more and in 0.6 of those that write it (``kg train-linear names``)."""
    from kg.extract.lexicons import term_key
    from kg.extract.models import AnnotatedName

    recogniser = nlp.get_pipe("kg_entities")
    monkeypatch.setattr(recogniser, "threshold", 0.0)
    monkeypatch.setattr(recogniser, "annotated_names", {term_key("plonkic regression"): AnnotatedName(written, annotated, "Task")})
    found = {text for text, _ in entities(annotate(nlp, "We study plonkic regression with Zorblat."))}
    assert ("plonkic regression" in found) is kept
    assert "Zorblat" not in found


def test_names_lose_only_a_capital_the_sentence_gave_them(nlp):
    from kg.extract.pipeline import to_extraction
    from kg.types import Paper, Source

    text = ("Image segmentation remains hard. Bayesian optimization is costly. Such latent verifiers (LVs) help. "
            "Fréchet regression is studied too.")
    paper = Paper("p", text, Source("x", 0))
    doc = annotate(nlp, text)
    record = to_extraction(doc, paper, doc._.kg_clean)
    names = {e.name for e in record.entities}
    assert {"image segmentation", "Bayesian optimization", "latent verifier", "Fréchet regression"} <= names


def test_a_name_typed_two_ways_takes_the_type_its_relations_require():
    """``zorb ranking`` a Method in one sentence and a Task in the one that says the proposal
    addresses it: the object of ``applied_to`` is a Task. A catalogued name keeps its type, and
    so does a name a result needs as a Dataset."""
    from kg.extract.pipeline import _type_as_related
    from kg.types import Entity, Relation, Result

    found = [Entity("Zorblat", "Method", "zorblat", proposed=True), Entity("zorb ranking", "Method", "zorb-ranking"),
             Entity("ImageNet", "Method", "imagenet", catalogue_id="dataset:imagenet"),
             Entity("Plonk", "Dataset", "plonk")]
    stated = [Relation(0, "applied_to", 1, 0, 1), Relation(0, "applied_to", 2, 0, 1), Relation(0, "applied_to", 3, 0, 1)]
    held = [Result(metric="accuracy", value="90%", start=0, end=3, subject=0, dataset=3)]
    _type_as_related(found, stated, held)
    assert [e.type for e in found] == ["Method", "Task", "Method", "Dataset"]


def test_a_dataset_keeps_its_plural_name(nlp):
    """``Natural Questions`` is a dataset's own name; a common noun's plural is still singular
    (``Graph Neural Networks``), and both keys are singular."""
    from kg.extract.pipeline import to_extraction
    from kg.types import Paper, Source

    text = ("Graph Neural Networks are strong. We evaluate Zorblat on Natural Questions and TriviaQA, "
            "where it beats every baseline.")
    paper = Paper("p", text, Source("x", 0))
    doc = annotate(nlp, text)
    record = to_extraction(doc, paper, doc._.kg_clean)
    names = {e.name: e for e in record.entities}
    assert names["Natural Questions"].type == "Dataset" and names["Natural Questions"].key == "natural-question"
    assert "Graph Neural Network" in names


def test_a_dimension_before_a_name_is_part_of_it(nlp):
    """``3D visual grounding`` is not the catalogue's ``visual grounding``: the longer name, without
    the catalogue id of the shorter."""
    doc = annotate(nlp, "We propose Zorblat for 3D visual grounding and 2D pose estimation on ScanRefer.")
    found = {s.text: s for s in doc.spans["kg_entities"]}
    assert {"3D visual grounding", "2D pose estimation"} <= set(found)
    assert not found["3D visual grounding"].kb_id_


def test_formulas_are_not_names(nlp):
    text = ("The barrier is(4)kBTxo=V1−V2ln((o2ν¯2κ)/(o1ν¯1κ)),from Eq. (3), at VDS≠0 V. "
            "The UO2|U interface forms.")
    doc = annotate(nlp, text)
    names = {s.text for s in doc.spans["kg_entities"]}
    assert not {n for n in names if any(c in n for c in "=≠|()")}


def test_a_name_keeps_its_head_noun_wherever_the_two_words_meet(nlp):
    doc = annotate(nlp, "Memory goes to the QZ cache, the largest part. We shrink QZ cache memory usage by half.")
    assert [s.text for s in doc.spans["kg_entities"] if "QZ" in s.text] == ["QZ cache", "QZ cache"]


@pytest.mark.parametrize(
    "text, generic",
    [
        ("Our approach outperforms existing methods.", {"approach", "existing methods", "Our approach"}),
        ("We run extensive experiments on various tasks.", {"various tasks", "experiments"}),
        ("It helps many downstream tasks and machine learning tasks.", {"many downstream", "downstream", "machine learning"}),
    ],
)
def test_generic_phrases_are_not_entities(nlp, text, generic):
    assert not generic & {s.text for s in annotate(nlp, text).spans["kg_entities"]}


def test_relations(nlp):
    doc = annotate(
        nlp,
        "We propose Quibblex, a novel framework. Experiments on MNIST and CIFAR10 show that "
        "Quibblex outperforms GPT-4o. Quibblex uses Monte Carlo Tree Search.",
    )
    triples = {(doc.text[a:b], p, doc.text[c:d]) for a, b, p, c, d, _, _ in doc._.kg_relations}
    assert ("Quibblex", "evaluated_on", "MNIST") in triples
    assert ("Quibblex", "compared_with", "GPT-4o") in triples
    assert ("Quibblex", "uses", "Monte Carlo Tree Search") in triples


def test_model_sizes_are_not_results(nlp):
    assert annotate(nlp, "We fine-tune Llama-2 (70B) and a 7B model.")._.kg_results == []


@pytest.mark.parametrize(
    "text, name_like",
    [("zhou2019deep", False), ("smith2021", False), ("VOC2007", True), ("word2vec", True), ("GPT-4", True)],
)
def test_citation_keys_are_not_names(text, name_like):
    from kg.extract.entities import is_name_like
    from kg.extract.vocabulary import default_vocabulary

    assert is_name_like(text, default_vocabulary()) is name_like


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Models trained on CIFAR-10-Warehouse degrade.", ("CIFAR-10-Warehouse", "Dataset")),
        ("Results on OGB-LSC-PCQM4Mv1 improve.", ("OGB-LSC-PCQM4Mv1", "Dataset")),
        ("We compare with NExT-GPT on every task.", ("NExT-GPT", "Model")),
        ("We compare with GPT-2 XL 1.56B on every task.", ("GPT-2 XL 1.56B", "Model")),
        ("We compare with BERT-base on every task.", ("BERT-base", "Model")),
        ("We use the Glarbish and Frontex benchmarks.", ("Frontex", "Dataset")),
        ("We use the Glarbish and Frontex benchmarks.", ("Glarbish", "Dataset")),
        ("We test on Quorvo, a question-answering dataset.", ("Quorvo", "Dataset")),
    ],
)
def test_longer_names_are_kept_whole_and_typed_by_their_context(nlp, text, expected):
    assert expected in chosen(nlp, text)


def test_a_catalogue_name_inside_a_longer_name_loses_its_catalogue_id(nlp):
    doc = annotate(nlp, "Models trained on CIFAR-10-Warehouse degrade, unlike on CIFAR-10.")
    ids = {s.text: s.kb_id_ for s in doc.spans["kg_entities"]}
    assert ids["CIFAR-10-Warehouse"] == "" and ids["CIFAR-10"] == "pwc:dataset:cifar-10"


def test_a_value_is_not_part_of_a_metric_name(nlp):
    doc = annotate(nlp, "Our model reaches an FID 5.17 on faces.")
    names = {s.text for s in doc.spans["kg_entities"]}
    assert "FID 5.17" not in names


@pytest.mark.parametrize("text", [
    "We fine-tune a language model on the task.",
    "A deep neural network is trained on the data.",
    "We distil the foundation model into a student model.",
])
def test_generic_classes_are_not_entities(nlp, text):
    doc = annotate(nlp, text)
    names = {s.text.lower() for s in doc.spans["kg_entities"]}
    assert not names & {"language model", "deep neural network", "foundation model", "student model"}


def test_a_generic_family_with_an_acronym_stays(nlp):
    doc = annotate(nlp, "Large language models (LLMs) can plan. LLMs fail at arithmetic.")
    names = {s.text for s in doc.spans["kg_entities"]}
    assert "LLMs" in names


def test_hyphenated_compounds_with_function_words_stay_whole(nlp):
    doc = annotate(nlp, "We rank them with ZLM-as-a-judge and Tree-of-Blorps.")
    found = entities(doc)
    assert "ZLM-as-a-judge" in {text for text, _ in found}
    assert ("Tree-of-Blorps", "Method") in found


def test_variants_of_a_proposed_name_are_proposed(nlp):
    doc = annotate(nlp, "We propose a principle, Glorbic Vantage Model (GLORV), to extract signals from noisy "
                        "graphs. Two instantiations, GLORV-SSL and GLORV-REP, are elaborated. Both outperform "
                        "QuibbleNet on four benchmarks.")
    found = proposed(doc)
    assert {"GLORV-SSL", "GLORV-REP"} <= found, found
    assert "QuibbleNet" not in found


def test_emphasised_terms_are_candidates(nlp):
    picked = chosen(nlp, "To capture this, we introduce *plinth drift* as a measure of robustness.")
    assert ("plinth drift", None) in {(text, None) for text, _ in picked}


def test_emphasised_spans_lose_articles_and_punctuation_at_their_edges(nlp):
    from kg.extract.entities import emphasized_spans

    doc = nlp("We define *the grobble index:* a score, and the bold letters **Q**uick stay out.")
    assert [s.text for s in emphasized_spans(doc)] == ["grobble index"]


def test_an_emphasised_name_wins_over_a_shorter_name_inside_it(nlp):
    picked = chosen(nlp, "This method, _sieve QBX_, lets us infer whole families of rules.")
    texts = {text for text, _ in picked}
    assert "sieve QBX" in texts and "QBX" not in texts, texts


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("To this end, we introduce florp-masking, which hides the risky tokens.", "florp-masking"),
        ("We propose a novel contrastive method, called quandle distillation, for agents.", "quandle distillation"),
        ("We propose a weight-plume joint shrinking method to reduce checkpoints.", "weight-plume joint shrinking"),
        ("We introduce a novel architecture, Zibber transformers, to address these issues.", "Zibber transformers"),
    ],
)
def test_the_phrase_a_paper_introduces_is_a_candidate_whole(nlp, text, phrase):
    picked = {t for t, _ in chosen(nlp, text)}
    assert phrase in picked, picked
    assert not any(t != phrase and t in phrase for t in picked), picked  # no shorter piece of it


@pytest.mark.parametrize(
    "text, phrase",
    [
        ('We describe a new analysis, which we call "plinth rules", to find faults in parsers.', "plinth rules"),
        ("Experiments show that the proposed quibble-domain transfer parametrization is stable.",
         "quibble-domain transfer parametrization"),
        # a kind word most names keep stays, one most names drop goes
        ("Furthermore, we introduce a novel patch pyramid loss that leverages patch recurrence.", "patch pyramid loss"),
        ("We introduce a novel quorb-ranking loss for retrieval.", "quorb-ranking loss"),
        ("We propose a weight-quorb joint shrinking method for pruning.", "weight-quorb joint shrinking"),
    ],
)
def test_a_quoted_or_proposed_phrase_is_an_introduced_candidate(nlp, text, phrase):
    doc = before(nlp, text, "kg_entities")
    found = [doc[c.start:c.end].text for c in nlp.get_pipe("kg_entities")._introduced_phrases(doc)]
    assert found == [phrase]


def test_a_capitalised_run_keeps_a_short_part_glued_on_by_a_hyphen(nlp):
    """``Split ImageNet-R``, not ``Split ImageNet``; ``Text-to`` is no part, a single word no run."""
    doc = before(nlp, "We report results on Split Plonknet-R and on Quorb-2 with Text-to-Image Zorbing.", "kg_entities")
    found, _ = nlp.get_pipe("kg_entities").candidates(doc)
    texts = {doc[c.start:c.end].text for c in found if c.source in ("title", "name")}
    assert "Split Plonknet-R" in texts and "Split Plonknet" not in texts, texts
    assert "Text-to" not in texts, texts


def test_every_noun_phrase_is_an_untyped_candidate_without_generic_words(nlp):
    doc = before(nlp, "We study blorpic forgetting and the length wibbling of a novel method.", "kg_entities")
    recogniser = nlp.get_pipe("kg_entities")
    recogniser._blocked = set()
    found = {(doc[c.start:c.end].text, c.label, c.source) for c in recogniser._noun_phrases(doc)}
    assert found == {("blorpic forgetting", None, "np"), ("length wibbling", None, "np")}


@pytest.mark.parametrize("text", [
    "We propose a novel framework for tabular learning.",
    "We propose a new algorithm for tabular learning.",
    "We propose to study the effect of noise.",
])
def test_a_kind_word_alone_is_not_an_introduced_name(nlp, text):
    doc = before(nlp, text, "kg_entities")
    assert list(nlp.get_pipe("kg_entities")._introduced_phrases(doc)) == []


def test_the_kind_word_after_a_coined_name_is_not_part_of_it(nlp):
    doc = annotate(nlp, "We propose the ZorbBoost algorithm for learning from aggregate plonks. ZorbBoost is fast.")
    assert {s.text for s in doc.spans["kg_entities"]} == {"ZorbBoost"}


def test_a_name_at_the_head_of_an_introduced_phrase_stays_the_name(nlp):
    picked = {t for t, _ in chosen(nlp, "Furthermore, we design a neural QuorbNet in the hyperbolic space.")}
    assert "QuorbNet" in picked and "neural QuorbNet" not in picked, picked


def test_a_lower_case_definition_the_recogniser_types_is_not_blocked(nlp):
    from spacy.tokens import Span

    from kg.extract.entities import PRIORITY_DEFINED, Candidate

    doc = before(nlp, "We introduce drift-encoded neural operators (dreNOs), a suite of operators for flows.",
                 "kg_learned_entities")
    short = next(t for t in doc if t.text == "dreNOs")
    recogniser = nlp.get_pipe("kg_entities")
    recogniser._blocked = set()
    doc.spans["kg_learned"] = []
    assert list(recogniser._defined(doc)) == [] and "dreNOs" in recogniser._blocked
    doc.spans["kg_learned"] = [Span(doc, short.i, short.i + 1, label="Method")]
    recogniser._blocked = set()
    found = list(recogniser._defined(doc))
    assert Candidate(short.i, short.i + 1, "Method", PRIORITY_DEFINED) in found and "dreNOs" not in recogniser._blocked


def test_capitalised_words_before_a_dataset_word_name_one_dataset(nlp):
    picked = dict(chosen(nlp, "We test on the Brisk Quarry Arena benchmark and the Dapple and Vole Maze suites."))
    assert picked.get("Brisk Quarry Arena") == "Dataset", picked
    assert "Arena" not in picked and "Quarry Arena" not in picked


@pytest.mark.parametrize("text, label, name", [
    ("We test on the Plinkset benchmark today.", "Dataset", "Plinkset"),
    ("We solve the Quarry Dapple problem today.", "Task", "Quarry Dapple"),
    ("We test on the Brisk Quarry Dataset today.", "Dataset", "Brisk Quarry Dataset"),
    ("We solve the Quarry Dapple Problem today.", "Task", "Quarry Dapple Problem"),
])
def test_a_kind_word_goes_unless_the_name_capitalises_it(nlp, text, label, name):
    from kg.extract.entities import PRIORITY_NAME, Candidate

    doc = before(nlp, text, "kg_entities")
    start = next(t.i for t in doc if t.lower_ == "the") + 1
    candidate = Candidate(start, len(doc) - 2, label, PRIORITY_NAME)  # the name and its kind word
    nlp.get_pipe("kg_entities")._without_kind_word(doc, candidate)
    assert doc[candidate.start:candidate.end].text == name


def test_a_catalogue_dataset_keeps_its_name_before_common_words(nlp):
    picked = dict(chosen(nlp, "Our model reaches 91% accuracy on the GSM8K arithmetic benchmark."))
    assert picked.get("GSM8K") == "Dataset", picked
    assert "GSM8K arithmetic" not in picked


def test_a_name_given_after_a_naming_verb_keeps_its_conjunction(nlp):
    picked = chosen(nlp, "We introduce Swift and Lasting Memory, an algorithm-agnostic memory model.")
    assert any(text == "Swift and Lasting Memory" for text, _ in picked)


def test_an_acronym_glued_to_a_dash_stands_alone(nlp):
    doc = nlp("We propose a new algorithm---Dense Lattice Planning Agent (DLPAX)---for control tasks.")
    assert "DLPAX" in [t.text for t in doc]
    assert any(doc.text[s:e] == "DLPAX" for s, e, *_ in doc._.kg_abbreviations)


@pytest.mark.parametrize("name", ["Plorvex-27M", "QZV10K", "Trandel-4T"])
def test_a_count_unit_the_tokenizer_splits_off_stays_in_the_name(nlp, name):
    doc = nlp(f"We collect a corpus, {name}, with 12M pairs.")
    assert name not in [t.text for t in doc]  # spaCy splits the unit off the digits
    names = [text for text, _ in chosen(nlp, doc.text)]
    assert name in names and "12M" not in names


def test_relations_pair_every_proposed_method_with_later_sentences(nlp):
    from spacy.tokens import Span

    from kg.extract.relations import main_proposals, pair_candidates

    doc = nlp.make_doc("We propose Quibblex and Zorbnet. Experiments on Plonk-Bench show gains.")
    quibblex, zorbnet = Span(doc, 2, 3, label="Method"), Span(doc, 4, 5, label="Method")
    bench = Span(doc, 8, 11, label="Dataset")
    assert bench.text == "Plonk-Bench"
    doc[6].is_sent_start = True
    mains = main_proposals([quibblex, zorbnet], limit=2)
    assert [m.text for m in mains] == ["Quibblex", "Zorbnet"]
    virtual = {(a.text, b.text) for a, b, _, v in pair_candidates(doc, [quibblex, zorbnet, bench], mains) if v}
    assert virtual == {("Quibblex", "Plonk-Bench"), ("Zorbnet", "Plonk-Bench")}
    assert [m.text for m in main_proposals([quibblex, zorbnet], limit=1)] == ["Quibblex"]


def test_the_main_proposal_is_the_one_the_title_names_else_the_one_named_most(nlp):
    from spacy.tokens import Span

    from kg.extract.relations import main_proposals

    doc = nlp.make_doc("We introduce Quibblex, a part of Zorbnet. Zorbnet beats baselines on Plonk-Bench.")
    quibblex, zorbnet, again = (Span(doc, 2, 3, label="Method"), Span(doc, 7, 8, label="Method"),
                                Span(doc, 9, 10, label="Method"))
    assert [quibblex.text, zorbnet.text, again.text] == ["Quibblex", "Zorbnet", "Zorbnet"]
    proposed = [quibblex, zorbnet, again]
    assert [m.text for m in main_proposals(proposed, 1)] == ["Quibblex"]  # no doc: first named
    assert [m.text for m in main_proposals(proposed, 1, doc)] == ["Zorbnet"]  # named twice
    doc._.kg_title = "Quibblex: Faster Parts for Big Models"
    assert [m.text for m in main_proposals(proposed, 2, doc)] == ["Quibblex", "Zorbnet"]
    doc._.kg_title = "Quibblexity of Big Models"  # a word of the title, not the name
    assert [m.text for m in main_proposals(proposed, 1, doc)] == ["Zorbnet"]


def test_a_coined_name_is_the_main_proposal_before_a_phrase_the_title_names(nlp):
    from spacy.tokens import Span

    from kg.extract.relations import main_proposals

    doc = nlp.make_doc("We propose a quorbic propagation framework, called QPVS. QPVS is fast.")
    phrase, name = Span(doc, 3, 5, label="Method"), Span(doc, 8, 9, label="Method")
    assert [phrase.text, name.text] == ["quorbic propagation", "QPVS"]
    doc._.kg_title = "Quorbic Propagation for Fast Video Segmentation"
    assert [m.text for m in main_proposals([phrase, name], 1, doc)] == ["QPVS"]
    assert [m.text for m in main_proposals([phrase], 1, doc)] == ["quorbic propagation"]


def test_a_variant_the_entity_decision_left_out_is_added_to_the_proposal(nlp):
    from spacy.tokens import Span

    from kg.extract.proposals import ProposalFinder

    doc = nlp.make_doc("We propose ZetRise, which presents the ZetRise-S objective and ZetRise-R loss.")
    base = Span(doc, 2, 3, label="Method")
    entities, proposed = ProposalFinder._with_unlisted_variants(doc, [base], {0: None})
    assert [(e.text, e.label_) for e in entities] == [("ZetRise", "Method"), ("ZetRise-S", "Method"),
                                                      ("ZetRise-R", "Method")]
    assert sorted(proposed) == [0, 1, 2]


def test_a_word_coined_where_an_abstract_names_something_is_an_entity(nlp):
    doc = annotate(nlp, "Zugatto is a versatile audio synthesis and transformation model capable of "
                        "following free-form text instructions.")
    assert "Zugatto" in {text for text, _ in entities(doc)}


def test_a_variant_of_a_name_is_a_relation_feature(nlp):
    from spacy.tokens import Span

    from kg.extract.relations import pair_features

    doc = nlp.make_doc("Two instantiations, ZORB-SSL and TE-ZORB, build on ZORB and on Plinko.")
    doc[0].is_sent_start = True
    ssl, te, base, other = (Span(doc, *ij, label="Method") for ij in ((3, 6), (7, 10), (13, 14), (16, 17)))
    assert [s.text for s in (ssl, te, base, other)] == ["ZORB-SSL", "TE-ZORB", "ZORB", "Plinko"]
    sent = doc[:]
    assert "a_variant_of_b|Method>Method" in pair_features(doc, ssl, base, sent, False, set())
    assert "a_variant_of_b|Method>Method" in pair_features(doc, te, base, sent, False, set())
    assert "b_variant_of_a|Method>Method" in pair_features(doc, base, te, sent, False, set())
    assert not any("variant_of" in f for f in pair_features(doc, ssl, other, sent, False, set()))


def test_a_pair_of_names_is_decided_once_on_all_its_sentences(nlp):
    from spacy.tokens import Span

    from kg.extract.relations import pair_bags, pair_features

    doc = nlp.make_doc("We propose Zorbnet. Zorbnet uses Quibblex. Quibblex helps Zorbnet on Plonk-Bench.")
    for i in (4, 8):
        doc[i].is_sent_start = True
    zorbnet, again, quibblex, quibblex2, third, bench = (
        Span(doc, *ij, label=label) for ij, label in (((2, 3), "Method"), ((4, 5), "Method"), ((6, 7), "Method"),
                                                      ((8, 9), "Method"), ((10, 11), "Method"), ((12, 15), "Dataset")))
    assert [s.text for s in (zorbnet, again, quibblex, quibblex2, third, bench)] == [
        "Zorbnet", "Zorbnet", "Quibblex", "Quibblex", "Zorbnet", "Plonk-Bench"]
    bags = {(b.subject.text, b.object.text): b
            for b in pair_bags(doc, [zorbnet, again, quibblex, quibblex2, third, bench], [zorbnet], {(10, 17)})}
    uses = bags[("Zorbnet", "Quibblex")]  # written together in two sentences
    assert uses.direct == "uses" and uses.sentence.text == "Zorbnet uses Quibblex."
    first, second = doc[4:8], doc[8:16]
    assert set(pair_features(doc, again, quibblex, first, False, {(10, 17)})) <= set(uses.features)
    assert set(pair_features(doc, third, quibblex2, second, False, {(10, 17)})) <= set(uses.features)
    assert {"sentences=2", "local=2"} <= set(uses.features)
    bench_bag = bags[("Zorbnet", "Plonk-Bench")]
    assert bench_bag.direct is None and bench_bag.sentence.text == second.text
    assert {"sentences=1", "local=1"} <= set(bench_bag.features)


def test_a_list_of_names_takes_the_first_named_of_two_equally_common_types(nlp):
    from kg.extract.entities import PRIORITY_NAME, Candidate

    doc = nlp.make_doc("We test Quibblex, Zorbnet and Plonkit on three tasks.")
    recognizer = nlp.get_pipe("kg_entities")
    for first, second in (("Task", "Method"), ("Method", "Task")):
        group = [Candidate(2, 3, first, PRIORITY_NAME), Candidate(4, 5, second, PRIORITY_NAME),
                 Candidate(6, 7, None, PRIORITY_NAME)]
        recognizer._type_list(doc, group, known_before=set())
        assert group[2].label == first  # the same whatever the order of a set in this process


def test_the_entity_decision_tells_later_decisions_its_doubt(nlp):
    from spacy.tokens import Span

    from kg.extract.entities.component import DOUBT
    from kg.extract.proposals import proposal_features
    from kg.extract.relations import pair_features
    from kg.extract.vocabulary import default_vocabulary

    doc = annotate(nlp, "We propose Zorblat, a novel framework. Zorblat outperforms U-Net on the Plinkset benchmark.")
    doubts = doc.user_data[DOUBT]
    kept = doc.spans["kg_entities"]
    assert kept and all(0.0 <= doubts[(s.start, s.end)] < 0.6 for s in kept)  # the threshold of default.cfg

    made = nlp.make_doc("Zorblat outperforms Plinko.")
    for token in made:
        token.is_sent_start = token.i == 0
    zorblat, plinko = Span(made, 0, 1, label="Method"), Span(made, 2, 3, label="Method")
    made.user_data[DOUBT] = {(0, 1): 0.05, (2, 3): 0.5}
    features = pair_features(made, zorblat, plinko, made[:], False, set())
    assert {"a_doubt=0", "b_doubt=5+"} <= set(features)  # in tenths
    assert "doubt=5+" in proposal_features(made, [zorblat, plinko], [1], {}, default_vocabulary())
    del made.user_data[DOUBT]
    assert not any("doubt" in f for f in pair_features(made, zorblat, plinko, made[:], False, set()))


def test_a_variant_of_a_name_is_a_relation_candidate_wherever_the_two_are_written(nlp):
    from spacy.tokens import Span

    from kg.extract.relations import pair_candidates, pair_features

    doc = nlp.make_doc("We study quorbic descent. Sparse quorbic descent converges on Plonk-Bench.")
    doc[5].is_sent_start = True
    base, kind, bench = (Span(doc, 2, 4, label="Method"), Span(doc, 5, 8, label="Method"),
                         Span(doc, 10, 13, label="Dataset"))
    assert [s.text for s in (base, kind, bench)] == ["quorbic descent", "Sparse quorbic descent", "Plonk-Bench"]
    candidates = {(a.text, b.text, virtual) for a, b, _, virtual in pair_candidates(doc, [base, kind, bench], [])}
    assert ("Sparse quorbic descent", "quorbic descent", True) in candidates  # two sentences apart
    assert ("quorbic descent", "Sparse quorbic descent", True) not in candidates  # the kind is the subject
    assert ("quorbic descent", "Plonk-Bench", True) not in candidates  # not a variant of each other
    assert "a_variant_of_b|Method>Method" in pair_features(doc, kind, base, doc[:5], True, set())


def test_and_for_and_with_join_plain_capitalised_words_only(nlp):
    picked = {text for text, _ in chosen(nlp, "To scale further, we propose a more suitable ZRB for QDG to reduce "
                                              "the cost of each iteration.")}
    assert "ZRB for QDG" not in picked and {"ZRB", "QDG"} <= picked
    picked = {text for text, _ in chosen(nlp, "We propose Robust Planning for Sparse Rewards, a new method.")}
    assert "Robust Planning for Sparse Rewards" in picked
    picked = {text for text, _ in chosen(nlp, "We propose ZorbRainbow and ZorbRainbow-Exp, which beat the baselines.")}
    assert "ZorbRainbow and ZorbRainbow-Exp" not in picked


def test_a_run_a_short_form_defines_stays_whole_across_for_and_with(nlp):
    picked = {text for text, _ in chosen(nlp, "At the heart of our approach is a framework, the QFL with Zorblat "
                                              "Divergence (qFedZoD), that decouples the prior.")}
    assert "QFL with Zorblat Divergence" in picked


@pytest.mark.parametrize("text, name", [
    ("To address these challenges, we propose the Zorb4Tools based on self-instruct to enable open LLMs to use "
     "tools.", "Zorb4Tools"),
    ("We showcase these algorithms in Plinkos — a decentralized system that serves BLOOM over the Internet.",
     "Plinkos"),
])
def test_a_coined_name_of_any_shape_in_a_naming_slot_stays(nlp, text, name):
    assert name in {text for text, _ in entities(annotate(nlp, text))}


def test_names_listed_with_a_name_the_context_makes_a_dataset_are_datasets(nlp):
    """``evaluation on HM3D and Zorbnav``: the context types the first a Dataset (evaluated on it),
    and the name listed with it is one too, though no catalogue or description says so."""
    from kg.extract.entities import PRIORITY_NAME, Candidate

    doc = annotate(nlp, "Extensive evaluation on Plonkset and Zorbnav validates our agent.")
    recognizer = nlp.get_pipe("kg_entities")
    first = Candidate(3, 4, "Dataset", PRIORITY_NAME, source="name")
    second = Candidate(5, 6, "Method", PRIORITY_NAME, source="name")
    recognizer._type_list(doc, [first, second], known_before={id(second)})
    assert second.label == "Dataset"


def test_a_dataset_the_paper_collects_is_its_proposal(nlp):
    """``we collect X, a corpus``, ``we compiled X``: datasets are collected or compiled, not only
    introduced."""
    doc = nlp("Writing assistants rarely see drafts. We collect CoDraft, a corpus of 12k annotated drafts. "
              "Models trained on CoDraft improve revision quality.")
    assert {(s.text, s.label_) for s in doc.spans["kg_proposed"]} == {("CoDraft", "Dataset")}


@pytest.mark.parametrize("separator", ["---", ", "])
def test_an_acronym_set_apart_after_a_description_called_new_is_proposed(nlp, separator):
    """``we propose a novel ... algorithm---Long Form (ACR)---for ...``: the long form is no entity
    and the proposing verb stands far before the acronym; the paper still names its own."""
    closing = "---" if separator == "---" else ", "
    doc = nlp("Parameterized action spaces are hard. We propose a novel model-based reinforcement learning "
              f"algorithm{separator}Zorbic Learning and plonk control with Quibbled Actions (ZLQA){closing}for "
              "such spaces. It needs fewer samples than Model Predictive Path Integral control.")
    assert "ZLQA" in {s.text for s in doc.spans["kg_proposed"]}
    doc = nlp("Parameterized action spaces are hard. Earlier work studied model-based reinforcement learning "
              f"algorithms{separator}Zorbic Learning and plonk control with Quibbled Actions (ZLQA){closing}for "
              "such spaces. We propose Plinkrow, which needs fewer samples.")
    assert "ZLQA" not in {s.text for s in doc.spans["kg_proposed"]}


def test_a_prefixed_variant_of_a_proposal_is_proposed(nlp):
    """``pFedLMT`` of a proposed ``FedLMT`` (``cf-ASE`` of ``ASE``): the variant is the paper's too."""
    doc = nlp("We propose FedLMT, a federated learning framework. We further extend it to pFedLMT for "
              "personalization. Experiments show pFedLMT and FedLMT outperform FedAvg.")
    assert {s.text for s in doc.spans["kg_proposed"]} == {"FedLMT", "pFedLMT"}


def test_a_paper_proposing_nothing_relates_the_method_its_title_names(nlp):
    from spacy.tokens import Span

    from kg.extract.relations import focus_subject, pair_bags

    doc = nlp.make_doc("Quorbic descent is popular. We bound its error on Plonk-Bench for zorb ranking.")
    doc[4].is_sent_start = True
    doc._.kg_title = "On the Convergence of Quorbic Descent"
    method, bench, task = (Span(doc, 0, 2, label="Method"), Span(doc, 10, 13, label="Dataset"),
                           Span(doc, 14, 16, label="Task"))
    assert [s.text for s in (method, bench, task)] == ["Quorbic descent", "Plonk-Bench", "zorb ranking"]
    assert focus_subject(doc, [method, bench, task]) is method
    bags = {(b.subject.text, b.object.text): b for b in pair_bags(doc, [method, bench, task], [], set(), method)}
    assert {"a_focus", "a_focus|Method>Dataset", "virtual"} <= set(bags[("Quorbic descent", "Plonk-Bench")].features)
    assert not any("a_focus" in f for b in pair_bags(doc, [method, bench, task], [], set()) for f in b.features)
    doc._.kg_title = "On the Convergence of Sparse Rankers"  # the title names none of them: no focus
    assert focus_subject(doc, [method, bench, task]) is None
    llm = nlp.make_doc("Large language models rank well.")
    llm._.kg_title = "Large Language Models Learn Zorb Ranking"
    assert focus_subject(llm, [Span(llm, 0, 3, label="Method")]) is None  # a generic class is no focus


def test_the_focus_is_the_titles_whole_name_not_one_inside_it(nlp):
    from spacy.tokens import Span

    from kg.extract.relations import focus_subject

    doc = nlp.make_doc("Zorb passing is fast. Convex zorb passing uses zorb passing and zorb passing again.")
    doc._.kg_title = "Convergence of Convex Zorb Passing Algorithms"
    inner = [Span(doc, 0, 2, label="Method"), Span(doc, 9, 11, label="Method"), Span(doc, 12, 14, label="Method")]
    whole = Span(doc, 5, 8, label="Method")
    assert [s.text for s in (*inner, whole)] == ["Zorb passing", "zorb passing", "zorb passing", "Convex zorb passing"]
    assert focus_subject(doc, [*inner, whole]) is whole


def test_an_abstract_without_a_title_studies_the_method_it_names_most(nlp):
    from spacy.tokens import Span

    from kg.extract.relations import focus_subject

    doc = nlp.make_doc("Quorbic descent is popular. We bound quorbic descent and plink search on Zorb-Bench.")
    doc._.kg_title = ""
    quorbic, again, plink = (Span(doc, 0, 2, label="Method"), Span(doc, 7, 9, label="Method"),
                             Span(doc, 10, 12, label="Method"))
    assert [s.text for s in (quorbic, again, plink)] == ["Quorbic descent", "quorbic descent", "plink search"]
    assert focus_subject(doc, [quorbic, again, plink]) is quorbic
    assert focus_subject(doc, [quorbic, plink]) is None  # named once each: no focus


def test_the_focus_stands_in_only_for_a_missing_proposal(nlp):
    finder = nlp.get_pipe("kg_relations")
    doc = annotate(nlp, "Quorbic descent is popular. We bound its error on the Plonk-Bench benchmark.",
                   title="On the Convergence of Quorbic Descent")
    assert any("a_focus" in bag.features for bag in finder.bags(doc))
    doc = annotate(nlp, "We propose Zorblat, a novel sampler. Zorblat beats quorbic descent on the Plonk-Bench "
                        "benchmark.", title="On the Convergence of Quorbic Descent")
    assert {s.text for s in doc.spans["kg_proposed"]} == {"Zorblat"}
    assert not any("a_focus" in bag.features for bag in finder.bags(doc))


def test_a_generic_class_is_no_subject_of_relations(nlp):
    from spacy.tokens import Span

    doc = before(nlp, "Large language models (LLMs) outperform Zorblat. Quorbnet outperforms Zorblat.", "kg_relations")
    llm, acronym, zorblat, quorbnet, again = (Span(doc, i, j, label="Method") for i, j in
                                              ((0, 3), (4, 5), (7, 8), (9, 10), (11, 12)))
    assert [s.text for s in (llm, acronym, zorblat, quorbnet, again)] == [
        "Large language models", "LLMs", "Zorblat", "Quorbnet", "Zorblat"]
    doc.spans["kg_entities"] = [llm, acronym, zorblat, quorbnet, again]
    doc.spans["kg_proposed"] = []
    doc = nlp.get_pipe("kg_relations")(doc)
    stated = {(doc.text[s:e], predicate, doc.text[os:oe]) for s, e, predicate, os, oe, *_ in doc._.kg_relations}
    assert stated == {("Quorbnet", "compared_with", "Zorblat")}  # nothing from LLMs, the acronym of a generic class


def test_a_catalogued_model_inside_a_coined_name_does_not_cut_it_short(nlp):
    names = {text for text, _ in entities(annotate(nlp, "To this end, we present Zorbing PointNet, the first "
                                                        "spiking model for deep learning on point clouds."))}
    assert "Zorbing PointNet" in names and "PointNet" not in names
    names = {text for text, _ in entities(annotate(nlp, "We compare against fine-tuned BERT on GLUE."))}
    assert "BERT" in names


def test_a_task_a_repository_is_named_after_is_not_proposed():
    from spacy.tokens import Span

    from kg.extract.proposals import _names_the_code

    doc = spacy.blank("en")("We benchmark offline MOO methods.")
    assert not _names_the_code(Span(doc, 2, 4, label="Task"), {"offlinemoo"})
    assert _names_the_code(Span(doc, 2, 4, label="Method"), {"offlinemoo"})


@pytest.mark.parametrize("repository, proposed", [("someone/zorbplan", True), ("someone/other-tool", False)])
def test_the_name_of_the_code_repository_is_the_papers_own(nlp, repository, proposed):
    doc = annotate(nlp, "Device placement is hard. We co-optimise the architecture and the placement with an "
                        f"integer program. The entire source code of ZORBPLAN is available at https://github.com/{repository}.")
    assert ("ZORBPLAN", "Method") in entities(doc)
    assert ({s.text for s in doc.spans["kg_proposed"]} == {"ZORBPLAN"}) is proposed


def test_a_link_to_a_catalogued_library_proposes_nothing():
    from spacy.tokens import Span

    from kg.extract.proposals import _names_the_code

    doc = spacy.blank("en")("We build on BERT from github.com/google-research/bert.")
    assert not _names_the_code(Span(doc, 3, 4, label="Model", kb_id="model:bert"), {"bert"})
    assert _names_the_code(Span(doc, 3, 4, label="Model"), {"bert"})


@pytest.mark.parametrize("text, name", [
    ("To address this issue, we introduce ZorbBench, a standardized evaluation framework for red teaming.",
     "ZorbBench"),
    ("We propose Plonk-RBench, the first comprehensive assessment of sparse expert reliability.", "Plonk-RBench"),
])
def test_a_name_ending_in_bench_is_a_benchmark(nlp, text, name):
    assert (name, "Dataset") in entities(annotate(nlp, text))


def test_bench_names_a_benchmark_but_not_a_workbench():
    from kg.extract.entities.context_types import BENCH_NAME

    assert all(BENCH_NAME.search(n) for n in ("ZorbBench", "Plonk-RBench", "SWE-bench", "MT-Bench"))
    assert not any(BENCH_NAME.search(n) for n in ("workbench", "Testbench", "Bench"))


def test_a_pair_reads_how_the_training_annotation_relates_its_names(nlp):
    """``zorb ranking``, related as an applied_to object in 4 of the 5 training abstracts that
    annotate it; ``Quorbic descent`` annotated in 3, related as a subject in none; ``Plonk-Bench``
    in no table."""
    from spacy.tokens import Span

    from kg.extract.lexicons import term_key
    from kg.extract.models import AnnotatedName
    from kg.extract.relations import pair_bags

    doc = nlp.make_doc("We propose Quorbic descent. It is evaluated on Plonk-Bench for zorb ranking.")
    doc[5].is_sent_start = True
    method, bench, task = (Span(doc, 2, 4, label="Method"), Span(doc, 9, 12, label="Dataset"),
                           Span(doc, 13, 15, label="Task"))
    assert [s.text for s in (method, bench, task)] == ["Quorbic descent", "Plonk-Bench", "zorb ranking"]
    table = {term_key("zorb ranking"): AnnotatedName(6, 5, "Task", 4, "applied_to", 0),
             term_key("Quorbic descent"): AnnotatedName(3, 3, "Method", 0, "", 0)}
    bags = {(b.subject.text, b.object.text): set(b.features)
            for b in pair_bags(doc, [method, bench, task], [method], {(11, 26)}, annotated=table)}
    assert {"b_related=>=0.8", "b_related_as=applied_to", "b_related_as=applied_to|>=0.8",
            "a_related=<0.2"} <= bags[("Quorbic descent", "zorb ranking")]
    assert {"b_related=none", "a_related=<0.2"} <= bags[("Quorbic descent", "Plonk-Bench")]
    plain = {(b.subject.text, b.object.text): set(b.features) for b in pair_bags(doc, [method, bench, task], [method], {(11, 26)})}
    assert not any("related" in f for f in plain[("Quorbic descent", "zorb ranking")])
