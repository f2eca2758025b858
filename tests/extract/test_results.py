"""Result records on hand-made sentences with known answers (method names invented, datasets and
metrics public ones): the value's parts, what it measures, whose it is, where and against whom,
and nothing the sentence does not state."""

from __future__ import annotations

import pytest

from kg.extract.results import VALUE, parse_value


def results(nlp, raw: str) -> list[dict]:
    """The results of one text, entity fields as the text they point to."""
    doc = nlp(raw)
    out = []
    for found in doc._.kg_results:
        record = dict(found)
        for key in ("subject", "dataset", "task", "baseline", "metric_entity"):
            record[key] = doc.text[found[key][0]:found[key][1]] if found[key] else None
        out.append(record)
    return out


def by_value(nlp, raw: str) -> dict[str, dict]:
    return {r["value"]: r for r in results(nlp, raw)}


@pytest.mark.parametrize(
    "text, value, number, unit, delta",
    [
        ("from 73% to 93.4%", "73% -> 93.4%", 93.4, "%", None),
        ("5% → 45.3%", "5% -> 45.3%", 45.3, "%", None),
        ("44.9 (+2.8)%", "44.9% (+2.8%)", 44.9, "%", "+2.8%"),
        ("up to 4.5×", "up to 4.5x", None, "x", "up to 4.5x"),
        ("+3.4", "+3.4", None, None, "+3.4"),
        ("4-16%", "4-16%", None, "%", None),
        ("1.1x~3.4x", "1.1x~3.4x", None, "x", "1.1x~3.4x"),
        ("31.5", "31.5", 31.5, None, None),
        ("2.5 percentage points", "2.5 percentage points", None, "pp", "2.5 percentage points"),
        ("1.15dB", "1.15dB", 1.15, "dB", None),
        ("from 5 days to 5 hours", "5 days -> 5 hours", 5.0, "h", None),
        ("0.5 MB", "0.5 MB", 0.5, "MB", None),
        ("14.6s", "14.6s", 14.6, "s", None),
    ],
)
def test_parse_value(text, value, number, unit, delta):
    assert parse_value(text, VALUE.fullmatch(text).lastgroup) == (value, number, unit, delta)


@pytest.mark.parametrize(
    "text, found",
    [
        ("accuracy rises from 73% to 93.4% here", "from 73% to 93.4%"),
        ("a two orders of magnitude speedup", "two orders of magnitude"),
        ("by a factor of 32-64.", "a factor of 32-64"),
        ("gains of 1%-2% on average", "1%-2% on average"),
        ("it reaches 10,000x", "10,000x"),
        ("a PSNR gain of 1.15dB over the codec", "1.15dB"),
        ("training is 1-2 orders of magnitude faster", "1-2 orders of magnitude"),
        ("it raises the speedup to 2.3-2.8×", "2.3-2.8×"),  # "up to" starts a word, not inside "speedup"
        ("a speed-up of up to 3x", "up to 3x"),
        ("it obtains 3--8% higher accuracy", "3--8%"),  # LaTeX's en dash
        ("it processes 183 -- 711 times more samples", "183 -- 711 times"),
        ("it cuts training from 5 days to 5 hours", "from 5 days to 5 hours"),
        ("it renders a clip in 8 sec on one GPU", "8 sec"),
        ("with only 320KB of memory", "320KB"),
    ],
)
def test_value_shapes(text, found):
    assert VALUE.search(text).group(0) == found


def test_a_score_with_its_gain_is_a_result(nlp):
    """``50.4% (+ 8.2%)``: a value and its gain over the previous best, a result by its shape
    (the learned decision, fitted on few such values, doubted them)."""
    found = by_value(nlp, "With Zorbfit, the performance of earlier methods is promoted by a large margin: "
                          "50.4% (+ 8.2%) on COCO, 81.8% (+ 3.2%) on Pascal-VOC in terms of mIoU.")
    assert {"50.4% (+8.2%)", "81.8% (+3.2%)"} <= set(found)
    assert found["50.4% (+8.2%)"]["delta"] == "+8.2%"


def test_a_plural_count_is_no_time():
    """``10s or 100s of billions``: a glued *s* is seconds only after a decimal."""
    assert VALUE.search("models of 10s or 100s of billions of parameters") is None


