"""The result scorer on hand-made gold and predictions: what matches, what counts as complete."""

import pytest

from kg.evaluate.results import metric_matches, result_errors, score_results, value_numbers

GOLD_ENTITIES = [
    {"name": "Zorb", "type": "Method", "aliases": ["Zorb-Net"]},
    {"name": "CIFAR-10", "type": "Dataset", "aliases": []},
    {"name": "ResNet-50", "type": "Model", "aliases": []},
    {"name": "accuracy", "type": "Metric", "aliases": []},
]
PRED_ENTITIES = [
    {"id": "e:zorb", "name": "Zorb-Net", "type": "Method", "mentions": [{"text": "Zorb-Net"}]},
    {"id": "e:c10", "name": "CIFAR10", "type": "Dataset", "mentions": []},
    {"id": "e:rn", "name": "ResNet-50", "type": "Method", "mentions": []},
    {"id": "e:acc", "name": "accuracy", "type": "Metric", "mentions": []},
]


def gold(*results):
    return [{"id": "p", "entities": GOLD_ENTITIES, "results": list(results)}]


def pred(*results):
    return [{"id": "p", "entities": PRED_ENTITIES, "results": list(results)}]


def g(value, metric="accuracy", subject="Zorb", dataset="CIFAR-10", baseline=None, direction="higher"):
    return {"value": value, "metric": metric, "subject": subject, "dataset": dataset, "task": None,
            "baseline": baseline, "direction": direction}


def p(value, metric="accuracy", subject="e:zorb", dataset="e:c10", baseline=None, direction="higher", **more):
    return {"value": value, "metric": metric, "subject": subject, "dataset": dataset, "task": None,
            "baseline": baseline, "direction": direction, **more}


@pytest.mark.parametrize("a, b, same", [
    ("from 31.2% to 44.6%", "31.2% -> 44.6%", True),
    ("up to 4.5x", "4.5 times", True),
    ("16%", "4-16%", False),
    ("1,000x", "1000x", True),
    ("an order of magnitude", "two orders of magnitude", False),
])
def test_values_match_by_the_numbers_they_state(a, b, same):
    assert (value_numbers(a) == value_numbers(b)) is same


@pytest.mark.parametrize("gold_metric, predicted, right", [
    ("training speed", "training speed improvement", True),
    ("inference time", "inference latency", False),
    ("MACs saved", "MACs", True),
    ("", "accuracy", False),
])
def test_free_text_metrics(gold_metric, predicted, right):
    assert metric_matches(gold_metric, predicted) is right


def test_a_complete_result_needs_subject_metric_value_and_dataset():
    report = score_results(gold(g("91.2%"), g("3x", metric="speedup", dataset=None)),
                           pred(p("91.2%"), p("3x", metric="speedup", dataset="e:c10")))
    assert report["values"]["recall"] == 1.0
    assert report["complete"] == {"share": 0.5, "complete": 1, "gold": 2}  # the speed-up is on no dataset
    assert report["fields"]["dataset"]["right"] == 1


def test_entities_match_through_names_aliases_and_mentions():
    report = score_results(gold(g("91.2%", baseline="ResNet-50")), pred(p("91.2%", baseline="e:rn")))
    assert report["fields"]["subject"]["accuracy"] == report["fields"]["baseline"]["accuracy"] == 1.0


def test_a_score_with_its_change_matches_one_gold_result_or_two():
    one = score_results(gold(g("44.9% (+2.8%)")), pred(p("44.9% (+2.8%)", number=44.9, delta="+2.8%")))
    two = score_results(gold(g("44.9%"), g("+2.8%")), pred(p("44.9% (+2.8%)", number=44.9, delta="+2.8%")))
    assert one["values"]["recall"] == two["values"]["recall"] == 1.0
    assert one["values"]["precision"] == two["values"]["precision"] == 1.0


def test_a_result_on_a_non_dataset_is_counted():
    report = score_results(gold(g("91.2%")), pred(p("91.2%", dataset="e:rn")))
    assert report["non_dataset"] == 1 and report["complete"]["complete"] == 0


def test_nothing_predicted_scores_zero_without_failing():
    report = score_results(gold(g("91.2%")), [{"id": "p", "entities": [], "results": []}])
    assert report["values"]["recall"] == 0.0 and report["complete"]["share"] == 0.0


def test_errors_name_the_missed_the_spurious_and_the_wrong_fields():
    [errors] = result_errors(gold(g("91.2%"), g("5%")), pred(p("91.2%", metric="recall"), p("7%")))
    assert errors["missed"] == ["5% accuracy"] and errors["spurious"] == ["7% accuracy"]
    assert errors["wrong"] == [{"value": "91.2%", "metric": ("accuracy", "recall")}]
