"""The shipped catalogue lexicons (``kg/extract/lexicons``) and the script that builds them."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
import spacy

from kg.extract.lexicons import LABELS, catalogue_path, load_catalogue_names, names_path, patterns
from kg.ids import name_key

ROOT = Path(__file__).resolve().parents[2]
LEXICONS = ROOT / "kg" / "extract" / "lexicons"
SCRIPT = ROOT / "scripts" / "build_lexicons.py"
DATA = ROOT.parent / "shared" / "data"  # as laid out for developers and CI
PREFIX = {
    "Dataset": "pwc:dataset:",
    "Metric": "pwc:metric:",
    "Task": "pwc:task:",
    "Model": "model:",
}

needs_data = pytest.mark.skipif(
    not (DATA / "pwc_sota_leaderboards" / "annotations.jsonl.gz").exists()
    or not (DATA / "nlp_progress_sota" / "nlp-progress.json").exists(),
    reason=f"source data not found under {DATA}",
)


@pytest.fixture(scope="module")
def ruler_nlp():
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe(
        "span_ruler", config={"phrase_matcher_attr": "LOWER", "spans_key": "kg_catalogue"}
    )
    ruler.add_patterns(list(patterns()))
    return nlp


@pytest.fixture(scope="module")
def names() -> dict[str, dict]:
    return load_catalogue_names()


def spans(nlp, text: str) -> set[tuple[str, str, str]]:
    doc = nlp(text)
    return {(s.text, s.label_, s.id_) for s in doc.spans["kg_catalogue"]}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We evaluate on CIFAR10 and ImageNet with top-1 accuracy.",
            {
                ("CIFAR10", "Dataset", "pwc:dataset:cifar-10"),
                ("ImageNet", "Dataset", "pwc:dataset:imagenet"),
                ("top-1 accuracy", "Metric", "pwc:metric:top-1-accuracy"),
                ("accuracy", "Metric", "pwc:metric:accuracy"),
            },
        ),
        (
            "Results on Cifar-10, CIFAR-10 and CIFAR 10 agree; CIFAR-100 is harder.",
            {
                ("Cifar-10", "Dataset", "pwc:dataset:cifar-10"),
                ("CIFAR-10", "Dataset", "pwc:dataset:cifar-10"),
                ("CIFAR 10", "Dataset", "pwc:dataset:cifar-10"),
                ("CIFAR-100", "Dataset", "pwc:dataset:cifar-100"),
            },
        ),
        (
            "Language Modelling and language modeling on WikiText-103 lower the perplexity.",
            {
                ("Language Modelling", "Task", "pwc:task:language-modelling"),
                ("language modeling", "Task", "pwc:task:language-modelling"),
                ("WikiText-103", "Dataset", "pwc:dataset:wikitext-103"),
                ("perplexity", "Metric", "pwc:metric:perplexity"),
            },
        ),
        (
            "Node classification on Cora and PubMed with GCN; link prediction on ogbn-arxiv.",
            {
                ("Node classification", "Task", "pwc:task:node-classification"),
                ("Cora", "Dataset", "pwc:dataset:cora"),
                ("PubMed", "Dataset", "pwc:dataset:pubmed"),
                ("GCN", "Model", "model:gcn"),
                ("link prediction", "Task", "pwc:task:link-prediction"),
                ("ogbn-arxiv", "Dataset", "pwc:dataset:ogbn-arxiv"),
            },
        ),
        (
            "GPT-4o beats Llama 2 and Mistral-7B on GSM8K, MATH and MMLU in pass@1.",
            {
                ("GPT-4o", "Model", "model:gpt-4o"),
                ("Llama 2", "Model", "model:llama-2"),
                ("Mistral-7B", "Model", "model:mistral-7b"),
                ("GSM8K", "Dataset", "pwc:dataset:gsm-8k"),
                ("MATH", "Dataset", "pwc:dataset:math"),
                ("MMLU", "Dataset", "pwc:dataset:mmlu"),
                ("pass@1", "Metric", "pwc:metric:pass-k"),
            },
        ),
        (
            "RoBERTa fine-tuned on SQuAD 2.0 reaches 90 F1, and BLEU rises for machine translation.",
            {
                ("RoBERTa", "Model", "model:roberta"),
                ("SQuAD 2.0", "Dataset", "pwc:dataset:squad-2-0"),
                ("F1", "Metric", "pwc:metric:f-1"),
                ("BLEU", "Metric", "pwc:metric:bleu"),
                ("machine translation", "Task", "pwc:task:machine-translation"),
            },
        ),
        (
            "Fashion-MNIST, FashionMNIST and MS COCO are image datasets; Recall@10 and R@1 are metrics.",
            {
                ("Fashion-MNIST", "Dataset", "pwc:dataset:fashion-mnist"),
                ("FashionMNIST", "Dataset", "pwc:dataset:fashion-mnist"),
                ("MS COCO", "Dataset", "pwc:dataset:coco"),
                ("Recall@10", "Metric", "pwc:metric:recall-k"),
                ("R@1", "Metric", "pwc:metric:recall-k"),
            },
        ),
    ],
)
def test_lexicons_match_catalogue_names(ruler_nlp, text, expected):
    assert expected <= spans(ruler_nlp, text)


@pytest.mark.parametrize(
    "text",
    [
        "we do the math and find the jobs in general",
        "in spring the shelf on the platform holds the cars",
        "the average score and the error on the test set",
        "we train with SGD and an LSTM; the AI uses a CNN",
        "a bloom of falcons and an orca near the palm",
        "we fit the mixture with the EM algorithm and a MAP estimate",
    ],
)
def test_lexicons_case_sensitive_entries_skip_common_words(ruler_nlp, text):
    assert spans(ruler_nlp, text) == set()


@pytest.mark.parametrize(
    ("text", "entity_id"),
    [("We report results on MATH.", "pwc:dataset:math"), ("OPT and BLOOM are open.", "model:opt")],
)
def test_lexicons_case_sensitive_entries_match_their_case(ruler_nlp, text, entity_id):
    assert entity_id in {s[2] for s in spans(ruler_nlp, text)}


def test_lexicons_patterns_are_well_formed(names):
    count = 0
    for pattern in patterns():
        count += 1
        assert set(pattern) == {"label", "pattern", "id"}
        assert pattern["label"] in LABELS
        assert pattern["id"].startswith(PREFIX[pattern["label"]])
        assert pattern["id"] in names
        assert names[pattern["id"]]["label"] == pattern["label"]
        body = pattern["pattern"]
        assert (isinstance(body, str) and body.strip()) or (
            isinstance(body, list) and body and all(isinstance(t, dict) for t in body)
        )
    assert count > 1000


def test_lexicons_names_are_consistent(names):
    assert {entry["label"] for entry in names.values()} == set(LABELS)
    for entity_id, entry in names.items():
        assert entry["id"] == entity_id
        assert entity_id == PREFIX[entry["label"]] + name_key(entry["name"])
        assert entry["source"]
        assert entry["name"] not in entry["aliases"]
        assert entry["aliases"] == sorted(set(entry["aliases"]), key=lambda a: (a.lower(), a))


def test_lexicons_every_entry_has_a_pattern(names):
    matched = {p["id"] for p in patterns()}
    assert set(names) == matched


def test_lexicons_files_are_small_and_found():
    assert catalogue_path().is_file() and names_path().is_file()
    for path in (catalogue_path(), names_path()):
        assert path.stat().st_size < 3_000_000


@pytest.mark.parametrize("filename", ["datasets.tsv", "metrics.tsv", "models.tsv"])
def test_lexicons_curated_rows_have_sources(filename):
    with (LEXICONS / filename).open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if line.strip() and not line.startswith("#")]
    rows = list(csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    assert rows[0][:3] == ["name", "aliases", "source"]
    body = rows[1:]
    assert body and all(len(row) >= 3 and row[0].strip() and row[2].strip() for row in body)
    keys = [name_key(row[0]) for row in body]
    assert len(keys) == len(set(keys))


def test_lexicons_models_list_well_known_releases(names):
    models = {entry["name"] for entry in names.values() if entry["label"] == "Model"}
    assert {"GPT-4", "BERT", "Llama 2", "CLIP", "ResNet-50", "wav2vec 2.0", "AlphaFold"} <= models
    # beyond text: robotics, weather, proteins, speech, video
    assert {"RT-2", "GraphCast", "ProteinMPNN", "WavLM", "VideoPoet"} <= models


def test_lexicons_list_well_known_benchmarks_of_every_field(names):
    datasets = {entry["name"] for entry in names.values() if entry["label"] == "Dataset"}
    # reinforcement learning, robotics, 3D vision, molecules, fairness and shift, long context, safety
    assert {"MuJoCo", "Procgen", "Meta-World", "Tanks and Temples", "MD17", "Waterbirds", "DomainBed",
            "Long Range Arena", "HarmBench", "Atari 100k"} <= datasets
    metrics = {entry["name"] for entry in names.values() if entry["label"] == "Metric"}
    # learning theory, fairness, probabilistic modelling, proteins, text generation
    assert {"Regret", "Sample Complexity", "Demographic Parity", "ELBO", "TM-score", "MAUVE"} <= metrics


@pytest.mark.parametrize(
    "text",
    ["the quality of the crafter's ruler", "Alfred and Calvin read the gaia chapter"],
)
def test_lexicons_curated_words_match_only_as_written(ruler_nlp, text):
    assert spans(ruler_nlp, text) == set()


def _build(out: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--data",
            str(DATA),
            "--out",
            str(out),
            "--curated",
            str(LEXICONS),
        ],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )


@needs_data
def test_lexicons_build_is_deterministic_and_shipped(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    _build(first)
    _build(second)
    for name in ("catalogue.jsonl", "catalogue_names.jsonl"):
        built = (first / name).read_bytes()
        assert built == (second / name).read_bytes()
        assert built == (LEXICONS / name).read_bytes(), f"{name} is stale: rerun the build script"
        for line in built.decode("utf-8").splitlines():
            json.loads(line)


def test_catalogue_patterns_use_no_regex():
    """Catalogue matching runs at phrase speed: a REGEX token pattern is tested on every
    token of every text (eight of them cost 12% of extraction), a phrase or IN list is not."""
    for pattern in patterns():
        assert "REGEX" not in json.dumps(pattern["pattern"]), pattern["id"]


def test_catalogue_rulers_hold_phrases_only():
    """Both rulers look names up (a phrase matcher); no pattern is tried at every token."""
    from kg.extract.pipeline import catalogue_patterns

    for case in ("insensitive", "exact"):
        assert all(isinstance(p["pattern"], str) for p in catalogue_patterns(case)), case


@pytest.mark.parametrize("text, found", [
    ("We report Hits@10 and NDCG@k.", {("Hits@10", "pwc:metric:hits-k"), ("NDCG@k", "pwc:metric:ndcg-k")}),
    ("pass@1 rises, and so do R@5 and P@10.", {("pass@1", "pwc:metric:pass-k"), ("R@5", "pwc:metric:recall-k"),
                                               ("P@10", "pwc:metric:precision-k")}),
])
def test_metric_families_at_k_are_matched_as_phrases(nlp, text, found):
    doc = nlp(text)
    assert found <= {(s.text, s.id_) for s in doc.spans["kg_catalogue"]}


@pytest.mark.parametrize("text, short, entity_id", [
    ("Benchmarks like the Massive Multitask Language Understanding (MMLU) have been pivotal.", "MMLU",
     "pwc:dataset:mmlu"),
    ("We fine-tune on the General Language Understanding Evaluation (GLUE) benchmark.", "GLUE", "pwc:dataset:glue"),
    ("Results on the Stanford Question Answering Dataset (SQuAD) improve.", "SQuAD", "pwc:dataset:squad"),
])
def test_a_benchmark_defined_by_its_long_form_is_the_catalogue_entry(nlp, text, short, entity_id):
    """The curated long form (from the benchmark's own paper) is the entry too: the definition
    then reads as the benchmark, not as a method or task its words suggest."""
    from kg.extract.pipeline import extract_papers
    from kg.types import Paper, Source

    [record] = extract_papers([Paper("p", text, Source("test", 0))], nlp)
    [entity] = [e for e in record.entities if any(m.text == short for m in e.mentions)]
    assert (entity.type, entity.catalogue_id) == ("Dataset", entity_id)


@pytest.mark.parametrize("text, names", [
    ("We fine-tune T5-base and RoBERTa-large on SST-2.", {"T5-base", "RoBERTa-large"}),
    ("We use mT5-large and ByT5-small as backbones.", {"mT5-large", "ByT5-small"}),
])
def test_a_catalogued_model_keeps_its_release(nlp, text, names):
    """``-base``, ``-large``: the release of a catalogued model is part of its name (not a suffix
    like ``-based``), and the decision does not read ``large`` as what the name is."""
    doc = nlp(text)
    assert {(n, "Model") for n in names} <= {(s.text, s.label_) for s in doc.spans["kg_entities"]}


@pytest.mark.parametrize("text, names", [
    ("We fine-tune Stable Diffusion v1.5 and Stable Diffusion 2.1 on ScanNet V2.",
     {"Stable Diffusion v1.5", "Stable Diffusion 2.1", "ScanNet V2"}),
    ("We compare MoCo v3 with LLaVA-v1.5 and Claude v2.1 on AlpacaEval 2.0.",
     {"MoCo v3", "LLaVA-v1.5", "Claude v2.1", "AlpacaEval 2.0"}),
    ("Our model reaches 90.2 on MNLI and improves GSM8K by 7.5 points. By Theorem 2.1 it converges.",
     {"MNLI", "GSM8K"}),
])
def test_a_version_after_a_name_is_part_of_it(nlp, text, names):
    """The annotation keeps a dataset's or model's version (``AlpacaEval 2.0``); a bare number is a
    version only after a catalogued name, and not before a unit (``by 7.5 points``)."""
    doc = nlp(text)
    found = {s.text for s in doc.spans["kg_entities"]}
    assert names <= found and not any(n.endswith(("90.2", "7.5", "2.1")) and n not in names for n in found)


@pytest.mark.parametrize("text, name, label", [
    ("We find that XLM-R and mBERT fine-tuned on English data transfer poorly.", "XLM-R", "Model"),
    ("We evaluate GPT-4o, Claude 3 Opus and Mistral-7B-Instruct under zero-shot prompting.", "GPT-4o", "Model"),
    ("We propose a new robust MARL framework, ERNIE, that promotes the Lipschitz continuity of the "
     "policies. The ERNIE framework provides robustness against noisy observations.", "ERNIE", "Method"),
])
def test_a_released_model_in_the_catalogue_is_a_model(nlp, text, name, label):
    """A released model's catalogue name settles a close call on its type (``XLM-R``); a paper's own
    framework that shares a release's name keeps the type its context gives."""
    doc = nlp(text)
    assert (name, label) in {(s.text, s.label_) for s in doc.spans["kg_entities"]}


def test_architecture_families_are_marked_for_the_guidelines(names):
    """models.tsv's ``kind`` column: an architecture family (ResNet, ViT) is typed Method by the
    guidelines, a release (ResNet-50, GPT-4) Model; only releases settle a type."""
    kinds = {entry["name"]: entry.get("kind", "") for entry in names.values() if entry["label"] == "Model"}
    assert kinds["ResNet"] == kinds["ViT"] == kinds["U-Net"] == "method"
    assert kinds["ResNet-50"] == kinds["GPT-4"] == kinds["XLM-RoBERTa"] == ""


@pytest.mark.parametrize("text, names", [
    ("We evaluate on WMT14 En-De and WMT16 En-Ro.", {"WMT14 En-De", "WMT16 En-Ro"}),
    ("On the WMT14 English-German task, the model wins.", {"WMT14 English-German"}),
])
def test_a_translation_dataset_keeps_its_language_pair(nlp, text, names):
    """``WMT14 En-De`` is one dataset: a pair split off as a dataset of its own (``En-De``) would
    join every paper's pair into one node."""
    doc = nlp(text)
    assert {s.text for s in doc.spans["kg_entities"] if s.label_ == "Dataset"} == names


def test_datasets_written_as_one_slashed_name_are_each_an_entity(nlp):
    """``CIFAR-10/100`` is CIFAR-10 and CIFAR-100, each with its catalogue id and the relations
    of the name."""
    from kg.extract.pipeline import extract_papers
    from kg.types import Paper, Source

    text = "We propose Zorblat, a new optimizer. Zorblat improves accuracy on CIFAR-10/100 and ImageNet-1K."
    [record] = extract_papers([Paper("p", text, Source("test", 0))], nlp)
    datasets = {e.name: e.catalogue_id for e in record.entities if e.type == "Dataset"}
    assert datasets == {"CIFAR-10": "pwc:dataset:cifar-10", "CIFAR-100": "pwc:dataset:cifar-100",
                        "ImageNet-1K": "pwc:dataset:imagenet"}
    names = [e.name for e in record.entities]
    evaluated = {names[r.object] for r in record.relations if names[r.subject] == "Zorblat" and r.predicate == "evaluated_on"}
    assert {"CIFAR-10", "CIFAR-100"} <= evaluated


def test_models_written_as_one_slashed_name_are_each_an_entity(nlp):
    """``GPT-3/4`` is GPT-3 and GPT-4 (``LLaMA-1/-2``, ``LLaMA-V1/V2`` alike); ``ViT-B/16`` is one
    model, its patch size after the slash."""
    from kg.extract.pipeline import extract_papers
    from kg.types import Paper, Source

    text = ("We propose Zorblat, a new prompting method. Zorblat improves GPT-3/4 and LLaMA-V1/V2 on GSM8K, "
            "and ViT-B/16 on CIFAR-10.")
    [record] = extract_papers([Paper("p", text, Source("test", 0))], nlp)
    models = {e.name: e.catalogue_id for e in record.entities if e.type == "Model"}
    assert models == {"GPT-3": "model:gpt-3", "GPT-4": "model:gpt-4", "LLaMA-V1": None, "LLaMA-V2": None,
                      "ViT-B/16": None}