def test_a_score_with_its_metric_dataset_and_subject(nlp):
    found = by_value(nlp, "We propose Zorblat, a novel detector. Zorblat achieves 52.3 AP on MS-COCO.")
    result = found["52.3"]
    assert (result["metric"], result["metric_entity"], result["dataset"], result["subject"]) == \
        ("AP", "AP", "MS-COCO", "Zorblat")
    assert (result["number"], result["delta"], result["direction"]) == (52.3, None, "higher")


@pytest.mark.parametrize(
    "text, value, metric",
    [
        ("We propose Zorblat. On WMT14, Zorblat obtains BLEU 31.5.", "31.5", "BLEU"),
        ("We propose Zorblat. Zorblat reaches an FID of 5.17 on CIFAR-10.", "5.17", "FID"),
        ("We propose Zorblat. On WikiAnn, Zorblat achieves an average F1 of 78.4.", "78.4", "F1"),
        ("We propose Zorblat, a new decoder. It improves ROUGE-L by 3.2 on XSum while keeping BERTScore within "
         "0.5 points of the baseline.", "0.5 points", "BERTScore"),
        # not the metric of what the value is compared with
        ("We propose Zorblat, a new metric. Zorblat achieves a Spearman correlation of 0.82 with human judgments "
         "on WMT22, compared to 0.61 for BLEU.", "0.82", "Spearman correlation"),
        ("We propose Zorblat. It improves accuracy by 4-16% over the baselines.", "4-16%", "accuracy"),
        ("We propose Zorblat. Zorblat saves 77.3% training time and 76.0% memory.", "76.0%", "memory"),
        ("We propose Zorblat. It reduces the question count by 20% on average.", "20% on average", "question count"),
        ("We propose Zorblat. Zorblat runs 3x faster than prior solvers.", "3x", "speedup"),
        ("We propose Zorblat. Zorblat runs 3x significantly faster than prior solvers.", "3x", "speedup"),
        ("We propose Zorblat. Zorblat is as accurate while being 16x smaller in size.", "16x", "size"),
        ("We propose Zorblat. Zorblat runs consistently faster by up to 10 times.", "up to 10 times", "speedup"),
        # the speed of what the sentence says is faster
        ("We propose Zorblat. Zorblat achieves 5.43x faster inference.", "5.43x", "inference speed"),
        ("We propose Zorblat. Zorblat is an order of magnitude faster to train than Plinko.",
         "an order of magnitude", "training speed"),
        ("We propose Zorblat. Zorblat trains 2-5x faster, which allows it to scale.", "2-5x", "training speed"),
        ("We propose Zorblat. Zorblat converges up to 1.7x quicker than Plinko.", "up to 1.7x", "convergence speed"),
        ("We propose Zorblat. Zorblat yields 2x faster models.", "2x", "speedup"),
        # what a comparative with no noun after it compares
        ("We propose Zorblat. Zorblat is 60% smaller than Plinko.", "60%", "size"),
        ("We propose Zorblat. Zorblat trains on sequences 32 times longer than Plinko.", "32 times", "length"),
        ("We propose Zorblat. Zorblat is up to two orders of magnitude more accurate than Plinko.",
         "up to two orders of magnitude", "accuracy"),
        ("We propose Zorblat. Zorblat makes classifiers up to 23% more robust than Plinko.", "up to 23%", "robustness"),
        ("We propose Zorblat. Zorblat enables 13% more accurate human verification than Plinko.", "13%",
         "human verification accuracy"),
        ("We propose Zorblat. Zorblat is 3x more efficient, in terms of integration steps, than Plinko.", "3x",
         "integration steps"),
        ("We propose Zorblat. Zorblat gives 2-3 times higher zero-shot performance than Plinko.", "2-3 times",
         "zero-shot performance"),
        (r"It achieves an end-to-end 4.5$\times$ speedup.", "4.5x", "speedup"),
        # the whole phrase is the metric, as our annotation of the examples reads it
        ("It reduces KV cache memory usage by up to 75%.", "up to 75%", "KV cache memory usage"),
        ("It cuts the number of inference steps by a factor of 32-64.", "a factor of 32-64",
         "number of inference steps"),
        ("It extends the context length from 128K to 450K.", "128K -> 450K", "context length"),
        # the metric after the value, not the baseline before it
        ("We propose Zorblat. Zorblat exceeds prior agents by 4% for the success rate.", "4%", "success rate"),
        ("We propose Zorblat. It surpasses earlier neural policies by 12% on the F1 score.", "12%", "F1 score"),
        # a margin is of what is outperformed, or of what the value before it measures
        ("We propose Zorblat. Zorblat outperforms the previous state-of-the-art top-1 accuracy by a margin of "
         "2.5%.", "2.5%", "top-1 accuracy"),
        ("We propose Zorblat. Zorblat achieves 75.67% robust accuracy on CIFAR-10, surpassing the previous "
         "adversarial training models by +4.77%.", "+4.77%", "robust accuracy"),
        ("We propose Zorblat. Zorblat outperforms Plinko by a margin of 2.5% on CIFAR-10.", "2.5%", "improvement"),
        ("We propose Zorblat. It reaches 85% accuracy and 0.19 SSIM, outperforming the state of the art by 45%.",
         "45%", "improvement"),
        ("We propose Zorblat. Zorblat tunes a 7B model, with a margin of 3.1% on GSM8K over Plinko.", "3.1%",
         "margin"),
        # a list of values takes the metric after its last, back along the list
        ("We propose Zorblat. Zorblat achieves 9.0%, 26.3%, 20.1% and 12.2% performance gain on four tasks.",
         "9.0%", "performance"),
        ("We propose Zorblat. Zorblat boosts Plinko's performance by a relative 41.4%.", "41.4%", "performance"),
        # what is compared, or where, is not what is measured
        ("We propose Zorblat. Zorblat surpasses the RL baseline on eight reasoning tasks by 4.1 points on average.",
         "4.1 points on average", "improvement"),
        ("We propose Zorblat. Zorblat outperforms existing SOTA label-only MI attacks by more than 15%.",
         "more than 15%", "improvement"),
        ("We propose Zorblat. Zorblat outperforms existing solvers on hard instances by more than 30%.",
         "more than 30%", "improvement"),
        ("We propose Zorblat. Zorblat reduces the error of classifiers trained with noisy labels by 20%.", "20%",
         "error"),
        ("We propose Zorblat. Zorblat reduces the error on hard instances by 20%.", "20%", "error"),
        ("We propose Zorblat. Zorblat boosts performance on tasks including segmentation, depth estimation, and "
         "others by up to 14.9%.", "up to 14.9%", "improvement"),
        # the measure named after the value, or before the comparison
        ("We propose Zorblat. Zorblat outperforms the baselines by an average of 29% in accumulated reward on "
         "Mujoco tasks.", "an average of 29%", "accumulated reward"),
        ("We propose Zorblat. Zorblat outperforms the baselines by 29% on accumulated reward.", "29%",
         "accumulated reward"),
        ("We propose Zorblat. Zorblat outperforms the baselines by 29% on CIFAR-10.", "29%", "improvement"),
        ("We propose Zorblat. Specifically for ImageNet zero-shot accuracy, Zorblat outperforms CLIP by 8.2%.",
         "8.2%", "zero-shot accuracy"),
        # a phrase never starts inside a compound (not "art score"); what surpasses is the sentence's one metric
        ("We propose Zorblat. Its BLEU score surpasses the state-of-the-art score by 9%.", "9%", "BLEU score"),
        # values coordinated before one metric all measure it
        ("Our Zorblat models achieve 81.2%, 82.4%, and 83.0% top-1 accuracy, respectively.", "81.2%",
         "top-1 accuracy"),
        ("Zorblat reaches 41.5 and 43.0 AP on MS-COCO.", "41.5", "AP"),
        # what "in terms of" names, entity or not, past a "both"
        ("Zorblat outperforms the state of the art by up to 7% in terms of both faithfulness and fluency.",
         "up to 7%", "faithfulness"),
        # a change "on" a measure, not on a place
        ("Zorblat achieves a +5.2% improvement on mean precision over earlier methods.", "+5.2%",
         "mean precision"),
        # the measure before "on" the place it is measured, not the place
        ("Zorblat improves the accuracy on long-range graph benchmarks by at least 8.5%.", "at least 8.5%",
         "accuracy"),
        # the measure the clause's subject names, in the clause nearest the value
        ("We propose Zorblat. We estimate that human performance also plateaus near 90% on CIFAR-10.",
         "90%", "human performance"),
        ("Specifically, the average improvement of Zorblat is 7% over Plinko.", "7%", "average improvement"),
        ("For instance, the solving rate of Zorblat outperforms the current best by 9% on MS-COCO.", "9%",
         "solving rate"),
        # measure words the tagger misreads (mean as a verb, overhead as an adverb), a share of resources
        ("Zorblat achieves 198% mean human performance.", "198%", "mean human performance"),
        ("Zorblat gives up to 38% accuracy improvement and 10x reduced overhead.", "10x", "overhead"),
        ("Zorblat uses only 25% of the computational resources of Plinko.", "25%", "computational resources"),
        # adjectives coordinated before the measure
        ("Zorblat achieves 9.98x and 3.88x online and total communication reduction.", "3.88x",
         "online and total communication"),
        # a lone change noun after the value is a change of the measure the sentence improves
        ("Zorblat improves top-1 accuracy beyond earlier methods, with a 3.08% improvement over Plinko.", "3.08%",
         "top-1 accuracy"),
        ("Zorblat gives a 10% improvement.", "10%", "improvement"),
        # a change *in* a measure a participle modifies
        ("Compared to Plinko, the increase in certified accuracy given by Zorblat is large, up to 6.4% on "
         "ImageNet.", "up to 6.4%", "certified accuracy"),
        # improving another method by a margin, the measure unnamed
        ("We propose Zorblat. Zorblat improves YOLO by 10% for object detection.", "10%", "improvement"),
        # a share of what the phrase after "of" counts, when nothing else names the measure
        ("We find that Zorblat can identify 67%, 87%, and 94% of these incorrect claims, respectively.", "87%",
         "% of incorrect claims"),
        ("Zorblat solves 15% of ARC evaluation tasks, achieving state-of-the-art performance.", "15%",
         "% of ARC evaluation tasks"),
        ("Zorblat-fast needs only 7% of Plinko’s MACs while achieving better separation quality.", "7%",
         "% of Plinko’s MACs"),
    ],
)
def test_the_metric_is_what_the_value_measures(nlp, text, value, metric):
    assert by_value(nlp, text)[value]["metric"] == metric


