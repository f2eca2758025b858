"""``kg viz``: one self-contained HTML page that explores the graph in a browser, offline.

The page inlines sigma.js and graphology (vendored in ``kg/viz/assets``, MIT),
the viewer's own script and style, and the graph as JSON in a
``<script type="application/json">`` element. Nothing is fetched: a Content
Security Policy forbids any connection and lets only the page's own scripts
(by hash) run.

Every string from the data (names, titles, abstracts, authors) reaches the DOM
through ``textContent`` only; in the JSON, ``<``, ``>`` and ``&`` are written as
``\\u003c``, ``\\u003e``, ``\\u0026``, so no data can close the script element.

Positions are computed here (:func:`kg.viz.layout.force_layout`), so the page
opens laid out and the same graph gives the same picture.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections import defaultdict
from importlib import resources
from pathlib import Path

import networkx as nx

from kg import __version__, schema
from kg.viz.layout import force_layout
from kg.viz.text import ReadableText, readable

__all__ = [
    "TYPE_COLOURS", "TYPE_ORDER", "graph_payload", "layout_positions", "render_html", "result_label", "safe_json",
    "viewer_schema", "write_html",
]

#: Node types (every label of :mod:`kg.schema`) in legend order, with their colours (Tableau 10,
#: readable on white).
TYPE_COLOURS = {
    "Method": "#4e79a7",
    "Dataset": "#59a14f",
    "Model": "#e15759",
    "Task": "#f28e2b",
    "Metric": "#b07aa1",
    "Paper": "#8a9299",
    "Venue": "#76b7b2",
    "CodeRepository": "#9c755f",
    "Result": "#edc948",
}
TYPE_ORDER = list(TYPE_COLOURS)
ENTITY_TYPES = schema.ENTITY_LABELS
_PAPER_FIELDS = ("title", "abstract", "year", "venue", "authors", "doi", "arxiv_id", "url")


def safe_json(data) -> str:
    """JSON that can sit inside ``<script>`` in HTML: ``<``, ``>``, ``&`` are unicode-escaped.

    >>> safe_json({"title": "</script><b>"})
    '{"title":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e"}'
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    )


def viewer_schema() -> dict:
    """The schema as ``viewer.js`` reads it (``payload["schema"]``), so the page names no label
    or edge type of its own: entity types, the verb of each relation, the role of each result edge.

    >>> viewer_schema()["relations"]["EVALUATED_ON"], viewer_schema()["results"]["RESULT_ON"]
    ('evaluated on', 'on')
    """
    return {
        "entity_types": list(schema.ENTITY_LABELS),
        "paper": "Paper",
        "result": "Result",
        "relations": {kind: kind.lower().replace("_", " ") for kind in schema.RELATION_TYPES},
        "results": {kind: kind.removeprefix("RESULT_").lower() for kind in schema.RESULT_EDGES},
        "proposes": "PROPOSES",
        "mentions": "MENTIONS",
        "reports": "REPORTS",
        "has_code": "HAS_CODE",
    }


def graph_payload(
    graph: nx.MultiDiGraph,
    *,
    positions: dict | None = None,
    title: str = "Knowledge graph",
    seed: int = 42,
) -> dict:
    """The data the page draws: nodes (with positions), links with their evidence spans, details,
    and the schema (:func:`viewer_schema`).

    Node ``i`` is ``nodes[i]``; a link is ``[source index, target index, type, spans]`` with
    spans ``[[paper index, start, end], ...]`` (offsets in code points of that paper's abstract as
    shown: the clean text of :mod:`kg.viz.text`, without LaTeX or Markdown residue).
    """
    if positions is None:
        positions = layout_positions(graph, seed=seed)
    node_ids = sorted(graph.nodes(), key=str)
    index = {node: i for i, node in enumerate(node_ids)}
    texts = {
        node: readable(str(data.get("abstract") or ""))
        for node, data in graph.nodes(data=True) if data.get("label") == "Paper"
    }
    nodes = []
    for node in node_ids:
        data = graph.nodes[node]
        label = data.get("label", "Node")
        x, y = positions.get(node, (0.0, 0.0))
        record = {
            "id": str(node),
            "type": label,
            "name": result_label(data) if label == "Result" else str(data.get("name") or node),
            "x": round(x, 5),
            "y": round(y, 5),
            "degree": graph.degree(node),
            "papers": _paper_count(graph, node, data),
        }
        details = _details(data, label, texts.get(data.get("paper") if label == "Result" else node))
        if details:
            record["details"] = details
        nodes.append(record)
    links = [
        [index[u], index[v], str(data.get("type", key)), _link_spans(u, data, index, texts)]
        for u, v, key, data in sorted(graph.edges(keys=True, data=True), key=lambda e: (str(e[0]), str(e[1]), str(e[2])))
    ]
    counts = defaultdict(int)
    for record in nodes:
        counts[record["type"]] += 1
    types = [
        {"type": label, "color": TYPE_COLOURS.get(label, "#999999"), "count": counts[label]}
        for label in TYPE_ORDER + sorted(set(counts) - set(TYPE_ORDER))
        if counts.get(label)
    ]
    return {
        "meta": {"title": title, "generator": f"kg {__version__}", "nodes": len(nodes), "links": len(links)},
        "schema": viewer_schema(),
        "types": types,
        "nodes": nodes,
        "links": links,
    }


