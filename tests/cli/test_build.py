import json

import pytest
from click.testing import CliRunner

from kg.cli import main

COMMANDS = [[], ["build"], ["extract"], ["evaluate"], ["evaluate", "names"]]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command):
    result = CliRunner().invoke(main, [*command, "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output


def test_build_writes_outputs_and_summary(tmp_path):
    source = tmp_path / "list.txt"
    source.write_text("NeurIPS 2024 Papers\n\nWe propose Zorbnet, a novel framework. "
                      "Experiments on MNIST show gains. Code: https://github.com/x/zorbnet.\n",
                      encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(source), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "1 papers read" in result.output and "Zorbnet" in result.output
    record = json.loads((tmp_path / "out" / "papers.jsonl").read_text())
    assert (record["venue"], record["year"]) == ("NeurIPS", 2024)
    assert record["code_urls"] == ["https://github.com/x/zorbnet"]
    for name in ("graph.json", "graph.graphml", "graph.ttl", "manifest.jsonl", "summary.json"):
        assert (tmp_path / "out" / name).stat().st_size > 0


def test_extract_writes_only_records(tmp_path):
    source = tmp_path / "a.jsonl"
    source.write_text('{"abstract": "We introduce Quorbit, a benchmark for agents."}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["extract", str(source), "-o", str(tmp_path / "p.jsonl"), "-q"])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "p.jsonl").read_text())
    assert [(e["name"], e["type"], e["proposed"]) for e in record["entities"]] == [("Quorbit", "Dataset", True)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "p.jsonl"]


def test_exit_codes_for_missing_and_skipped_input(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(main, ["build", str(tmp_path / "nope.txt"), "-o", str(tmp_path / "o")])
    assert missing.exit_code == 1 and "nope.txt" in missing.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"abstract": "We propose Zorb."}\n{oops\n', encoding="utf-8")
    skipped = runner.invoke(main, ["build", str(bad), "-o", str(tmp_path / "o2")])
    assert skipped.exit_code == 3 and "bad.jsonl:2" in skipped.output
    failed = runner.invoke(main, ["build", str(bad), "-o", str(tmp_path / "o3"), "--on-error", "fail"])
    assert failed.exit_code == 1 and "bad.jsonl:2" in failed.output


def test_a_broken_pipeline_config_is_one_line_naming_it(tmp_path):
    from kg.extract.pipeline import DEFAULT_CONFIG

    abstracts = tmp_path / "a.jsonl"
    abstracts.write_text('{"abstract": "We propose Zorb."}\n', encoding="utf-8")
    text = DEFAULT_CONFIG.read_text("utf-8")
    twice = text.replace("[components.kg_relations]\n", "[components.kg_relations]\nthreshold = 0.5\n", 1)
    wrong = text.replace("max_long_form_words = 10", "max_long_form_words = ten", 1)
    for name, broken in (("twice.cfg", twice), ("wrong.cfg", wrong)):
        config = tmp_path / name
        config.write_text(broken, encoding="utf-8")
        result = CliRunner().invoke(main, ["build", str(abstracts), "-o", str(tmp_path / name[:-4]),
                                           "--config", str(config), "--no-cache", "--quiet"])
        assert result.exit_code == 1
        line = _one_error_line(result)
        assert name in line and "not a usable pipeline config" in line and "bug in kg" not in line


def _one_error_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert "Traceback" not in result.output
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


def test_a_build_into_a_path_under_a_file_is_one_line_and_touches_nothing(tmp_path):
    source = tmp_path / "a.jsonl"
    source.write_text('{"abstract": "We introduce Quorbit, a benchmark for agents."}\n', encoding="utf-8")
    (tmp_path / "afile").write_text("x")
    result = CliRunner().invoke(main, ["build", str(source), "-o", str(tmp_path / "afile" / "sub"), "-q"])
    assert result.exit_code == 1
    assert str(tmp_path / "afile") in _one_error_line(result)
    assert (tmp_path / "afile").read_text() == "x"


def test_a_failed_build_leaves_no_output_directory_behind(tmp_path):
    """Issue 14, item 10: a build that fails (here: no record has an abstract) once left
    OUTDIR holding .kg-cache/extractions.sqlite."""
    source = tmp_path / "a.jsonl"
    source.write_text('{"name": "x", "desc": "We propose Zorbnet."}\n{"name": "y"}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(source), "-o", str(tmp_path / "new" / "out")])
    assert result.exit_code == 1
    line = _one_error_line(result)
    assert "no paper built: 2 records skipped" in line and "no field abstract, summary" in line
    assert "docs/inputs.md" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl"]  # no new/, no out/, no cache


def test_a_failed_build_into_an_existing_directory_removes_only_what_it_created(tmp_path):
    source = tmp_path / "a.jsonl"
    source.write_text('{"name": "x"}\n', encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("keep")
    result = CliRunner().invoke(main, ["build", str(source), "-o", str(out), "-q"])
    assert result.exit_code == 1
    assert sorted(p.name for p in out.iterdir()) == ["mine.txt"]


def test_jsonl_in_a_txt_file_is_read_as_json_lines_and_the_manifest_says_so(tmp_path):
    """Issue 14, item 5: read as a text list, this was one paper of JSON text (239 'methods')."""
    source = tmp_path / "records.txt"
    source.write_text("".join(json.dumps({"title": f"T{i}", "abstract": f"We propose Zorbnet{i}, a model."}) + "\n"
                              for i in range(3)), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(source), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "read as jsonl" in result.output
    manifest = [json.loads(line) for line in (tmp_path / "out" / "manifest.jsonl").read_text("utf-8").splitlines()]
    assert [row["outcome"] for row in manifest] == ["read", "built", "built", "built"]
    assert "JSON Lines in a .txt file: read as jsonl" in manifest[0]["reason"]
    titles = [json.loads(line)["title"] for line in (tmp_path / "out" / "papers.jsonl").read_text("utf-8").splitlines()]
    assert sorted(titles) == ["T0", "T1", "T2"]


def test_every_file_of_an_input_directory_is_in_the_manifest(tmp_path):
    """Issue 14, items 6 and 7: a .bin file never appeared in the manifest, and a SOURCE.md
    was read as 14 abstracts."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "papers.jsonl").write_text(json.dumps({"abstract": "We propose Zorbnet, a model."}) + "\n",
                                       encoding="utf-8")
    (data / "SOURCE.md").write_text("# Where the data is from\n\n" + "A paragraph of notes.\n\n" * 14,
                                    encoding="utf-8")
    (data / "LICENSE").write_text("CC BY 4.0\n")
    (data / "dump.bin").write_bytes(b"\x00\x01\x02")
    result = CliRunner().invoke(main, ["build", str(data), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output  # ignored files are not skipped records
    manifest = [json.loads(line) for line in (tmp_path / "out" / "manifest.jsonl").read_text("utf-8").splitlines()]
    by_file = {row["source"]["path"].rsplit("/", 1)[-1]: (row["outcome"], row["reason"]) for row in manifest}
    assert set(by_file) == {"papers.jsonl", "SOURCE.md", "LICENSE", "dump.bin"}
    assert by_file["papers.jsonl"][0] == "built"
    for name in ("SOURCE.md", "LICENSE"):
        assert by_file[name][0] == "ignored" and by_file[name][1].startswith("documentation or notes")
    assert by_file["dump.bin"][0] == "ignored" and ".bin" in by_file["dump.bin"][1]
    assert "ignored" in result.output and "dump.bin" in result.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text("utf-8"))
    assert summary["papers_built"] == 1


def test_the_progress_bar_has_a_total_and_time_left_for_jsonl_and_csv(tmp_path):
    """Issue 14, item 15: the bar showed "N/?" though line counts are cheap."""
    from kg.build import estimate_records
    from kg.ingest import scan_inputs

    (tmp_path / "a.jsonl").write_text("".join(json.dumps({"abstract": f"A{i}."}) + "\n\n" for i in range(5)),
                                      encoding="utf-8")
    (tmp_path / "b.csv").write_text("title,abstract\nx,One.\ny,Two.\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("ICLR 2025\n\nFirst.\n\nSecond\nstill second.\n\nThird.\n", encoding="utf-8")
    (tmp_path / "d.bib").write_text("@article{a, abstract={A}}\n@misc{b, abstract={B}}\n", encoding="utf-8")
    assert estimate_records(scan_inputs(tmp_path)) == 5 + 2 + 3 + 2
    assert estimate_records(scan_inputs(tmp_path), fmt="jsonl") is not None
    (tmp_path / "e.json").write_text("[]", encoding="utf-8")
    assert estimate_records(scan_inputs(tmp_path)) is None  # a JSON array: not cheap to count


def test_the_progress_bar_shows_the_total_and_the_time_left(monkeypatch):
    import io
    import re

    from rich.console import Console

    from kg.build.progress import _progress

    def render(total):
        buffer = io.StringIO()
        monkeypatch.setattr("rich.console.Console", lambda **kw: Console(file=buffer, force_terminal=True, width=120))
        assert list(_progress(range(4), True, "Extracting", total=total)) == [0, 1, 2, 3]
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buffer.getvalue())

    # count of total, time elapsed, time left
    assert re.search(r"4/4 +\d:\d\d:\d\d +\d:\d\d:\d\d", render(4)), render(4)
    assert re.search(r"4/\? +\d:\d\d:\d\d *$", render(None).strip().splitlines()[-1])  # unknown: no ETA