def test_a_change_on_a_place_is_not_a_metric(nlp):
    assert by_value(nlp, "Zorblat gives a 5.2% improvement on MS-COCO.")["5.2%"]["metric"] == "improvement"


def test_a_dataset_before_by_is_where_the_change_is_not_what(nlp):
    text = "Zorblat outperforms the previous state-of-the-art in Procgen by 35%."
    assert by_value(nlp, text)["35%"]["metric"] != "Procgen"


def test_a_result_is_never_measured_by_value(nlp):
    for result in results(nlp, "We propose Zorblat. Zorblat is better by 12% in the end."):
        assert result["metric"] != "value"


def test_lower_is_better_for_time_and_error(nlp):
    found = by_value(nlp, "We propose Zorblat. Zorblat cuts inference latency by 35% and has 12% lower error.")
    assert found["35%"]["direction"] == "lower" and found["12%"]["direction"] == "lower"


@pytest.mark.parametrize("text, direction", [
    ("We propose Zorblat. Zorblat reaches an FID score of 2.1 on CIFAR-10.", "lower"),
    ("We propose Zorblat. Zorblat reaches a 61% success rate on ALFWorld.", "higher"),
])
def test_the_head_of_the_metric_says_which_way_is_better(nlp, text, direction):
    [result] = results(nlp, text)
    assert result["direction"] == direction


