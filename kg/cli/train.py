"""``kg train``: train spaCy components on an annotated corpus, the way ``spacy train`` does."""

from __future__ import annotations

from pathlib import Path

import click

CORPORA = ("scierc", "tdmsci")


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
    "--ship",
    "ship_as",
    default=None,
    metavar="NAME",
    help="Copy OUTPUT/model-best into kg/extract/models/NAME (the shipped pipeline).",
)
@click.pass_context
def train(ctx, config, output, corpus, data_dir, ship_as):
    """Train the pipeline of CONFIG on a corpus's train split (dev for model selection).

    Extra options override the config, as in spacy train
    (--training.max_epochs 2, --paths.init_tok2vec x.bin ...).
    The best pipeline is written to OUTPUT/model-best.

    \b
    Example:
      kg train configs/scierc.cfg --output training/scierc --ship scierc
      kg evaluate scierc ../shared/data/scierc/dev.jsonl --pipeline training/scierc/model-best
    """
    from spacy.cli._util import parse_config_overrides

    from kg.train import train as run_training

    if corpus is None:
        corpus = next((name for name in CORPORA if name in config.name.lower()), None)
        if corpus is None:
            raise click.UsageError("cannot tell the corpus from the config's name: pass --corpus")
    data_dir = data_dir or Path("..") / "shared" / "data" / corpus
    if not data_dir.is_dir():
        raise click.UsageError(f"corpus folder {data_dir} not found: pass --data")
    overrides = parse_config_overrides(ctx.args)
    summary = run_training(config, output, corpus=corpus, data_dir=data_dir, overrides=overrides)
    click.echo(f"trained in {summary['train_seconds']} s -> {summary['model_best']}")
    if ship_as:
        from kg.train import ship_model

        click.echo(f"shipped as {ship_model(summary['model_best'], ship_as)}")
