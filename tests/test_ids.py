import pytest

from kg.ids import code_id, name_key, paper_id, singular_name


@pytest.mark.parametrize(
    "a, b",
    [
        ("CIFAR10", "CIFAR-10"),
        ("cifar 10", "CIFAR-10"),
        ("Graph Neural Networks", "graph neural network"),
        ("GNNs", "GNN"),
        ("LLMs", "llm"),
        ("Llama-2-70B", "Llama 2 70B"),
        ("GPT4o", "GPT-4o"),
        ("LoRA+", "lora+"),
        ("ViTs", "ViT"),
        ("DiTs", "DiT"),
        ("CNN+LSTM", "CNN-LSTM"),
        ("Schrödinger Bridge", "Schrodinger bridge"),  # papers write Latin accents or drop them
        ("Fréchet Inception Distance", "Frechet Inception Distance"),
        ("ResNets", "ResNet"),  # mixed case, but the field writes both (kg/extract/lexicons/plurals.tsv)
        ("U-Nets", "U-Net"),
        ("compression ratios", "compression ratio"),  # -os, yet a plural the field writes singular too
        ("lemmas", "lemma"),
    ],
)
def test_name_key_equates_variants(a, b):
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize("a, b", [("GPT-4", "GPT-4o"), ("AtSpeed-S", "AtSpeed-R"), ("corpus", "corpu"), ("LoRA+", "LoRA"),
                          ("PointNet++", "PointNet+"), ("PointNet++", "PointNet"),
                          ("NAS", "NA"), ("FCOS", "FCO"), ("Cityscapes", "Cityscape"),
                          ("Ελληνικά", "Ελληνικα")])  # accents of other scripts spell the word
def test_name_key_keeps_different_names_apart(a, b):
    assert name_key(a) != name_key(b)


@pytest.mark.parametrize(
    "name, singular",
    [("Graph Neural Networks", "Graph Neural Network"), ("LLMs", "LLM"), ("corpus", "corpus"),
     ("analysis", "analysis"), ("Atlas", "Atlas"), ("nuScenes", "nuScenes"), ("ViTs", "ViT"), ("tasks", "task"), ("GPT-4", "GPT-4"),
     ("inverse graphics", "inverse graphics"), ("evaluation metrics", "evaluation metric")],
)
def test_singular_name(name, singular):
    assert singular_name(name) == singular


def test_paper_id_prefers_doi_then_arxiv_then_content():
    assert paper_id(abstract="x", doi="https://doi.org/10.1000/ABC") == "doi:10.1000/abc"
    assert paper_id(abstract="x", doi="10.1000/abc", arxiv_id="2401.00001") == "arxiv:2401.00001"
    assert paper_id(abstract="x", doi="10.1000/abc?utm=1") == "doi:10.1000/abc"
    assert paper_id(abstract="x", arxiv_id="arXiv:2401.00001v3") == "arxiv:2401.00001"
    content = paper_id(abstract="Same  abstract\n text.")
    assert content.startswith("paper:") and content == paper_id(abstract="Same abstract text.")
    assert content != paper_id(abstract="Another abstract.")


def test_code_id_normalises_url():
    assert code_id("https://www.GitHub.com/a/B.git/") == "code:github.com/a/B"
    assert code_id("http://github.com/a/B") == code_id("https://github.com/a/B")


@pytest.mark.parametrize(
    "value, expected",
    [("2401.01234v2", "2401.01234"), ("arXiv:2401.01234", "2401.01234"),
     ("https://arxiv.org/abs/2401.01234v1", "2401.01234"), ("https://arxiv.org/pdf/2401.01234.pdf", "2401.01234"),
     ("hep-th/9901001", "hep-th/9901001"), ("10.1145/3292500.3330701", None),
     ("https://example.com/papers/1234567", None)],
)
def test_normalize_arxiv_id(value, expected):
    from kg.ids import normalize_arxiv_id

    assert normalize_arxiv_id(value) == expected


def test_ids_of_very_long_fields_are_bounded_stable_and_distinct():
    from kg.ids import MAX_ID_CHARS, bounded_id, entity_id, venue_id

    long_doi = "10.1234/" + "x" * 5000
    first = paper_id(abstract="a", doi=long_doi)
    assert len(first) <= MAX_ID_CHARS and first.startswith("doi:10.1234/xxx")
    assert first == paper_id(abstract="b", doi=long_doi)
    assert first != paper_id(abstract="a", doi=long_doi + "y")
    for made in (entity_id("k" * 5000), venue_id("Workshop " * 1000), code_id("https://github.com/a/" + "b" * 5000),
                 paper_id(abstract="x", arxiv_id="a" * 5000 + "/1234567")):
        assert len(made) <= MAX_ID_CHARS
    assert bounded_id("short") == "short" and bounded_id("s" * MAX_ID_CHARS) == "s" * MAX_ID_CHARS


def test_a_lone_surrogate_does_not_break_an_id():
    assert paper_id(abstract="We propose \ud800Net.").startswith("paper:")
