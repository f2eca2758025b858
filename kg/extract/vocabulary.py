"""Word lists the rule components read: head nouns per type, triggers, generic words.

They are general English and field vocabulary, not names: names come from
catalogues (``lexicons/``) or are found by their shape and syntax. The lists
are handed to components through the registry (``kg.vocabulary.v1``), so a
config can swap them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from spacy.util import registry

from kg.ids import name_key

__all__ = ["Vocabulary", "default_vocabulary", "is_generic_class"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


@dataclass(frozen=True)
class Vocabulary:
    task_heads: frozenset[str]
    method_heads: frozenset[str]
    metric_heads: frozenset[str]
    compound_metric_heads: frozenset[str]
    dataset_heads: frozenset[str]
    model_heads: frozenset[str]
    generic_heads: frozenset[str]
    generic_terms: frozenset[str]
    generic_modifiers: frozenset[str]
    not_names: frozenset[str]
    name_suffixes: frozenset[str]
    propose_verbs: frozenset[str]
    naming_words: frozenset[str]
    adjective_endings: tuple[str, ...] = field(default=())
    generic_class_heads: frozenset[str] = frozenset()
    generic_class_modifiers: frozenset[str] = frozenset()
    generic_families: frozenset[str] = frozenset()
    model_variants: frozenset[str] = frozenset()
    we_naming_verbs: frozenset[str] = frozenset()  # ``which we call X``, ``we term X``
    kept_heads: frozenset[str] = frozenset()  # generic heads a name keeps: ``spatial pyramid loss``

    def names_next(self, words: list[str]) -> bool:
        """The words before a position (lower case, the last right before it) announce a name
        there: ``dubbed``, ``termed as``, ``we call``. Not ``referred to as``, which names what exists (``a
        phenomenon referred to as progressive sharpening``).

        >>> vocab = default_vocabulary()
        >>> vocab.names_next(["method", "dubbed"]), vocab.names_next(["termed", "as"]), vocab.names_next(["to", "as"])
        (True, True, False)
        >>> vocab.names_next(["we", "call"]), vocab.names_next(["we", "term"]), vocab.names_next(["to", "call"])
        (True, True, False)
        """
        if not words:
            return False
        return words[-1] in self.naming_words or len(words) >= 2 and (
            (words[-1] == "as" and words[-2] in self.naming_words)
            or (words[-2] == "we" and words[-1] in self.we_naming_verbs))

    def is_family(self, name: str) -> bool:
        """A generic class that research treats as one family and names as such (``LLM``,
        ``MLLM``; the annotation guidelines keep them): an entity, flagged generic."""
        return name_key(name) in self.generic_families

    def is_generic_phrase(self, name: str) -> bool:
        """A class named by what it is for, its scale or its role, not by a technique:
        ``large language model``, ``deep neural network``, ``policy model``
        (not ``diffusion model``, ``graph neural network``)."""
        words = name_key(name).split("-")
        return (
            len(words) >= 2
            and words[-1] in self.generic_class_heads
            and all(w in self.generic_class_modifiers for w in words[:-1])
        )


def is_generic_class(name: str, surfaces: list[str] | tuple[str, ...] = ()) -> bool:
    """``name`` is a generic class, or an acronym of one of its ``surfaces`` that is (``LLM``).

    >>> is_generic_class("large language model"), is_generic_class("LLM", ["large language models"])
    (True, True)
    >>> is_generic_class("diffusion model"), is_generic_class("GNN", ["graph neural network"])
    (False, False)
    """
    from kg.extract.abbreviations import is_short_form, schwartz_hearst_long_form

    vocabulary = default_vocabulary()
    if vocabulary.is_generic_phrase(name):
        return True
    if not is_short_form(name):
        return False
    return any(
        vocabulary.is_generic_phrase(s) and schwartz_hearst_long_form(name, name_key(s).split("-")) == 0
        for s in surfaces
    )


@registry.misc("kg.vocabulary.v1")
@lru_cache(maxsize=1)
def default_vocabulary() -> Vocabulary:
    return Vocabulary(
        task_heads=_words(
            "classification prediction generation detection segmentation translation recognition "
            "answering retrieval summarization summarisation modeling modelling estimation "
            "synthesis completion parsing tagging captioning forecasting planning compression "
            "editing localization localisation tracking reasoning understanding recommendation "
            "extraction labeling labelling clustering verification navigation manipulation "
            "discovery solving imputation denoising inpainting deblurring transcription "
            "super-resolution reconstruction grounding alignment control proving serving"
        ),
        method_heads=_words(
            "algorithm network autoencoder transformer search decoding encoding learning "
            "optimization optimisation tuning fine-tuning finetuning guidance distillation pruning "
            "quantization sampling sampler regularization attention descent propagation "
            "normalization augmentation regression transport inference diffusion estimator "
            "optimizer prompting framework method approach technique architecture mechanism "
            "model strategy scheme procedure pipeline system objective loss policy agent "
            "embedding encoder decoder classifier generator discriminator verifier explainer "
            "tokenizer adapter module layer kernel process cache detector solver planner retriever "
            "predictor simulator segmenter reranker controller"
        ),
        metric_heads=_words(
            "accuracy error score rate latency throughput perplexity precision recall f1 "
            "fidelity runtime coverage auc auroc bleu rouge speedup efficiency win-rate "
            "win-rates cost time speed usage length diversity size faithfulness correctness "
            "relevance consistency"
        ),
        compound_metric_heads=_words(
            "score rate error cost efficiency time speed usage length diversity size "
            "consistency coverage"
        ),
        dataset_heads=_words("dataset datasets benchmark benchmarks corpus corpora suite bench"),
        model_heads=_words("model models llm llms lm lms checkpoint checkpoints"),
        generic_heads=_words(
            "framework method algorithm approach technique architecture mechanism model strategy scheme "
            "procedure pipeline system objective loss policy agent process module layer "
            "estimator generator discriminator verifier explainer encoder decoder tokenizer "
            "adapter kernel classifier network"
        ),
        # the training annotation writes these with the name 66-95% of the time, against 2-36% for
        # framework, approach, technique, strategy, algorithm (docs/quality.md, nineteenth session)
        kept_heads=_words(
            "loss network model process kernel estimator classifier system layer policy decoder generator tokenizer"
        ),
        generic_terms=_words(
            "machine-learning deep-learning neural-network artificial-intelligence "
            "state-of-the-art"
        ),
        generic_modifiers=_words(
            "a an the this that these those our their its his her my your we novel new proposed "
            "existing prior previous recent current various several multiple many diverse different "
            "other such same specific general simple standard traditional conventional typical "
            "popular common key main first second two three four five six seven eight nine ten "
            "downstream complex challenging important broad wide large-scale effective efficient "
            "robust powerful strong state-of-the-art sota baseline classic classical modern "
            "additional further more most less few some all each every both any overall high low "
            "better best superior significant competitive promising practical real-world "
            "unified generic advanced improved extensive comprehensive original underlying "
            "corresponding resulting following same entire whole above below specialized "
            "sophisticated comparable inaccurate accurate costly extra separate stringent versatile "
            "exact auxiliary industrial lightweight light coarse fine-grained open-source "
            "scalable flexible fast slow cheap expensive naive novel tailored dedicated "
            "standalone dynamic static unseen seen emergent desired desirable unique "
            "competitive reliable remarkable notable excessive substantial considerable "
            "fundamental basic elementary primary secondary final initial subsequent good great "
            "poor bad decent reasonable excellent impressive outstanding satisfactory favorable "
            "favourable limited reduced increased enhanced high-quality low-quality special particular"
        ),
        not_names=_words(
            "AI ML GPU GPUs CPU CPUs TPU TPUs API APIs US UK EU USA PhD SOTA IID OOD I/O HTTP "
            "URL URLs PDF RGB II III IV VI VII VIII IX XI XII ID IDs OK TV PC FPS GB MB KB TB "
            "GHz MHz Hz NL DL IoT AR VR QA LaTeX GitHub PyTorch TensorFlow JAX HuggingFace arXiv "
            "Python CUDA Kaggle OpenReview ICLR NeurIPS NIPS ICML CVPR ICCV ECCV ACL EMNLP NAACL "
            "AAAI IJCAI KDD SIGIR COLT AISTATS UAI TMLR JMLR"
        ),
        name_suffixes=_words(
            "based like style driven aware free guided specific level wise invoking generated "
            "related augmented centric oriented conditioned friendly compatible agnostic "
            "dependent independent only scale sized class grade type enabled powered assisted"
        ),
        propose_verbs=_words(
            "propose proposes proposed introduce introduces introduced present presents presented "
            "develop develops developed design designs designed devise devises devised build "
            "builds built create creates created construct constructs constructed release "
            "releases released curate curates curated contribute contributes offer offers "
            "formulate formulates establish establishes introducing proposing presenting "
            "developing designing devising building creating constructing releasing curating call dub "
            "collect collects collected collecting compile compiles compiled compiling assemble assembles "
            "assembled assembling"
        ),
        naming_words=_words("dubbed named called termed coined denoted abbreviated titled"),
        we_naming_verbs=_words("call term coin dub name"),
        adjective_endings=("al", "ive", "ous", "ic", "ed", "ar", "ble", "ful", "less", "ent", "ant"),
        generic_class_heads=_words("model network system agent architecture learner"),
        generic_class_modifiers=_words(
            "large small big tiny giant language vision visual multimodal multi modal text image video "
            "audio speech foundation foundational pretrained pre trained generative discriminative "
            "neural deep artificial base general purpose open source proprietary frontier policy "
            "student teacher target draft critic proxy surrogate backbone downstream sequence predictive "
            "machine learning ml ai"
        ),
        model_variants=_words(
            "base large small tiny mini medium xl xxl xxxl huge giant nano micro lite instruct chat "
            "turbo pro ultra plus"
        ),
        generic_families=frozenset(name_key(n) for n in (
            "large language model", "multimodal large language model", "multi-modal large language model",
            "large multimodal model", "vision-language model", "large vision-language model",
        )),
    )
