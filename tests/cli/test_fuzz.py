"""Random bad arguments and paths to every kg command: never a traceback.

Hypothesis picks a command (every leaf of the ``kg`` command tree, found by walking it, so a
new command is fuzzed too), a few of its options with values of the wrong kind, ranges or
choices, and paths that are wrong in the ways users get them wrong (missing, a file where a
directory is wanted, a directory with nothing kg reads, a half-written build, a path under a
file, binary or broken files). The command must end with a documented exit code (0-3) and,
when it fails, with one line on stderr naming the problem; no exception may escape, and the
catch-all for unforeseen errors (``error: unexpected ...``) must never be reached.

The paths are never a complete build, so no server starts and no extraction runs.
"""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.cli import main


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], click.Command]:
    found: dict[tuple[str, ...], click.Command] = {}
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found.update(_commands(command, (*prefix, name)))
        else:
            found[(*prefix, name)] = command
    return found


COMMANDS = _commands(main)
PATH_NAMES = ["missing", "empty.txt", "blob.bin", "junk.json", "noabs.jsonl", "emptydir", "docsdir", "halfbuild",
              "blob.bin/sub", "wéird dir/with space", "notgraph", ""]
#: Values of the wrong kind for any option: numbers out of range, text where numbers go, odd text.
ODD_VALUES = ["-1", "0", "1000000000000", "nan", "-0.5", "1e308", "x", "'; DROP", "$x", "{", "=1", "--", "-"]
#: Options left at their default: they would start real work no argument here can stop early.
FIXED = {"engine", "scheduler", "password", "host", "port", "workers"}


@pytest.fixture(scope="module")
def bad_paths(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    (root / "empty.txt").write_bytes(b"")
    (root / "blob.bin").write_bytes(b"\x00\x01PK\x03\x04" * 40)
    (root / "junk.json").write_text("{", encoding="utf-8")
    (root / "noabs.jsonl").write_text(json.dumps({"name": "x", "desc": "no abstract field"}) + "\n", encoding="utf-8")
    (root / "emptydir").mkdir()
    (root / "docsdir").mkdir()
    (root / "docsdir" / "README.md").write_text("# notes\n\nNot abstracts.\n", encoding="utf-8")
    (root / "halfbuild").mkdir()
    (root / "halfbuild" / "manifest.jsonl").write_text("", encoding="utf-8")
    (root / "notgraph").mkdir()
    (root / "notgraph" / "graph.json").write_text('{"nodes": 3}', encoding="utf-8")
    (root / "wéird dir").mkdir()
    return root


@st.composite
def invocations(draw, root):
    path = st.sampled_from(PATH_NAMES).map(lambda name: str(root / name) if name else "")
    words = list(draw(st.sampled_from(sorted(COMMANDS))))
    command = COMMANDS[tuple(words)]
    args = list(words)
    for param in command.params:
        if param.name in FIXED or param.name == "help":
            continue
        if isinstance(param, click.Argument):
            count = 1 if param.nargs == 1 else draw(st.integers(0, 2))
            for _ in range(count):
                if draw(st.booleans()) or param.required:
                    args.append(draw(st.one_of(path, st.sampled_from(ODD_VALUES))))
            continue
        if not draw(st.integers(0, 3)) == 0:
            continue
        flag = max(param.opts, key=len)
        if param.is_flag:
            args.append(draw(st.sampled_from([*param.opts, *param.secondary_opts])))
            continue
        if isinstance(param.type, click.Choice):
            value = draw(st.one_of(st.sampled_from(list(param.type.choices)), st.sampled_from(ODD_VALUES)))
        else:
            value = draw(st.one_of(path, st.sampled_from(ODD_VALUES), st.text(min_size=0, max_size=12).filter(
                lambda text: "\x00" not in text)))
        args.extend([flag, value])
    if draw(st.integers(0, 5)) == 0:
        args.append(draw(st.sampled_from(["--no-such-option", "extra-argument", "-q"])))
    return args


@pytest.mark.timeout(1500)
def test_random_bad_arguments_and_paths_never_end_in_a_traceback(bad_paths, tmp_path_factory, monkeypatch):
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
    monkeypatch.setenv("NEO4J_PASSWORD", "wrong")  # never prompted for
    monkeypatch.delenv("KG_DEBUG", raising=False)
    tried: set[tuple[str, ...]] = set()
    codes: list[int] = []

    @settings(max_examples=600, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(invocations(bad_paths))
    def run(args):
        result = CliRunner().invoke(main, args, catch_exceptions=True)
        codes.append(result.exit_code)
        tried.add(tuple(a for a in args[:2] if not a.startswith(("-", "/"))))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"kg {' '.join(args)}: uncaught {type(result.exception).__name__}: "
                                 f"{result.exception}") from result.exception
        output = result.output
        assert "Traceback" not in output, (args, output)
        assert "this is a bug in kg" not in output, (args, output)
        assert result.exit_code in (0, 1, 2, 3), (args, result.exit_code, output)
        if result.exit_code in (1, 3):
            errors = [line for line in output.splitlines() if line.startswith(("error:", "Error:"))]
            assert len(errors) <= 1, (args, output)

    run()
    assert len(codes) >= 300 and codes.count(1) >= 20, (len(codes), sorted(set(codes)))  # not all usage errors
    assert len({words[0] for words in tried}) >= len({words[0] for words in COMMANDS}) - 1, tried
