"""The files written once the graph is assembled: the manifest, the graph files, ``summary.json``."""

from __future__ import annotations

import json
from pathlib import Path

from kg.build.manifest import _Manifest
from kg.build.report import BuildReport, _timed
from kg.builddir import OUTPUT_FILES, SUMMARY_FILE, BuildDir
from kg.export.files import write_jsonl
from kg.export.writers import BUILD_FORMATS, WRITERS, write_graph


def _graph_writers(graph, base_iri) -> dict:
    """A writer per graph file of the build (:data:`kg.export.writers.BUILD_FORMATS`)."""

    def writer(kind: str):
        options = WRITERS[kind].pick(base=base_iri)
        return lambda path: write_graph(graph, path, kind, **options)

    return {kind: writer(kind) for kind in BUILD_FORMATS}


def _write_outputs(graph_writers: dict, manifest: _Manifest, report: BuildReport, outputs, out: Path) -> None:
    writers = {"manifest": lambda path: write_jsonl(manifest.rows(), path), **graph_writers}
    build = BuildDir(out)
    for kind, write in writers.items():
        if kind in outputs:
            report.outputs[kind] = build.output(kind)
            with _timed(report, f"write {OUTPUT_FILES[kind]}"):
                write(report.outputs[kind])
    with build.open(SUMMARY_FILE) as handle:
        json.dump(_summary_json(report), handle, indent=1, ensure_ascii=False)
    report.outputs["summary"] = build.summary


def _summary_json(report: BuildReport) -> dict:
    return {
        "papers_read": report.papers_read,
        "papers_built": report.papers_built,
        "extractions_from_cache": report.cache_hits,
        "duplicates": report.duplicates,
        "skipped": [str(issue) for issue in report.skipped],
        "entities_by_type": report.entities_by_type,
        "proposed": report.proposed,
        "relations": report.relations,
        "results": report.results,
        "code_urls": report.code_urls,
        "nodes": report.nodes,
        "edges": report.edges,
        "timings_s": report.timings,
        "top_entities": [
            {"name": name, "type": kind, "degree": degree} for name, kind, degree in report.top_entities
        ],
    }