def _link_spans(source, data: dict, index: dict, texts: dict) -> list[list[int]]:
    """A link's spans in shown text: its mentions in the source paper, then its evidence in any paper."""
    spans = []
    for span in data.get("mentions") or ():
        if source in texts:
            spans.append([index[source], *texts[source].span(span["start"], span["end"])])
    for span in data.get("evidence") or ():
        if span.get("paper") in texts:
            spans.append([index[span["paper"]], *texts[span["paper"]].span(span["start"], span["end"])])
    return spans


def layout_positions(graph: nx.MultiDiGraph, *, seed: int = 42) -> dict:
    """Positions for drawing: papers and what they mention pull together; venues sit at their papers.

    Venue nodes are left out of the force layout (one venue joined to every paper would
    pull the whole field into a star) and placed at the centroid of their papers.
    """
    venues = [n for n, d in graph.nodes(data=True) if d.get("label") == "Venue"]
    core = graph.subgraph([n for n in graph.nodes if n not in set(venues)])
    positions = force_layout(core, seed=seed)
    for venue in venues:
        around = [positions[u] for u in graph.predecessors(venue) if u in positions]
        if around:
            positions[venue] = (sum(p[0] for p in around) / len(around), sum(p[1] for p in around) / len(around))
        else:
            positions[venue] = (0.0, 0.0)
    return positions


def _paper_count(graph: nx.MultiDiGraph, node, data: dict) -> int:
    label = data.get("label")
    if label in ENTITY_TYPES:
        return int(data.get("paper_count") or 0)
    if label == "Paper":
        return 1
    return len({u for u, _ in graph.in_edges(node) if graph.nodes[u].get("label") == "Paper"})


def result_label(data: dict) -> str:
    """A result named by its metric, then its value: ``accuracy: up to 12.97%``.

    The extractor leaves the metric empty when the sentence names none (graphs built before
    it wrote ``value`` there).

    >>> result_label({"value": "20x", "metric": "speedup"}), result_label({"value": "98%", "metric": None})
    ('speedup: 20x', '98% (metric not stated)')
    """
    value = " ".join(str(data.get("value") or "").split())
    metric = " ".join(str(data.get("metric") or "").split())
    if not metric or metric == "value":
        return f"{value} (metric not stated)"
    return f"{metric}: {value}"


def _details(data: dict, label: str, text: ReadableText | None) -> dict:
    """What the panel shows; abstracts as clean text, result offsets moved onto it."""
    if label == "Result":
        details = {key: data[key] for key in ("value", "metric", "paper") if data.get(key) not in (None, "")}
        if text is not None and data.get("start") is not None:
            details["start"], details["end"] = text.span(data["start"], data["end"])
        return details
    if label == "Paper":
        keys = _PAPER_FIELDS
    elif label in ENTITY_TYPES:
        keys = ("aliases", "catalogue_id", "mention_count", "proposed_by")
    elif label == "CodeRepository":
        keys = ("url",)
    else:
        keys = ()
    details = {key: data[key] for key in keys if data.get(key) not in (None, [], "")}
    if label == "Paper" and text is not None and text.text:
        details["abstract"] = text.text
    return details


def _asset(name: str) -> str:
    return resources.files("kg.viz").joinpath("assets", name).read_text(encoding="utf-8")


def _script(code: str) -> str:
    lines = [line for line in code.splitlines() if not line.startswith("//# sourceMappingURL=")]
    code = "\n".join(lines)
    if "</script" in code.lower() or "<!--" in code:
        raise ValueError("a script to inline contains '</script' or '<!--'")
    return code


def render_html(payload: dict) -> str:
    """The complete page for ``payload`` (see :func:`graph_payload`)."""
    return render_page(payload, template="template.html", styles=("viewer.css",),
                       scripts=("graphology.umd.min.js", "sigma.min.js", "labels.js", "viewer.js"))


def render_page(payload: dict, *, template: str, styles: tuple[str, ...], scripts: tuple[str, ...]) -> str:
    """A self-contained page: the ``assets`` named inlined, ``payload`` as JSON, a CSP allowing only them."""
    codes = [_script(_asset(name)) for name in scripts]
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode("ascii") + "'"
        for code in codes
    )
    csp = (
        "default-src 'none'; "
        f"script-src {hashes}; "
        "style-src 'unsafe-inline'; img-src data: blob:; connect-src 'none'; "
        "base-uri 'none'; form-action 'none'"
    )
    page = _asset(template)
    replacements = {
        "csp": html.escape(csp, quote=False).replace("\"", "&quot;"),
        "title": html.escape(payload["meta"]["title"]),
        "style": "\n".join(_asset(name) for name in styles),
        "data": safe_json(payload),
        "scripts": "\n".join(f"<script>{code}</script>" for code in codes),
    }
    # one pass, so text from the data is never scanned for placeholders
    return re.sub(r"\{\{(\w+)\}\}", lambda match: replacements[match.group(1)], page)


def write_html(
    graph: nx.MultiDiGraph,
    path: str | Path,
    *,
    title: str = "Knowledge graph",
    positions: dict | None = None,
    seed: int = 42,
) -> Path:
    """Write the interactive page of ``graph`` to ``path``; returns the path."""
    from kg.builddir import atomic_open

    page = render_html(graph_payload(graph, positions=positions, title=title, seed=seed))
    with atomic_open(path) as handle:
        handle.write(page)
    return Path(path)
