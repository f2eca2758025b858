"""The public surface: commands, registered spaCy names."""

import subprocess
import sys

from click.testing import CliRunner

from kg.cli import main

COMMANDS = ["build", "extract", "evaluate", "train", "export", "query", "serve", "viz", "map"]


def test_every_top_level_command_is_registered_with_help():
    result = CliRunner().invoke(main, ["--help"])
    for name in COMMANDS:
        assert name in result.output
        assert CliRunner().invoke(main, [name, "--help"]).exit_code == 0


def test_spacy_finds_kg_components_without_importing_kg():
    code = (
        "import spacy; nlp = spacy.blank('en');"
        "[nlp.add_pipe(n) for n in ('kg_pos', 'kg_abbreviations', 'kg_relations', 'kg_results')];"
        "print(nlp.pipe_names)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['kg_pos', 'kg_abbreviations', 'kg_relations', 'kg_results']"


def _registered_in_source() -> dict[str, set[str]]:
    """Every spaCy registry name kg's source registers, by entry-point group."""
    import re
    from pathlib import Path

    found: dict[str, set[str]] = {}
    for path in (Path(__file__).resolve().parents[1] / "kg").rglob("*.py"):
        text = path.read_text("utf-8")
        for name in re.findall(r'@Language\.(?:factory|component)\(\s*"([^"]+)"', text):
            found.setdefault("spacy_factories", set()).add(name)
        for registry, name in re.findall(r'@registry\.(\w+)\("([^"]+)"\)', text):
            found.setdefault(f"spacy_{registry}", set()).add(name)
    return found


def test_every_registered_spacy_name_has_an_entry_point_and_resolves_without_importing_kg():
    """spaCy finds each by its entry point when it loads a config or a saved pipeline; none
    depends on a module of kg having been imported first (issue 15)."""
    import json
    from importlib.metadata import entry_points

    registered = _registered_in_source()
    assert registered["spacy_factories"] >= {"kg_entities", "kg_learned_entities", "kg_relation_classifier"}
    declared = {group: {e.name for e in entry_points(group=group)} for group in registered}
    assert {g: sorted(n - declared[g]) for g, n in registered.items() if n - declared[g]} == {}
    names = {g: sorted(n) for g, n in registered.items() if g != "spacy_factories"}
    code = (
        "import json, spacy\n"
        f"for group, names in json.loads({json.dumps(json.dumps(names))}).items():\n"
        "    table = getattr(spacy.registry, group.removeprefix('spacy_'))\n"
        "    [table.get(name) for name in names]\n"
        f"for name in {sorted(registered['spacy_factories'])!r}:\n"
        "    assert spacy.language.Language.has_factory(name) or spacy.blank('en').add_pipe(name), name\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert out.returncode == 0, out.stderr


def test_the_wheel_ships_the_ontology_and_stays_small(tmp_path):
    """``ontology/`` is at the top of the repository; ``kg/ontology`` links to it so that
    the wheel carries the files (``kg.namespace.ontology_file``)."""
    import shutil
    import zipfile
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    source = tmp_path / "src"  # a copy: building writes build/ into the source tree
    shutil.copytree(root, source, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "venv", "build", "out", "training", "*.egg-info", "__pycache__", ".kg-cache",
        "notebooks", "benchmarks", "examples"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, check=False,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("research_kg-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"kg/ontology/kg.ttl", "kg/ontology/shapes.ttl", "kg/ontology/README.md"} <= names
    assert {f"kg/query/serve/assets/page.{ext}" for ext in ("html", "js", "css")} <= names  # kg serve's page
    # what kg build loads is in; the pipelines only kg evaluate --pipeline uses are not (issue 15)
    assert "kg/extract/models/entities/config.cfg" in names
    assert not any("scierc" in n or "tdmsci" in n for n in names if n.startswith("kg/extract/models"))
    assert wheel.stat().st_size < 10_000_000
    shipped = zipfile.ZipFile(wheel).read("kg/ontology/kg.ttl")
    assert shipped == (root / "ontology" / "kg.ttl").read_bytes()



#: Keyword arguments of networkx functions kg calls -> the first networkx release that has them.
NETWORKX_KEYWORDS = {("node_link_data", "edges"): "3.4", ("node_link_graph", "edges"): "3.4"}


def test_the_networkx_floor_has_every_networkx_keyword_kg_calls():
    """`networkx>=3.2` once let pip install 3.3, where `node_link_data(edges=...)` raises
    TypeError and `kg build` fails; the floor in pyproject.toml must be a release that has
    every keyword kg passes."""
    import re
    from pathlib import Path

    from packaging.version import Version

    root = Path(__file__).resolve().parents[1]
    spec = re.search(r'"networkx>=\s*([\d.]+)', (root / "pyproject.toml").read_text())
    floor = Version(spec.group(1))
    source = "\n".join(path.read_text("utf-8") for path in (root / "kg").rglob("*.py"))
    used = {(function, keyword) for function, keyword in NETWORKX_KEYWORDS
            if re.search(rf"nx\.{function}\([^)]*\b{keyword}=", source)}
    assert used, "kg no longer calls these: update NETWORKX_KEYWORDS"
    for function, keyword in used:
        assert floor >= Version(NETWORKX_KEYWORDS[function, keyword]), (spec, function, keyword)
