"""``kg train``: train spaCy components on an annotated corpus, the way ``spacy train`` does."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.common import input_errors

CORPORA = ("scierc", "tdmsci", "openreview")
#: The corpus a config trains on, read off its file name.
_CORPUS_OF_CONFIG = {"scierc": "scierc", "tdmsci": "tdmsci", "entities": "openreview"}


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("config", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--output",
    "-o",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for the converted corpus and the trained pipelines.",
)
@click.option(
    "--corpus",
    type=click.Choice(CORPORA),
    default=None,
    help="Corpus to train on (default: the one named in the config file's name).",
)
@click.option(
    "--data",
    "data_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Corpus folder (default: ../shared/data/<corpus>).",
)
@click.option(
    "--gold",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="openreview only: the annotation to train on (default tests/data/openreview_gold/train.jsonl).",
)
@click.option(
    "--folds",
    type=click.IntRange(min=2),
    default=None,
    help="openreview only: also train FOLDS models on parts of the annotation and write their "
    "out-of-fold predictions (OUTPUT/folds/out_of_fold.json) for kg train-linear.",
)
@click.option(
    "--ship",
    "ship_as",
    default=None,
    metavar="NAME",
    help="Copy OUTPUT/model-best to NAME: entities into the package (kg build runs it), "
         "any other into pipelines/NAME or $KG_PIPELINES/NAME.",
)
@click.pass_context
@input_errors("CONFIG must be a spaCy training config (configs/*.cfg) and the corpus folder hold its files; "
              "extra options override the config as in spacy train (--training.max_epochs 2)")
def train(ctx, config, output, corpus, data_dir, gold, folds, ship_as):
    """Train the pipeline of CONFIG on a corpus's train split (dev for model selection).

    Extra options override the config, as in spacy train
    (--training.max_epochs 2, --paths.init_tok2vec x.bin ...).
    The best pipeline is written to OUTPUT/model-best.

    \b
    Example:
      kg train configs/scierc.cfg --output training/scierc --ship scierc
      kg train configs/entities.cfg --output training/entities --folds 4 --ship entities
      kg train-linear all --learned-spans training/entities/folds/out_of_fold.json --ship
      kg evaluate scierc ../shared/data/scierc/dev.jsonl --pipeline training/scierc/model-best
    """
    from spacy.cli._util import parse_config_overrides

    from kg.train import train as run_training

    if corpus is None:
        corpus = next((c for key, c in _CORPUS_OF_CONFIG.items() if key in config.name.lower()), None)
        if corpus is None:
            raise click.UsageError("cannot tell the corpus from the config's name: pass --corpus")
    data_dir = data_dir or Path("..") / "shared" / "data" / corpus
    if not data_dir.is_dir():
        raise click.UsageError(f"corpus folder {data_dir} not found: pass --data")
    overrides = parse_config_overrides(ctx.args)
    if folds and corpus != "openreview":
        raise click.UsageError("--folds is for the openreview corpus (kg's own annotation)")
    summary = run_training(config, output, corpus=corpus, data_dir=data_dir, overrides=overrides, gold=gold)
    click.echo(f"trained in {summary['train_seconds']} s -> {summary['model_best']}")
    if ship_as:
        from kg.train import ship_model

        click.echo(f"shipped as {ship_model(summary['model_best'], ship_as)}")
    if folds:
        from kg.train import cross_predict
        from kg.train.convert import DEFAULT_GOLD

        path = cross_predict(config, output / "folds", data_dir=data_dir, gold=gold or DEFAULT_GOLD,
                             folds=folds, overrides=overrides)
        click.echo(f"out-of-fold predictions -> {path}")


LINEAR = ("choice", "entities", "proposals", "relations", "results")
#: The config setting that points a component at a decision's model, where it is not ``kg_<name>.model``.
_MODEL_SETTING = {"choice": "components.kg_entities.choice_model"}


@click.command("train-linear")
@click.argument("what", type=click.Choice(("names", *LINEAR, "all")))
@click.option("--gold", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="The annotation (default tests/data/openreview_gold/train.jsonl).")
@click.option("--data", "data_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=Path("..") / "shared" / "data" / "openreview", show_default=True,
              help="Folder of the annotated abstracts (*.jsonl with id and abstract).")
@click.option("--learned-spans", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Out-of-fold predictions of the recogniser (kg train --folds): the decisions learn "
              "from what the recogniser finds in abstracts it has not seen.")
@click.option("--output", "-o", type=click.Path(file_okay=False, path_type=Path), default=Path("training"),
              show_default=True, help="Folder for the trained models (<what>.npz, annotated_names.tsv.gz).")
@click.option("--c", "c", type=float, default=None,
              help="Inverse regularisation strength (default: each decision's, kg.train.linear.DEFAULT_C).")
@click.option("--config", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="spaCy config of the pipeline the decisions learn on (default: the shipped one); "
              "kg build --config with the same file then loads them (set each decision's model).")
@click.option("--ship", is_flag=True, help="Copy the models into kg/extract/models (what kg build loads).")
@input_errors("--gold must be the annotation (JSON Lines, as tests/data/openreview_gold/train.jsonl), --data a "
              "folder of the annotated abstracts and --learned-spans the JSON of kg train --folds")
def train_linear(what, gold, data_dir, learned_spans, output, c, config, ship):
    """Train kg's learned decisions on annotated abstracts: which of overlapping names is the
    whole name (choice), which names are entities and of which type (entities), what a paper
    proposes (proposals), how entities relate (relations), which numbers state results (results);
    and count how often the annotation names each phrase where it is written (names).

    Each decision is a logistic regression over features the components compute, fitted on
    the candidates kg's own pipeline produces on the annotated abstracts; ``all`` counts the
    names, then trains the five in order, each on the pipeline with the ones before it.

    \b
    Example:
      kg train-linear all --learned-spans training/entities/folds/out_of_fold.json --ship
    """
    import json

    from kg.extract.pipeline import load_pipeline
    from kg.train import linear
    from kg.train.convert import DEFAULT_GOLD

    gold = gold or DEFAULT_GOLD
    if not Path(gold).is_file():
        raise click.UsageError(f"no annotation at {gold}: pass --gold")
    spans = json.loads(Path(learned_spans).read_text(encoding="utf-8")) if learned_spans else None
    output.mkdir(parents=True, exist_ok=True)
    trainers = {"choice": linear.train_choice, "entities": linear.train_entities,
                "proposals": linear.train_proposals, "relations": linear.train_relations,
                "results": linear.train_results}
    overrides: dict = {}
    abstracts = tuple(sorted(Path(data_dir).glob("*.jsonl")))
    if what in ("names", "all"):
        from kg.train.annotated_names import annotated_names_of, write_annotated_names

        path = output / "annotated_names.tsv.gz"
        count = write_annotated_names(annotated_names_of((gold,), abstracts), path)
        click.echo(f"names: {count} annotated in two abstracts or more -> {path}")
        overrides["components.kg_entities.annotated_names"] = str(path.resolve())
        overrides["components.kg_relations.annotated_names"] = str(path.resolve())
        _ship(path, ship)
    for name in LINEAR if what == "all" else () if what == "names" else (what,):
        nlp = load_pipeline(config, overrides=overrides)
        path = output / f"{name}.npz"
        summary = trainers[name](nlp, [gold], abstracts, path,
                                 c=linear.DEFAULT_C[name] if c is None else c, learned_spans=spans)
        click.echo(f"{name}: {summary} -> {path}")
        overrides[_MODEL_SETTING.get(name, f"components.kg_{name}.model")] = str(path.resolve())
        _ship(path, ship)


def _ship(path: Path, ship: bool) -> None:
    """Copy a trained model into kg/extract/models when ``ship``."""
    if ship:
        import shutil

        from kg.extract.models import MODELS_DIR

        shutil.copyfile(path, MODELS_DIR / path.name)
        click.echo(f"shipped as {MODELS_DIR / path.name}")
