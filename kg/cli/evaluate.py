"""``kg evaluate``: score extraction against gold annotations."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from kg.cli.common import input_errors

_PAPERS = ("GOLD and PREDICTED must be JSON Lines of papers with entities (papers.jsonl of kg build; "
           "the gold format is tests/data/seeds_gold.jsonl)")
_CORPUS = ("PATH must be the corpus file named (SciERC JSON lines, TDMSci CoNLL), and --pipeline a trained "
           "pipeline folder or a shipped name, --config a spaCy config (see kg/extract/default.cfg)")


@click.group()
def evaluate():
    """Score extraction against gold annotations."""


@evaluate.command("names")
@click.argument("gold", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("predicted", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help="Print the report as JSON (with --errors: {scores, errors}).")
@click.option("--errors", "show_errors", is_flag=True,
              help="Also list, per paper, missed, spurious and wrongly typed names.")
@input_errors(_PAPERS)
def evaluate_names(gold, predicted, as_json, show_errors):
    """Score PREDICTED papers.jsonl against GOLD entity names by type (per paper).

    \b
    Example:
      kg build examples/iclr2025 -o out
      kg evaluate names tests/data/seeds_gold.jsonl out/papers.jsonl --errors
    """
    import json

    from kg.evaluate.names import name_errors, score_names

    def load(path):
        with path.open(encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]

    gold_papers, predicted_papers = load(gold), load(predicted)
    report = score_names(gold_papers, predicted_papers)
    errors = list(name_errors(gold_papers, predicted_papers)) if show_errors else None
    if as_json:
        click.echo(json.dumps(report if errors is None else {"scores": report, "errors": errors}, indent=1))
        return
    for paper in errors or ():
        click.echo(paper["paper"])
        for kind in ("missed", "spurious", "wrong_type"):
            for item in paper[kind]:
                click.echo(f"  {kind:<10} " + " / ".join(item))
    _print_scores(report)


@evaluate.command("results")
@click.argument("gold", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("predicted", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help="Print the report as JSON (with --errors: {scores, errors}).")
@click.option("--errors", "show_errors", is_flag=True,
              help="Also list, per paper, missed and spurious results and wrong fields.")
def evaluate_results(gold, predicted, as_json, show_errors):
    """Score PREDICTED papers.jsonl results against GOLD result records (per paper).

    Values match when they state the same numbers; then subject, metric,
    dataset, task, baseline and direction are checked on each matched pair.
    "complete" is the share of gold results found with subject, metric, value
    and dataset all right (kg/evaluate/results.py says how fields compare).

    \b
    Example:
      python scripts/openreview_sample.py tests/data/openreview_gold/dev.jsonl -o /tmp/dev.jsonl
      kg build /tmp/dev.jsonl -o /tmp/dev
      kg evaluate results tests/data/openreview_gold/dev.jsonl /tmp/dev/papers.jsonl
    """
    import json

    from kg.evaluate.results import result_errors, score_results

    try:
        gold_papers, predicted_papers = _load_jsonl(gold), _load_jsonl(predicted)
        report = score_results(gold_papers, predicted_papers)
        errors = list(result_errors(gold_papers, predicted_papers)) if show_errors else None
    except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError, AttributeError, ValueError) as error:
        from kg.cli.common import EXIT_FAILED, err

        err.print(f"[red]error:[/] expected GOLD as result annotations and PREDICTED as a papers.jsonl "
                  f"(JSON Lines, one paper per line): {type(error).__name__}: {error}", highlight=False)
        raise SystemExit(EXIT_FAILED) from None
    if as_json:
        click.echo(json.dumps(report if errors is None else {"scores": report, "errors": errors}, indent=1,
                              ensure_ascii=False))
        return
    for paper in errors or ():
        click.echo(paper["paper"])
        for kind in ("missed", "spurious"):
            for item in paper[kind]:
                click.echo(f"  {kind:<10} {item}")
        for item in paper["wrong"]:
            fields = "; ".join(f"{k}: {v[0]!r} -> {v[1]!r}" for k, v in item.items() if k != "value")
            click.echo(f"  {'wrong':<10} {item['value']}: {fields}")
    _print_scores({"values": report["values"]})
    table = Table(show_edge=False)
    for column in ("field", "accuracy", "right", "matched"):
        table.add_column(column, justify="left" if column == "field" else "right")
    for name, s in report["fields"].items():
        table.add_row(name, f"{s['accuracy']:.3f}", str(s["right"]), str(s["matched"]))
    Console().print(table)
    c = report["complete"]
    click.echo(f"complete and correct (subject, metric, value, dataset): {c['complete']}/{c['gold']} = {c['share']:.3f}")
    click.echo(f"results on a non-Dataset entity: {report['non_dataset']}")


def _load_jsonl(path: Path) -> list[dict]:
    import json

    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@evaluate.command("graph")
@click.argument("build_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--top", default=10, show_default=True, help="Entities per type in the top lists.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole report as JSON.")
@input_errors("BUILD_DIR must hold a kg build (run `kg build INPUTS -o BUILD_DIR`)")
def evaluate_graph(build_dir, top, as_json):
    """Check the graph in BUILD_DIR (a build directory) without a gold: top entities per type
    (generic classes left out), aliases naming another catalogue entry, generic classes with
    catalogue ids, types differing from the catalogue, ids not made from names.

    \b
    Example:
      kg build ../shared/data/openreview/icml2024.jsonl -o icml
      kg evaluate graph icml
    """
    import json

    from kg.builddir import BuildDir
    from kg.evaluate.graph import graph_checks, summary_counts

    report = graph_checks(BuildDir(build_dir).read_graph(), top=top)
    if as_json:
        click.echo(json.dumps(report, indent=1, ensure_ascii=False))
        return
    for kind, rows in report["top"].items():
        click.echo(f"{kind}: " + ", ".join(f"{r['name']} ({r['papers']})" for r in rows))
    for problem, count in summary_counts(report).items():
        click.echo(f"{problem}: {count}")


def _load_nlp(pipeline: str | None, config: Path | None):
    """A trained pipeline (a folder, or the name of a shipped one), else kg's rule pipeline."""
    if pipeline is not None:
        import spacy

        from kg.train import load_trained

        if Path(pipeline).is_dir() or spacy.util.is_package(pipeline):
            return spacy.load(pipeline)
        return load_trained(pipeline)  # a name: its error says where it looked
    from kg.extract import load_pipeline

    return load_pipeline(config)