def test_a_change_over_a_baseline(nlp):
    found = by_value(nlp, "We propose Zorblat. Zorblat improves top-1 accuracy by 2.1% over ResNet-50 on ImageNet.")
    result = found["2.1%"]
    assert (result["baseline"], result["dataset"], result["delta"], result["number"]) == \
        ("ResNet-50", "ImageNet", "2.1%", None)


def test_the_baseline_states_its_own_score(nlp):
    found = by_value(nlp, "We propose Zorblat. Zorblat achieves 91% pass@1 accuracy on HumanEval, "
                          "surpassing the previous state-of-the-art GPT-4 that achieves 80%.")
    assert found["91%"]["subject"] == "Zorblat" and found["91%"]["baseline"] == "GPT-4"
    assert found["80%"]["subject"] == "GPT-4" and found["80%"]["metric"] == found["91%"]["metric"]


def test_a_baseline_described_as_existing_is_not_the_subject(nlp):
    """``existing`` is tagged as a verb; before a name it describes the baseline, not a clause."""
    found = by_value(nlp, "We propose Zorblat, a new sampler. Zorblat converges faster than existing layer sampling "
                          "approaches and can use up to 112 times larger batch sizes.")
    assert found["up to 112 times"]["subject"] == "Zorblat"


def test_a_fronted_place_is_not_listed_with_the_subject(nlp):
    """``On Zorbench, GPT-4 achieves``: the comma ends the fronted phrase; it does not list GPT-4
    with the dataset (as ``on A and B`` would)."""
    [result] = results(nlp, "We introduce Zorbench, a benchmark of 5,000 multi-hop questions. "
                            "On Zorbench, GPT-4 achieves only 35.2% accuracy.")
    assert (result["subject"], result["dataset"]) == ("GPT-4", "Zorbench")


