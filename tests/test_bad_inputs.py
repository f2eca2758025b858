"""A corpus of bad inputs through `kg build`: every record is accounted for in the manifest."""

import json

from click.testing import CliRunner

from kg.cli import main

GOOD = "We propose Zorbnet, a novel framework for node classification, evaluated on MNIST."


def write_bad_corpus(root):
    root.mkdir()
    (root / "empty.txt").write_bytes(b"")
    (root / "binary.jsonl").write_bytes(b"\x00\x01\x02PK\x03\x04" * 50)
    (root / "latin1.txt").write_bytes("ICLR 2024 Papers\n\nWe propose Caf\xe9Net, a model for r\xe9sum\xe9 parsing.\n".encode("latin-1"))
    (root / "utf16.txt").write_bytes("NeurIPS 2023 Papers\n\nWe introduce Zebrafy, a benchmark.\n".encode("utf-16"))
    (root / "broken.jsonl").write_text(
        json.dumps({"abstract": GOOD}) + "\n{not json\n" + json.dumps({"title": "no abstract"}) + "\n"
        + json.dumps({"abstract": "   \t "}) + "\n" + json.dumps({"abstract": GOOD}) + "\n",
        encoding="utf-8",
    )
    (root / "missing.csv").write_text(
        "title,abstract,year\nA,We use GPT-4o on GSM8K.,2024\nB\nC,,2023\n", encoding="utf-8"
    )
    (root / "broken.bib").write_text(
        "@article{ok, title={T}, abstract={We present Quorbit, a dataset of graphs.}, year={2022}}\n"
        "@article{noabstract, title={Only a title}}\n"
        "@article{broken, title={Unclosed, abstract={x}\n",
        encoding="utf-8",
    )
    huge = ("We propose Megaform, a method. " + "word " * 200_000).strip()
    weird = ("Control\x07chars\x1b[31m and CJK 模型 and Arabic نموذج with $\\times$ **B**old "
             "\\textbf{X} \\url{https://github.com/a/b} text.")
    (root / "odd.jsonl").write_text(
        json.dumps({"abstract": huge}) + "\n" + json.dumps({"abstract": weird}) + "\n", encoding="utf-8"
    )


def test_every_bad_record_is_accounted_for(tmp_path):
    write_bad_corpus(tmp_path / "in")
    result = CliRunner().invoke(main, ["build", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 3, result.output  # done, with records skipped
    manifest = [json.loads(line) for line in (tmp_path / "out" / "manifest.jsonl").read_text("utf-8").splitlines()]
    by_file = {}
    for row in manifest:
        by_file.setdefault(row["source"]["path"].rsplit("/", 1)[-1], []).append(row["outcome"])
    assert by_file["empty.txt"] == ["skipped"]
    assert by_file["binary.jsonl"] == ["skipped"]
    assert by_file["latin1.txt"] == ["built"] and by_file["utf16.txt"] == ["built"]
    assert by_file["broken.jsonl"] == ["built", "skipped", "skipped", "skipped", "duplicate"]
    assert by_file["missing.csv"] == ["built", "skipped", "skipped"]
    assert by_file["broken.bib"].count("built") == 1 and "skipped" in by_file["broken.bib"]
    assert by_file["odd.jsonl"] == ["built", "built"]
    assert any("extracted from the first" in (row["reason"] or "") for row in manifest)
    for row in manifest:
        if row["outcome"] == "skipped":
            assert row["reason"] and row["source"]["path"]
    papers = [json.loads(line) for line in (tmp_path / "out" / "papers.jsonl").read_text("utf-8").splitlines()]
    assert len(papers) == sum(row["outcome"] == "built" for row in manifest)
    names = {e["name"] for p in papers for e in p["entities"]}
    assert {"CaféNet", "Zebrafy", "Megaform", "Quorbit"} <= names
    for paper in papers:
        for entity in paper["entities"]:
            for m in entity["mentions"]:
                assert paper["abstract"][m["start"]:m["end"]] == m["text"]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text("utf-8"))
    assert summary["papers_built"] == len(papers) and len(summary["skipped"]) == by_file_count(by_file, "skipped")


def by_file_count(by_file, outcome):
    return sum(outcomes.count(outcome) for outcomes in by_file.values())
