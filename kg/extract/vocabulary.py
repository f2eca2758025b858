"""Word lists the rule components read: head nouns per type, triggers, generic words.

They are general English and field vocabulary, not names: names come from
catalogues (``lexicons/``) or are found by their shape and syntax. The lists
are handed to components through the registry (``kg.vocabulary.v1``), so a
config can swap them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.util import registry

__all__ = ["Vocabulary", "default_vocabulary"]


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


@registry.misc("kg.vocabulary.v1")
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
            "tokenizer adapter module layer kernel process cache"
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
            "framework method approach technique architecture mechanism model strategy scheme "
            "procedure pipeline system objective loss policy agent process module layer "
            "estimator generator discriminator verifier explainer encoder decoder tokenizer "
            "adapter kernel classifier network"
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
            "Python CUDA Kaggle OpenReview"
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
            "developing designing devising building creating constructing releasing curating"
        ),
        naming_words=_words("dubbed named called termed coined denoted abbreviated titled"),
        adjective_endings=("al", "ive", "ous", "ic", "ed", "ar", "ble", "ful", "less", "ent", "ant"),
    )