def test_subjects_listed_together_file_the_value_under_the_first(nlp):
    """``our Zorb-DQN and Zorb-PPO agents outperform ...``: both state the value; it is filed under
    the first, as a reader cites it (not the one nearest the number)."""
    [result] = results(nlp, "We propose Zorb-DQN and Zorb-PPO. Our Zorb-DQN and Zorb-PPO agents outperform "
                            "existing smoothed agents by an average factor of 2.16x under the strongest attack.")
    assert result["subject"] == "Zorb-DQN"


def test_a_benchmark_papers_results_are_on_its_benchmark(nlp):
    """A paper that proposes a dataset and no method: a result whose sentence names no dataset is
    on the proposed one; a paper that proposes a method gets no dataset it does not state."""
    found = by_value(nlp, "We introduce Zorbench, a benchmark of 4,312 table questions. We evaluate GPT-4o and "
                          "Llama-3-70B. The best model, GPT-4o, reaches only 54.2% exact match.")
    assert (found["54.2%"]["dataset"], found["54.2%"]["subject"]) == ("Zorbench", "GPT-4o")
    assert "4,312" not in found
    found = by_value(nlp, "We propose Zorblat, a new sampler. Zorblat reaches 54.2% exact match.")
    assert found["54.2%"]["dataset"] is None


def test_a_value_an_actor_owns_is_its_own(nlp):
    found = by_value(nlp, "We propose Zorblat. Zorblat achieves 198% mean human performance on Atari, higher "
                          "than the state-of-the-art EfficientZero's 194%, while using only 25% of its compute.")
    assert [found[v]["subject"] for v in ("198%", "194%", "25%")] == ["Zorblat", "EfficientZero", "Zorblat"]


def test_values_listed_respectively(nlp):
    found = by_value(nlp, "We propose Zorblat. Zorblat outperforms existing methods by 2.4% and 1.2% "
                          "in terms of F1-score and AUROC, respectively.")
    assert (found["2.4%"]["metric"], found["1.2%"]["metric"]) == ("F1-score", "AUROC")


@pytest.mark.parametrize(
    "text, datasets",
    [
        # values listed together take the datasets listed with them, in order, "respectively" or not
        ("Zorblat achieves 72.3%, 76.4% and 74.2% mIoU for semantic segmentation on S3DIS, ScanNet and SemanticKITTI.",
         {"72.3%": "S3DIS", "76.4%": "ScanNet", "74.2%": "SemanticKITTI"}),
        # each list of values of a "respectively" sentence, though the sentence has more values than datasets
        ("In the ALFWorld and MiniWoB++ environments, Zorblat outperforms the baselines by 3.73% and 4.11% while "
         "using 2x and 600x fewer samples, respectively.",
         {"3.73%": "ALFWorld", "4.11%": "MiniWoB++", "2x": "ALFWorld", "600x": "MiniWoB++"}),
    ],
)
def test_values_listed_together_take_the_entities_listed_with_them(nlp, text, datasets):
    assert {value: r["dataset"] for value, r in by_value(nlp, text).items()} == datasets


