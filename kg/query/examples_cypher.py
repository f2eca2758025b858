"""Cypher queries answering research questions over a kg graph (Neo4j and the embedded engine).

Each :class:`ExampleQuery` has a name, the question it answers, the Cypher and
example parameters. They use only what both Neo4j 5 and FalkorDB 4.16 run (no
``=~``, ``exists()``, ``EXISTS {}``, ``COUNT {}``, temporal functions or APOC),
and are tested on a hand-built graph in ``tests/query/test_cypher.py``.
``docker/queries.cypher`` is :func:`queries_script` written out, for Neo4j
Browser and ``cypher-shell -f``.

Names are matched case-insensitively on an entity's display ``name``
(``toLower(x.name) = toLower($name)``). The example parameters name entities of
the ICLR 2025 example abstracts (``examples/iclr2025``); what a query returns
there depends on the extraction of the day.

>>> [q.name for q in EXAMPLE_QUERIES][:3]
['datasets_of_method', 'top_benchmarks', 'proposals_compared_with']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["EXAMPLE_QUERIES", "ExampleQuery", "example_query", "queries_script"]


@dataclass(frozen=True)
class ExampleQuery:
    name: str
    question: str
    cypher: str
    params: dict[str, Any] = field(default_factory=dict)


EXAMPLE_QUERIES: tuple[ExampleQuery, ...] = (
    ExampleQuery(
        "datasets_of_method",
        "Which datasets is a method (or model) evaluated on, and by how many papers?",
        """MATCH (m)-[r:EVALUATED_ON]->(d:Dataset)
WHERE (m:Method OR m:Model) AND toLower(m.name) = toLower($name)
RETURN d.name AS dataset, r.support AS papers
ORDER BY papers DESC, dataset""",
        {"name": "PRISM"},
    ),
    ExampleQuery(
        "top_benchmarks",
        "Which datasets and benchmarks are used by the most papers?",
        """MATCH (p:Paper)-[:MENTIONS|PROPOSES]->(d:Dataset)
RETURN d.name AS dataset, count(DISTINCT p) AS papers
ORDER BY papers DESC, dataset
LIMIT $limit""",
        {"limit": 10},
    ),
    ExampleQuery(
        "proposals_compared_with",
        "Which papers propose a method or model that is compared with a given model (e.g. GPT-4o)?",
        """MATCH (p:Paper)-[:PROPOSES]->(x)-[:COMPARED_WITH]-(b)
WHERE toLower(b.name) = toLower($name)
RETURN DISTINCT p.name AS paper, x.name AS proposed, labels(x)[0] AS type
ORDER BY paper, proposed""",
        {"name": "GPT-4o"},
    ),
    ExampleQuery(
        "methods_sharing_datasets",
        "Which pairs of methods or models are evaluated on the same datasets?",
        """MATCH (a)-[:EVALUATED_ON]->(d:Dataset)<-[:EVALUATED_ON]-(b)
WHERE (a:Method OR a:Model) AND (b:Method OR b:Model) AND a.id < b.id
WITH a, b, d ORDER BY d.name
RETURN a.name AS first, b.name AS second, count(d) AS shared, collect(d.name) AS datasets
ORDER BY shared DESC, first, second
LIMIT $limit""",
        {"limit": 20},
    ),
    ExampleQuery(
        "top_tasks",
        "Which tasks do the most papers work on?",
        """MATCH (p:Paper)-[:MENTIONS|PROPOSES]->(t:Task)
RETURN t.name AS task, count(DISTINCT p) AS papers
ORDER BY papers DESC, task
LIMIT $limit""",
        {"limit": 10},
    ),
    ExampleQuery(
        "code_for_dataset",
        "Where is the code of papers that propose a method evaluated on a given dataset?",
        """MATCH (p:Paper)-[:PROPOSES]->(m)-[:EVALUATED_ON]->(d:Dataset)
WHERE toLower(d.name) = toLower($dataset)
MATCH (p)-[:HAS_CODE]->(c:CodeRepository)
RETURN DISTINCT p.name AS paper, m.name AS proposed, c.url AS code
ORDER BY paper, proposed, code""",
        {"dataset": "CIFAR-10"},
    ),
    ExampleQuery(
        "evidence_for_evaluation",
        "Which passages of which papers state that a method is evaluated on a dataset?",
        """MATCH (m)-[r:EVALUATED_ON]->(d:Dataset)
WHERE toLower(m.name) = toLower($name) AND toLower(d.name) = toLower($dataset)
UNWIND range(0, size(r.evidence_papers) - 1) AS i
MATCH (p:Paper {id: r.evidence_papers[i]})
RETURN p.name AS paper,
       substring(p.abstract, r.evidence_starts[i], r.evidence_ends[i] - r.evidence_starts[i]) AS evidence
ORDER BY paper, evidence""",
        {"name": "PRISM", "dataset": "CIFAR-10"},
    ),
    ExampleQuery(
        "results_on_dataset",
        "Which numeric results are reported on a dataset: by which method, against which baseline?",
        """MATCH (p:Paper)-[:REPORTS]->(r:Result)-[:RESULT_ON]->(d:Dataset)
