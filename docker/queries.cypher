// Research questions over a kg graph, in Cypher (Neo4j 5; also runs in `kg query cypher`).
// Generated from kg/query/examples_cypher.py; edit there. Run all with:
//   cypher-shell -u neo4j -p "$NEO4J_PASSWORD" -f docker/queries.cypher
// or paste one query (with its :param lines) into Neo4j Browser.

// 1. datasets_of_method: Which datasets is a method (or model) evaluated on, and by how many papers?
:param name => 'PRISM';
MATCH (m)-[r:EVALUATED_ON]->(d:Dataset)
WHERE (m:Method OR m:Model) AND toLower(m.name) = toLower($name)
RETURN d.name AS dataset, r.support AS papers
ORDER BY papers DESC, dataset;

// 2. top_benchmarks: Which datasets and benchmarks are used by the most papers?
:param limit => 10;
MATCH (p:Paper)-[:MENTIONS|PROPOSES]->(d:Dataset)
RETURN d.name AS dataset, count(DISTINCT p) AS papers
ORDER BY papers DESC, dataset
LIMIT $limit;

// 3. proposals_compared_with: Which papers propose a method or model that is compared with a given model (e.g. GPT-4o)?
:param name => 'GPT-4o';
MATCH (p:Paper)-[:PROPOSES]->(x)-[:COMPARED_WITH]-(b)
WHERE toLower(b.name) = toLower($name)
RETURN DISTINCT p.name AS paper, x.name AS proposed, labels(x)[0] AS type
ORDER BY paper, proposed;

// 4. methods_sharing_datasets: Which pairs of methods or models are evaluated on the same datasets?
:param limit => 20;
MATCH (a)-[:EVALUATED_ON]->(d:Dataset)<-[:EVALUATED_ON]-(b)
WHERE (a:Method OR a:Model) AND (b:Method OR b:Model) AND a.id < b.id
WITH a, b, d ORDER BY d.name
RETURN a.name AS first, b.name AS second, count(d) AS shared, collect(d.name) AS datasets
ORDER BY shared DESC, first, second
LIMIT $limit;

// 5. top_tasks: Which tasks do the most papers work on?
:param limit => 10;
MATCH (p:Paper)-[:MENTIONS|PROPOSES]->(t:Task)
RETURN t.name AS task, count(DISTINCT p) AS papers
ORDER BY papers DESC, task
LIMIT $limit;

// 6. code_for_dataset: Where is the code of papers that propose a method evaluated on a given dataset?
:param dataset => 'CIFAR-10';
MATCH (p:Paper)-[:PROPOSES]->(m)-[:EVALUATED_ON]->(d:Dataset)
WHERE toLower(d.name) = toLower($dataset)
MATCH (p)-[:HAS_CODE]->(c:CodeRepository)
RETURN DISTINCT p.name AS paper, m.name AS proposed, c.url AS code
ORDER BY paper, proposed, code;

// 7. evidence_for_evaluation: Which passages of which papers state that a method is evaluated on a dataset?
:param name => 'PRISM';
:param dataset => 'CIFAR-10';
MATCH (m)-[r:EVALUATED_ON]->(d:Dataset)
WHERE toLower(m.name) = toLower($name) AND toLower(d.name) = toLower($dataset)
UNWIND range(0, size(r.evidence_papers) - 1) AS i
MATCH (p:Paper {id: r.evidence_papers[i]})
RETURN p.name AS paper,
       substring(p.abstract, r.evidence_starts[i], r.evidence_ends[i] - r.evidence_starts[i]) AS evidence
ORDER BY paper, evidence;

// 8. results_on_dataset: Which numeric results are reported on a dataset: by which method, against which baseline?
:param dataset => 'GSM8K';
MATCH (p:Paper)-[:REPORTS]->(r:Result)-[:RESULT_ON]->(d:Dataset)
WHERE toLower(d.name) = toLower($dataset)
OPTIONAL MATCH (r)-[:RESULT_OF]->(m)
OPTIONAL MATCH (r)-[:RESULT_AGAINST]->(b)
RETURN p.name AS paper, m.name AS method, r.metric AS metric, r.value AS value, b.name AS baseline
ORDER BY paper, metric, value;

// 9. best_results_on_dataset: What are the best results reported on a dataset, per task and metric, with their evidence?
:param dataset => 'GSM8K';
MATCH (p:Paper)-[:REPORTS]->(r:Result)-[:RESULT_ON]->(d:Dataset)
WHERE toLower(d.name) = toLower($dataset) AND r.number IS NOT NULL
OPTIONAL MATCH (r)-[:RESULT_OF]->(m)
OPTIONAL MATCH (r)-[:RESULT_FOR]->(t:Task)
RETURN t.name AS task, r.metric AS metric, r.direction AS direction, coalesce(m.name, p.name) AS method,
       r.value AS value, r.number AS score, p.name AS paper,
       substring(p.abstract, r.sentence_start, r.sentence_end - r.sentence_start) AS evidence
ORDER BY task, metric, CASE WHEN r.direction = 'lower' THEN r.number ELSE -r.number END, paper;

// 10. proposals_by_venue_year: How many new methods, models, datasets, metrics and tasks were proposed per venue and year?
MATCH (p:Paper)-[:PROPOSES]->(e)
RETURN p.venue AS venue, p.year AS year, labels(e)[0] AS type, count(DISTINCT e) AS proposed
ORDER BY venue, year, type;

// 11. extensions_of: Which methods extend a given method, and which papers propose them?
:param name => 'classifier-free guidance';
MATCH (x)-[:EXTENDS]->(m)
WHERE toLower(m.name) = toLower($name)
OPTIONAL MATCH (p:Paper)-[:PROPOSES]->(x)
RETURN x.name AS extension, p.name AS paper
ORDER BY extension, paper;

// 12. metrics_of: Which metrics is a method, task or dataset measured by, according to how many papers?
:param name => 'PRISM';
MATCH (x)-[r:MEASURED_BY]->(metric:Metric)
WHERE toLower(x.name) = toLower($name)
RETURN metric.name AS metric, r.support AS papers
ORDER BY papers DESC, metric;

// 13. evaluated_on_one_not_other: Which methods are evaluated on one dataset but not yet on another (a gap to fill)?
:param dataset => 'CIFAR-10';
:param other => 'FFHQ';
MATCH (m)-[:EVALUATED_ON]->(a:Dataset)
WHERE toLower(a.name) = toLower($dataset)
MATCH (b:Dataset)
WHERE toLower(b.name) = toLower($other)
WITH m, b
WHERE NOT (m)-[:EVALUATED_ON]->(b)
RETURN m.name AS method
ORDER BY method;

// 14. most_mentioned_entities: Which entities appear in the most papers, of what type?
:param limit => 10;
MATCH (e)
WHERE e:Method OR e:Dataset OR e:Model OR e:Metric OR e:Task
RETURN labels(e)[0] AS type, e.name AS entity, e.paper_count AS papers
ORDER BY papers DESC, entity
LIMIT $limit;

// 15. papers_with_both: Which papers involve both of two entities (e.g. a model and a benchmark)?
:param name => 'GPT-4';
:param other => 'WorfBench';
MATCH (a)<-[:MENTIONS|PROPOSES]-(p:Paper)-[:MENTIONS|PROPOSES]->(b)
WHERE toLower(a.name) = toLower($name) AND toLower(b.name) = toLower($other)
RETURN DISTINCT p.name AS paper, p.year AS year
ORDER BY year DESC, paper;