def test_a_value_in_parentheses_was_measured_on_the_dataset_before_them(nlp):
    found = by_value(nlp, "We propose Zorblat. Zorblat outperforms prior attacks by large margins on ImageNet "
                          "(+10.07% on average) and CIFAR-10 (+3.88% on average).")
    assert [(r["dataset"], r["metric"]) for r in found.values()] == [("ImageNet", None), ("CIFAR-10", None)]
    found = by_value(nlp, "We propose Zorblat. Zorblat reaches 81.2% accuracy on ImageNet (+2.1%) and 95.0% on "
                          "CIFAR-10 (+0.8%).")
    assert found["+2.1%"]["dataset"] == "ImageNet"


def test_a_place_of_another_clause_is_not_the_values_own(nlp):
    found = by_value(nlp, "We propose Zorblat. Zorblat achieves an accuracy of 85.3% on ModelNet40, outperforming "
                          "earlier zero-shot methods by 20% and performing on par with supervised methods.")
    assert (found["85.3%"]["dataset"], found["20%"]["dataset"]) == ("ModelNet40", "ModelNet40")


def test_each_value_takes_the_dataset_of_its_own_clause(nlp):
    found = by_value(nlp, "We propose Zorblat. Zorblat gains 8.0% on CIFAR-100 and 0.7% on ImageNet.")
    assert (found["8.0%"]["dataset"], found["0.7%"]["dataset"]) == ("CIFAR-100", "ImageNet")


@pytest.mark.parametrize("text", [
    "We propose Zorblat, a new optimizer. Experiments with BERT and GPT-2 show a gain of 5% in accuracy.",
    "We propose Zorblat, a new optimizer. Experiments with Proximal Policy Optimization (PPO) and GPT-2 show "
    "a gain of 5% in accuracy.",
    # modifiers a phrase holds: hyphenated compounds, participles after a preposition or determiner
    "We propose Zorblat, a new optimizer. Zorblat is compatible with off-the-shelf pre-trained Quibnet "
    "models and shows large gains, outperforming prior methods by 5% in accuracy.",
    "We propose Zorblat, a new optimizer. Unlike traditional Quibnet schemes, which suffer from slow search, "
    "the sparse masks found give a gain of 5% in accuracy.",
])
def test_actors_listed_in_a_phrase_are_not_the_subject(nlp, text):
    assert by_value(nlp, text)["5%"]["subject"] == "Zorblat"


def test_a_result_no_clause_attributes_is_the_main_proposals(nlp):
    text = ("We propose Zorblat, a detector, and Quibblex, a detector built on Zorblat. Quibblex is fast. "
            "The accuracy on MS-COCO improves by 4.2%.")
    subjects = {}
    for title in ("Quibblex: A Faster Detector", "Zorblat: A Faster Detector"):
        doc = nlp.make_doc(text)
        doc._.kg_title = title  # the title names the main proposal (kg.extract.relations.main_proposals)
        doc = nlp(doc)
        [found] = doc._.kg_results
        subjects[title.split(":")[0]] = doc.text[found["subject"][0]:found["subject"][1]]
    assert subjects == {"Quibblex": "Quibblex", "Zorblat": "Zorblat"}


@pytest.mark.parametrize(
    "text, subject",
    [
        ("We propose Zorbfit, a reward model. Reinforcement learning agents trained with Zorbfit rewards "
         "demonstrate 2-3 times higher zero-shot performance than imitation learning methods.", "Zorbfit"),
        # a clause subject that does not run the proposal keeps its result
        ("We propose Zorbfit, a reward model. GPT-4 with retrieval achieves 80% accuracy on GSM8K.", "GPT-4"),
        # after a fronted phrase, the comma opens the clause whose subject it is, no list
        ("We propose Zorbfit, a quantizer. For example, applying Zorbfit to 4-bit quantization, the Swin-B "
         "model achieves a top-1 accuracy of 82.2% on ImageNet.", "Swin-B"),
    ],
)
def test_a_subject_running_the_proposal_credits_it(nlp, text, subject):
    [found] = results(nlp, text)
    assert found["subject"] == subject