WHERE toLower(d.name) = toLower($dataset)
OPTIONAL MATCH (r)-[:RESULT_OF]->(m)
OPTIONAL MATCH (r)-[:RESULT_AGAINST]->(b)
RETURN p.name AS paper, m.name AS method, r.metric AS metric, r.value AS value, b.name AS baseline
ORDER BY paper, metric, value""",
        {"dataset": "GSM8K"},
    ),
    ExampleQuery(
        "best_results_on_dataset",
        "What are the best results reported on a dataset, per task and metric, with their evidence?",
        """MATCH (p:Paper)-[:REPORTS]->(r:Result)-[:RESULT_ON]->(d:Dataset)
WHERE toLower(d.name) = toLower($dataset) AND r.number IS NOT NULL
OPTIONAL MATCH (r)-[:RESULT_OF]->(m)
OPTIONAL MATCH (r)-[:RESULT_FOR]->(t:Task)
RETURN t.name AS task, r.metric AS metric, r.direction AS direction, coalesce(m.name, p.name) AS method,
       r.value AS value, r.number AS score, p.name AS paper,
       substring(p.abstract, r.sentence_start, r.sentence_end - r.sentence_start) AS evidence
ORDER BY task, metric, CASE WHEN r.direction = 'lower' THEN r.number ELSE -r.number END, paper""",
        {"dataset": "GSM8K"},
    ),
    ExampleQuery(
        "proposals_by_venue_year",
        "How many new methods, models, datasets, metrics and tasks were proposed per venue and year?",
        """MATCH (p:Paper)-[:PROPOSES]->(e)
RETURN p.venue AS venue, p.year AS year, labels(e)[0] AS type, count(DISTINCT e) AS proposed
ORDER BY venue, year, type""",
    ),
    ExampleQuery(
        "extensions_of",
        "Which methods extend a given method, and which papers propose them?",
        """MATCH (x)-[:EXTENDS]->(m)
WHERE toLower(m.name) = toLower($name)
OPTIONAL MATCH (p:Paper)-[:PROPOSES]->(x)
RETURN x.name AS extension, p.name AS paper
ORDER BY extension, paper""",
        {"name": "classifier-free guidance"},
    ),
    ExampleQuery(
        "metrics_of",
        "Which metrics is a method, task or dataset measured by, according to how many papers?",
        """MATCH (x)-[r:MEASURED_BY]->(metric:Metric)
WHERE toLower(x.name) = toLower($name)
RETURN metric.name AS metric, r.support AS papers
ORDER BY papers DESC, metric""",
        {"name": "PRISM"},
    ),
    ExampleQuery(
        "evaluated_on_one_not_other",
        "Which methods are evaluated on one dataset but not yet on another (a gap to fill)?",
        """MATCH (m)-[:EVALUATED_ON]->(a:Dataset)
WHERE toLower(a.name) = toLower($dataset)
MATCH (b:Dataset)
WHERE toLower(b.name) = toLower($other)
WITH m, b
WHERE NOT (m)-[:EVALUATED_ON]->(b)
RETURN m.name AS method
ORDER BY method""",
        {"dataset": "CIFAR-10", "other": "FFHQ"},
    ),
    ExampleQuery(
        "most_mentioned_entities",
        "Which entities appear in the most papers, of what type?",
        """MATCH (e)
WHERE e:Method OR e:Dataset OR e:Model OR e:Metric OR e:Task
RETURN labels(e)[0] AS type, e.name AS entity, e.paper_count AS papers
ORDER BY papers DESC, entity
LIMIT $limit""",
        {"limit": 10},
    ),
    ExampleQuery(
        "papers_with_both",
        "Which papers involve both of two entities (e.g. a model and a benchmark)?",
        """MATCH (a)<-[:MENTIONS|PROPOSES]-(p:Paper)-[:MENTIONS|PROPOSES]->(b)
WHERE toLower(a.name) = toLower($name) AND toLower(b.name) = toLower($other)
RETURN DISTINCT p.name AS paper, p.year AS year
ORDER BY year DESC, paper""",
        {"name": "GPT-4", "other": "WorfBench"},
    ),
)


def example_query(name: str) -> ExampleQuery:
    """The example query called ``name``."""
    for query in EXAMPLE_QUERIES:
        if query.name == name:
            return query
    raise KeyError(
        f"no example query {name!r}; known: {', '.join(q.name for q in EXAMPLE_QUERIES)}"
    )


def queries_script() -> str:
    """The example queries as a ``.cypher`` file, with ``:param`` lines for cypher-shell and Browser.

    Every statement and every ``:param`` line ends with ``;``, as Neo4j Browser's
    multi-statement editor and Neo4j's Cypher linter expect (cypher-shell takes both).
    """
    from kg.export.neo4j import cypher_literal

    parts = [
        "// Research questions over a kg graph, in Cypher (Neo4j 5; also runs in `kg query cypher`).",
        "// Generated from kg/query/examples_cypher.py; edit there. Run all with:",
        '//   cypher-shell -u neo4j -p "$NEO4J_PASSWORD" -f docker/queries.cypher',
        "// or paste one query (with its :param lines) into Neo4j Browser.",
        "",
    ]
    for n, query in enumerate(EXAMPLE_QUERIES, 1):
        parts.append(f"// {n}. {query.name}: {query.question}")
        for key, value in query.params.items():
            parts.append(f":param {key} => {cypher_literal(value)};")
        parts.append(query.cypher + ";")
        parts.append("")
    return "\n".join(parts)
