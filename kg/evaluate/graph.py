"""Checks of a built graph's entities that need no gold: what a field's top lists show, and
resolution errors that can be seen from the catalogues alone.

* ``top``: per type, the entities in most papers, generic classes left out;
* ``alias_of_other_entry``: an entity carrying, as an alias, a name of a catalogue entry
  other than its own (``large language model`` with the alias ``GPT-4``), unless the alias
  and the entity's name are an acronym and its long form (``ASR`` of ``attack success
  rate`` is not the catalogue's speech recognition);
* ``generic_with_catalogue_id``: a generic class linked to a catalogue entry;
* ``type_differs_from_catalogue``: an entity typed otherwise than its catalogue entry;
* ``id_not_from_name``: an entity whose id is not made from its name.

Examples
--------
>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> g.add_node("entity:llm", label="Method", name="LLM", aliases=["GPT-4"], catalogue_id=None,
...            generic=True, paper_count=3)
>>> report = graph_checks(g)
>>> report["alias_of_other_entry"]
[{'id': 'entity:llm', 'name': 'LLM', 'alias': 'GPT-4', 'entry': 'model:gpt-4'}]
>>> report["top"]["Method"]
[]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import networkx as nx

from kg.extract.lexicons import catalogue_ids_of
from kg.ids import entity_id, name_key
from kg.resolve import abbreviates
from kg.types import ENTITY_TYPES

__all__ = ["graph_checks"]


def _top(entities: list[tuple], kind: str, top: int) -> list[dict]:
    """The ``top`` entities of type ``kind`` in most papers (then by name), generic classes left out."""
    ranked = sorted((d for _, d in entities if d["label"] == kind and not d.get("generic")),
                    key=lambda d: (-int(d.get("paper_count") or 0), str(d.get("name"))))
    return [{"name": d["name"], "papers": int(d.get("paper_count") or 0),
             "catalogue_id": d.get("catalogue_id")} for d in ranked[:top]]


def _aliases_of_other_entries(node: str, data: dict) -> Iterator[dict]:
    """The entity's aliases naming a catalogue entry its name does not, acronyms of its name aside."""
    own = data.get("catalogue_id")
    name = data["name"]
    for alias in data.get("aliases") or ():
        others = catalogue_ids_of(alias) - {own}
        if abbreviates(alias, name_key(name)) or abbreviates(name, name_key(alias)):
            continue  # an acronym and its long form
        if others and not catalogue_ids_of(name) & others:
            yield {"id": node, "name": data["name"], "alias": alias, "entry": sorted(others)[0]}


def _type_differs(node: str, data: dict) -> dict | None:
    """The entity, when its catalogue entry has another type."""
    from kg.extract.lexicons import catalogue_entry

    own = data.get("catalogue_id")
    entry = catalogue_entry(own) if own else None
    if entry and entry["label"] != data["label"]:
        return {"id": node, "name": data["name"], "type": data["label"], "entry": own}
    return None


def _id_from_name(node: str, data: dict) -> bool:
    """Whether the entity's id is made from its name."""
    key = name_key(data["name"])
    return node == entity_id(key) or node.removeprefix("entity:") == key


def graph_checks(graph: nx.MultiDiGraph, top: int = 10) -> dict:
    """The report described in the module docstring, as plain data."""
    entities = [(n, d) for n, d in graph.nodes(data=True) if d.get("label") in ENTITY_TYPES]
    report: dict = {"entities": len(entities), "top": {}, "alias_of_other_entry": [],
                    "generic_with_catalogue_id": [], "type_differs_from_catalogue": [], "id_not_from_name": []}
    for kind in ENTITY_TYPES:
        report["top"][kind] = _top(entities, kind, top)
    for node, data in entities:
        own = data.get("catalogue_id")
        report["alias_of_other_entry"].extend(_aliases_of_other_entries(node, data))
        if own and data.get("generic"):
            report["generic_with_catalogue_id"].append({"id": node, "name": data["name"], "entry": own})
        if (differs := _type_differs(node, data)) is not None:
            report["type_differs_from_catalogue"].append(differs)
        if not _id_from_name(node, data):
            report["id_not_from_name"].append({"id": node, "name": data["name"]})
    return report


def summary_counts(report: Mapping) -> dict[str, int]:
    """How many of each problem the report lists."""
    return {key: len(value) for key, value in report.items() if isinstance(value, list)}
