from kg.evaluate.names import score_names


def gold_entity(name, kind, proposed=False, aliases=()):
    return {"name": name, "type": kind, "proposed": proposed, "aliases": list(aliases)}


def test_scores_count_alias_matches_types_and_proposals():
    gold = [{"file": "a.txt", "index": 0, "entities": [
        gold_entity("GNN", "Method", aliases=["graph neural network"]),
        gold_entity("Zorb", "Method", proposed=True),
        gold_entity("MNIST", "Dataset"),
        gold_entity("accuracy", "Metric"),
    ]}]
    predicted = [{"source": {"path": "/x/a.txt", "index": 0}, "entities": [
        {"name": "Graph Neural Networks", "type": "Method", "proposed": False, "mentions": []},
        {"name": "Zorb", "type": "Method", "proposed": True, "mentions": []},
        {"name": "MNIST", "type": "Method", "proposed": False, "mentions": []},
        {"name": "junk", "type": "Task", "proposed": False, "mentions": []},
    ]}]
    report = score_names(gold, predicted)
    assert (report["untyped"]["tp"], report["untyped"]["predicted"], report["untyped"]["gold"]) == (3, 4, 4)
    assert report["typed"]["tp"] == 2
    assert report["typed"]["precision"] == 0.5 and report["typed"]["recall"] == 0.5
    assert report["proposed"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "tp": 1, "predicted": 1, "gold": 1}
    assert report["Dataset"]["recall"] == 0.0 and report["Task"]["precision"] == 0.0


def test_a_paper_without_a_title_matches_by_the_id_its_input_record_gave_it():
    gold = [{"id": "openreview:Zorb1", "title": "Zorb", "entities": [gold_entity("Zorb", "Method", proposed=True)]}]
    predicted = [{"id": "paper:1f", "source": {"path": "in.jsonl", "index": 0, "id": "openreview:Zorb1"},
                  "title": None, "entities": [{"name": "Zorb", "type": "Method", "proposed": True}]}]
    assert score_names(gold, predicted)["typed"]["tp"] == 1


def test_each_gold_entity_matches_once():
    gold = [{"id": "p", "entities": [gold_entity("LLM", "Method")]}]
    predicted = [{"id": "p", "entities": [
        {"name": "LLM", "type": "Method", "proposed": False},
        {"name": "LLMs", "type": "Method", "proposed": False},
    ]}]
    report = score_names(gold, predicted)
    assert report["untyped"]["tp"] == 1 and report["untyped"]["predicted"] == 2


def test_missing_prediction_for_a_paper_counts_as_misses():
    gold = [{"id": "p", "entities": [gold_entity("LLM", "Method")]}]
    assert score_names(gold, [])["untyped"]["recall"] == 0.0


def test_errors_list_what_the_scores_count():
    from kg.evaluate.names import name_errors

    gold = [
        {"id": "p", "entities": [gold_entity("GNN", "Method"), gold_entity("MNIST", "Dataset"),
                                 gold_entity("parsing", "Task")]},
        {"id": "q", "entities": [gold_entity("BLEU", "Metric")]},
    ]
    predicted = [
        {"id": "p", "entities": [{"name": "GNNs", "type": "Method"}, {"name": "MNIST", "type": "Model"},
                                 {"name": "our method", "type": "Method"}]},
        {"id": "q", "entities": [{"name": "BLEU", "type": "Metric"}]},
    ]
    errors = list(name_errors(gold, predicted))
    assert errors == [{"paper": "p", "missed": [("parsing", "Task")],
                       "spurious": [("our method", "Method")],
                       "wrong_type": [("MNIST", "Dataset", "Model")]}]
    report = score_names(gold, predicted)
    assert report["untyped"]["predicted"] - report["untyped"]["tp"] == len(errors[0]["spurious"])
    assert report["typed"]["tp"] == 2


def test_cli_prints_errors_per_paper(tmp_path):
    import json

    from click.testing import CliRunner

    from kg.cli import main

    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "p", "entities": [gold_entity("parsing", "Task")]}) + "\n")
    pred = tmp_path / "papers.jsonl"
    pred.write_text(json.dumps({"id": "p", "entities": [{"name": "tagging", "type": "Task"}]}) + "\n")
    result = CliRunner().invoke(main, ["evaluate", "names", str(gold), str(pred), "--errors"])
    assert result.exit_code == 0, result.output
    assert "missed     parsing / Task" in result.output
    assert "spurious   tagging / Task" in result.output
    as_json = CliRunner().invoke(main, ["evaluate", "names", str(gold), str(pred), "--errors", "--json"])
    report = json.loads(as_json.output)
    assert report["scores"]["Task"]["f1"] == 0.0
    assert report["errors"] == [{"paper": "p", "missed": [["parsing", "Task"]],
                                 "spurious": [["tagging", "Task"]], "wrong_type": []}]


def test_relations_score_on_matched_entities_and_predicate():
    gold = [{"id": "openreview:x", "title": "A Paper", "entities": [
        gold_entity("Zorb", "Method", proposed=True), gold_entity("MNIST", "Dataset"),
        gold_entity("GNN", "Method", aliases=["graph neural network"])],
        "relations": [{"subject": "Zorb", "predicate": "evaluated_on", "object": "MNIST"},
                      {"subject": "Zorb", "predicate": "extends", "object": "GNN"}]}]
    predicted = [{"id": "paper:123", "title": "A  paper", "entities": [
        {"id": "entity:zorb", "name": "Zorb", "type": "Method"},
        {"id": "entity:mnist", "name": "MNIST", "type": "Dataset"},
        {"id": "entity:graph-neural-network", "name": "graph neural networks", "type": "Method"},
        {"id": "entity:junk", "name": "junk", "type": "Method"},
        {"id": "entity:noise", "name": "noise", "type": "Method"}],
        "relations": [{"subject": "entity:zorb", "predicate": "evaluated_on", "object": "entity:mnist"},
                      {"subject": "entity:zorb", "predicate": "uses", "object": "entity:graph-neural-network"},
                      {"subject": "entity:junk", "predicate": "uses", "object": "entity:noise"},
                      {"subject": "entity:noise", "predicate": "uses", "object": "entity:junk"}]}]
    report = score_names(gold, predicted)  # matched by title: the ids differ
    assert report["typed"]["tp"] == 3
    # two relations between entities no gold one matches are two wrong predictions
    assert (report["relations"]["tp"], report["relations"]["predicted"], report["relations"]["gold"]) == (1, 4, 2)
    assert report["relations_untyped"]["tp"] == 2


def test_no_relation_scores_without_gold_relations():
    gold = [{"id": "p", "entities": [gold_entity("LLM", "Method")]}]
    assert "relations" not in score_names(gold, [])