def _corpus_options(function):
    options = [
        click.option("--pipeline", "pipeline", default=None, metavar="DIR|NAME",
                     help="A trained spaCy pipeline folder, or the name of one in pipelines/ (scierc, tdmsci; pipelines/README.md)."),
        click.option("--config", "config", default=None,
                     type=click.Path(exists=True, dir_okay=False, path_type=Path),
                     help="A kg pipeline config (default: kg's default pipeline)."),
        click.option("--json", "json_path", default=None,
                     type=click.Path(dir_okay=False, path_type=Path),
                     help="Write the report as JSON to this file ('-' for stdout)."),
        click.option("--predictions", "predictions_path", default=None,
                     type=click.Path(dir_okay=False, path_type=Path),
                     help="Write the predictions to this file."),
        click.option("--spans-key", default=None,
                     help="Read predicted entities from doc.spans[KEY] ('ents': doc.ents; "
                          "default: found from the pipeline)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def _entity_source(spans_key, nlp, label_map, keep=None):
    from kg.evaluate.spans import EntitySource, entity_source

    if spans_key is None:
        return entity_source(nlp, label_map, keep=keep)
    key = None if spans_key == "ents" else spans_key
    return EntitySource(key, label_map if spans_key == "kg_entities" else None,
                        frozenset(keep) if keep is not None else None)


def _write_report(report: dict, json_path: Path | None) -> None:
    import json

    if json_path is None:
        return
    text = json.dumps(report, indent=1)
    if str(json_path) == "-":
        click.echo(text)
    else:
        json_path.write_text(text + "\n", encoding="utf-8")


@evaluate.command("scierc")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_corpus_options
@input_errors(_CORPUS)
def evaluate_scierc(path, pipeline, config, json_path, predictions_path, spans_key):
    """Score a pipeline on SciERC JSON lines (entities; relations, plain and strict).

    Entities: exact token span + type. Relations: both argument spans exact and
    the label ("relation F1"); strict: the argument types too. See docs/quality.md.

    \b
    Example:
      kg evaluate scierc ../shared/data/scierc/test.jsonl --pipeline scierc --json scierc.json
    """
    import json

    from kg.evaluate import scierc

    nlp = _load_nlp(pipeline, config)
    source = _entity_source(spans_key, nlp, scierc.KG_TO_SCIERC)
    report, predictions = scierc.evaluate_scierc(scierc.read_scierc(path), nlp, source=source)
    report["path"] = str(path)
    report["pipeline"] = pipeline or str(config or "kg default")
    if predictions_path is not None:
        with predictions_path.open("w", encoding="utf-8") as handle:
            for record in predictions:
                handle.write(json.dumps(record) + "\n")
    if str(json_path) != "-":
        _print_header(report, "docs_per_second", "abstracts/s")
        for part, title in (("entities", "entities"), ("relations", "relations (spans + label)"),
                            ("relations_strict", "relations, strict (spans + types + label)")):
            _print_scores(report[part], title=title)
    _write_report(report, json_path)


@evaluate.command("tdmsci")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_corpus_options
@input_errors(_CORPUS)
def evaluate_tdmsci(path, pipeline, config, json_path, predictions_path, spans_key):
    """Score a pipeline on TDMSci CoNLL (TASK / DATASET / METRIC; exact span + type).

    Predictions of other types (Method, Model) are ignored. Predictions are
    written as CoNLL: token, offset, gold tag, predicted tag.

    \b
    Example:
      kg evaluate tdmsci ../shared/data/tdmsci/test.conll --pipeline tdmsci --json tdmsci.json
    """
    from kg.evaluate import tdmsci

    nlp = _load_nlp(pipeline, config)
    source = _entity_source(spans_key, nlp, tdmsci.KG_TO_TDMSCI, keep=tdmsci.LABELS)
    report, predictions = tdmsci.evaluate_tdmsci(tdmsci.read_conll(path), nlp, source=source)
    report["path"] = str(path)
    report["pipeline"] = pipeline or str(config or "kg default")
    if predictions_path is not None:
        tdmsci.write_conll(predictions, predictions_path)
    if str(json_path) != "-":
        _print_header(report, "sentences_per_second", "sentences/s")
        _print_scores(report["entities"], title="entities")
    _write_report(report, json_path)


def _print_header(report: dict, rate_key: str, unit: str) -> None:
    Console().print(
        f"{report['corpus']} {report['path']}: pipeline {report['pipeline']}, "
        f"entities from {report['entity_source']}; {report['seconds']} s, {report[rate_key]} {unit}"
    )


def _print_scores(report: dict, title: str | None = None) -> None:
    table = Table(show_edge=False, title=title, title_justify="left")
    for column in ("", "precision", "recall", "F1", "tp", "predicted", "gold"):
        table.add_column(column, justify="left" if not column else "right")
    for name, s in report.items():
        table.add_row(name, f"{s['precision']:.3f}", f"{s['recall']:.3f}", f"{s['f1']:.3f}",
                      str(s["tp"]), str(s["predicted"]), str(s["gold"]))
    Console().print(table)
