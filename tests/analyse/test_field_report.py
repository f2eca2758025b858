"""``kg map`` end to end: on the 38 examples (always) and on NeurIPS 2023 + ICML 2024 (when
``shared/data/openreview`` is present). Every SVG figure is checked with fontTools-measured
label boxes: no label overlaps another, none leaves the canvas."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from click.testing import CliRunner
from field_helpers import field_build, field_data
from svg_text import outside, overlapping, text_boxes

from kg.cli.map import map_command


def _check_figures(figures: Path) -> list[str]:
    names = sorted(p.name for p in figures.glob("*.svg"))
    for path in figures.glob("*.svg"):
        boxes, width, height = text_boxes(path.read_text())
        assert overlapping(boxes) == [], path.name
        assert outside(boxes, width, height) == [], path.name
    return names


def test_kg_map_on_the_examples(build_dir, tmp_path):
    run = CliRunner().invoke(map_command, [str(build_dir), "-o", str(tmp_path)])
    assert run.exit_code == 0, run.output
    assert (tmp_path / "termmap.html").is_file() and (tmp_path / "figures" / "term-map.png").is_file()
    names = _check_figures(tmp_path / "figures")
    assert {"overview.svg", "term-map.svg", "top-entities.svg"} <= set(names)
    report = (tmp_path / "report.md").read_text()
    assert report.startswith("# Research map: ICLR 2025")
    assert "trends need at least two" in report  # one year: said, not guessed


@pytest.fixture(scope="module")
def field_report(request, tmp_path_factory) -> Path:
    if field_data() is None:
        pytest.skip("shared/data/openreview (NeurIPS 2023, ICML 2024) is not present")
    cache = getattr(request.config, "cache", None)
    root = cache.mkdir("kg-field-openreview") if cache else tmp_path_factory.mktemp("field")
    build = field_build(Path(root))
    out = tmp_path_factory.mktemp("field-map")
    run = CliRunner().invoke(map_command, [str(build), "-o", str(out), "-q"])
    assert run.exit_code == 0, run.output
    return out


def test_field_map_has_the_term_map_and_clean_figures(field_report):
    assert (field_report / "termmap.html").stat().st_size > 1_000_000
    names = _check_figures(field_report / "figures")
    # the graph is too large to draw node by node: the term map is its picture
    assert "overview.svg" not in names and {"term-map.svg", "rising-falling.svg", "venues.svg"} <= set(names)
    boxes, _, _ = text_boxes((field_report / "figures" / "term-map.svg").read_text())
    assert any(b.text.startswith("NeurIPS 2023 and ICML 2024: ") for b in boxes)
    assert sum(1 for b in boxes if "(" not in b.text) >= 40  # entity names, not only the legend


def test_field_report_states_trends_across_2023_and_2024(field_report):
    report = (field_report / "report.md").read_text()
    assert report.startswith("# Research map: NeurIPS 2023 and ICML 2024")
    assert "### Rising and falling" in report and "of the 2024 papers than of the 2023 papers" in report
    assert "each venue here has papers of one year only (NeurIPS 2023, ICML 2024)" in report
    assert "### What each venue emphasises" in report and "### New entities" in report
    with open(field_report / "rising.csv") as handle:
        rising = list(csv.DictReader(handle))
    assert rising and all(float(r["z"]) >= 3 for r in rising)
    assert all(int(r["papers_latest"]) / int(r["papers_latest_total"]) > int(r["papers_before"]) / int(r["papers_before_total"])
               for r in rising)
    assert (field_report / "venue_emphasis.csv").is_file() and (field_report / "new_entities.csv").is_file()