def test_a_value_after_our_is_ours_not_the_subject_of_the_value_before(nlp):
    found = by_value(nlp, "We propose Zorbfit, a prompting method. In Game of 24, while GPT-4 with chain-of-thought "
                          "only solved 4% of tasks, our method achieved a success rate of 74%.")
    assert (found["4%"]["subject"], found["74%"]["subject"]) == ("GPT-4", "Zorbfit")


@pytest.mark.parametrize(
    "text, values",
    [
        # bare numbers listed with a score, before or after it
        ("Zorblat beats Plinko and Quibblex by 61.22 and 6.80 perplexity.", {"61.22": "perplexity", "6.80": "perplexity"}),
        ("Zorblat achieves an FID of 3.08 or 2.52 on MS-COCO.", {"3.08": "FID", "2.52": "FID"}),
        # a unit the recogniser reads as a metric stays the value's unit
        ("Zorblat achieves a PSNR of 32.03 dB on MS-COCO.", {"32.03 dB": "PSNR"}),
        # a hyphenated compound after the value is one phrase
        ("Zorblat reaches 80% state-of-the-art accuracy.", {"80%": "state-of-the-art accuracy"}),
        # the short form a metric defines stands between it and its value
        ("Zorblat improves the exact match (EM) score by 17.94 on SQuAD.", {"17.94": "exact match"}),
        # bare values listed after a colon, each on a dataset, measure the metric before the colon
        ("Zorblat achieves FID scores in line with the state of the art: 1.77 on CelebA, 1.93 on AFHQ and 2.72 on ImageNet.",
         {"1.77": "FID scores", "1.93": "FID scores", "2.72": "FID scores"}),
    ],
)
def test_values_beside_other_numbers_names_and_compounds(nlp, text, values):
    found = by_value(nlp, text)
    assert {value: found[value]["metric"] for value in values if value in found} == values


def test_unstated_fields_stay_empty(nlp):
    [result] = results(nlp, "Experiments show a 35% reduction in training time.")
    assert result["value"] == "35%" and result["metric"] == "training time"
    assert result["subject"] is None  # the paper names no method: the result is the paper's
    assert (result["dataset"], result["task"], result["baseline"], result["setting"]) == (None,) * 4


@pytest.mark.parametrize(
    "text, values",
    [
        ("We propose Zorblat. On SQuAD, Zorblat reaches an EM/F1 of 80.1/88.3.", ["80.1", "88.3"]),
        ("We propose Zorblat. Zorblat shows up to 1.7/4.8x higher throughput on one and eight GPUs.", ["1.7x", "4.8x"]),
    ],
)
def test_decimals_joined_by_slashes_are_values_each(nlp, text, values):
    """One decimal per metric or setting, the unit written once after the last; fractions
    (``8/255``) are not results (below)."""
    assert [r["value"].removeprefix("up to ") for r in results(nlp, text)] == values


def test_the_setting_the_sentence_states(nlp):
    [result] = results(nlp, "We propose Zorblat. In the zero-shot setting, Zorblat reaches 61.2% accuracy "
                            "on ImageNet with a 7B model.")
    assert result["setting"] == "zero-shot, 7B"


@pytest.mark.parametrize(
    "text",
    [
        "We fine-tune Llama-2 (70B) and a 7B model for 3 epochs.",
        "Our method is evaluated on three benchmarks released in 2023.",
        "We study GPT-4 and ResNet-50 on ImageNet-1K.",
        "Our bound holds for perturbations of 8/255 and on 9/11 of the instances.",
    ],
)
def test_sentences_without_results_give_none(nlp, text):
    assert results(nlp, text) == []


def test_a_dataset_is_only_ever_a_dataset(nlp):
    text = ("We propose Zorblat. Zorblat improves RAG accuracy by 5% over RAG, and reaches 70.1% "
            "exact match on Natural Questions.")
    doc = nlp(text)
    labels = {(s.start_char, s.end_char): s.label_ for s in doc.spans["kg_entities"]}
    for result in doc._.kg_results:
        if result["dataset"]:
            assert labels[tuple(result["dataset"])] == "Dataset"
        if result["subject"]:
            assert labels[tuple(result["subject"])] in ("Method", "Model")
