"""The map's tables as CSV files: every row behind the report (the report shows the first few)."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from kg.analyse.cooccurrence import top_links
from kg.analyse.leaderboard import board_rows
from kg.analyse.report.analysis import MapResult
from kg.export.tables import write_csv

__all__ = ["BOARD_COLUMNS", "tables", "write_tables"]

Rows = tuple[list, list]  # (header, rows)

BOARD_COLUMNS = ("task", "dataset", "metric", "direction", "kind", "rank", "subject", "value", "number", "delta",
                 "baseline", "setting", "paper", "title", "year", "venue", "sentence", "value_start", "value_end")


def tables(result: MapResult, graph: nx.MultiDiGraph) -> dict[str, Rows]:
    """Table name -> (header, rows); ``graph`` names the new entities."""
    return {**_network_tables(result), **_pair_tables(result), **_trend_tables(result, graph)}


def write_tables(result: MapResult, graph: nx.MultiDiGraph, directory: Path) -> dict[str, Path]:
    """``<name>.csv`` for each table, and ``leaderboards.csv``; ``{"table:<name>": path}``."""
    outputs = {f"table:{name}": write_csv(directory / f"{name}.csv", header, rows)
               for name, (header, rows) in tables(result, graph).items()}
    write_csv(directory / "leaderboards.csv", BOARD_COLUMNS,
              ([row[c] for c in BOARD_COLUMNS] for row in board_rows(result.boards)))
    outputs["table:leaderboards"] = directory / "leaderboards.csv"
    return outputs


def _network_tables(result: MapResult) -> dict[str, Rows]:
    nodes = result.network.nodes
    return {
        "top_entities": (
            ["type", "rank", "id", "name", "papers", "proposed_by", "catalogue_id"],
            [[k, i + 1, r["id"], r["name"], r["papers"], r["proposed_by"], r["catalogue_id"]]
             for k, rows in result.top.items() for i, r in enumerate(rows)],
        ),
        "communities": (
            ["community", "label", "size", "papers", "members"],
            [[c.id, c.label, len(c.members), c.papers, "; ".join(nodes[m]["name"] for m in c.members)]
             for c in result.communities],
        ),
        "centrality": (
            ["id", "name", "type", "papers", "community", "degree", "strength", "betweenness"],
            [[n, nodes[n]["name"], nodes[n]["label"], nodes[n]["paper_count"],
              nodes[n].get("community", 0), v["degree"], v["strength"], f"{v['betweenness']:.6f}"]
             for n, v in sorted(result.centrality.items(), key=lambda item: (-item[1]["betweenness"], item[0]))],
        ),
        "papers_per_year": (["year", "papers"], [[y, c] for y, c in result.per_year.items()]),
        "papers_per_venue": (["venue", "papers"], [[v, c] for v, c in result.per_venue.items()]),
    }


def _pair_tables(result: MapResult) -> dict[str, Rows]:
    return {
        f"cooccurrence-{name}": (
            ["source", "source_type", "target", "target_type", "papers", "association_strength"],
            [[r["source_name"], r["source_type"], r["target_name"], r["target_type"], r["papers"],
              f"{r['association_strength']:.6f}"] for r in top_links(pair, limit=10**9)],
        )
        for name, pair in result.pair_networks.items()
    }


def _trend_tables(result: MapResult, graph: nx.MultiDiGraph) -> dict[str, Rows]:
    out: dict[str, Rows] = {}
    if result.trend:
        header = ["id", "name", "type", "papers_before", "papers_before_total", "papers_latest",
                  "papers_latest_total", "z"]
        for kind in ("rising", "falling"):
            out[kind] = (header, [[s.entity, s.name, s.label, s.papers_out, s.total_out, s.papers_in, s.total_in,
                                   f"{s.z:.3f}"] for s in getattr(result.trend, kind)])
    if result.new_entities:
        out["new_entities"] = (["year", "id", "name", "type", "papers_that_year"],
                               [[n.year, e, graph.nodes[e].get("name"), graph.nodes[e].get("label"), k]
                                for n in result.new_entities for e, k in n.leading])
    if result.venue_emphasis:
        out["venue_emphasis"] = (
            ["venue", "id", "name", "type", "papers_here", "papers_here_total", "papers_elsewhere",
             "papers_elsewhere_total", "z"],
            [[s.group, s.entity, s.name, s.label, s.papers_in, s.total_in, s.papers_out, s.total_out, f"{s.z:.3f}"]
             for shifts in result.venue_emphasis.values() for s in shifts],
        )
    if result.bursts:
        out["bursts"] = (
            ["id", "name", "type", "start", "end", "z", "papers"],
            [[b.entity, b.name, b.label, b.start, b.end, f"{b.z:.3f}", b.papers] for b in result.bursts],
        )
    return out
