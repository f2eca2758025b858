"""Research mapping on a built graph: what a field is made of, what goes together, how it moves.

One module per question: :mod:`~kg.analyse.cooccurrence` (co-occurrence networks,
association strength), :mod:`~kg.analyse.communities` (Louvain communities,
centrality), :mod:`~kg.analyse.termmap` (the network a term map draws),
:mod:`~kg.analyse.trends` (years, venues, rising and falling, bursts) and
:mod:`~kg.analyse.report` (``kg map``: all of it as a report). The GEXF and VOSviewer
writers live with the other exporters (:mod:`kg.export.gexf`, :mod:`kg.export.vosviewer`)
and are importable from here too.
"""

from kg.analyse.communities import Community, centrality, detect_communities
from kg.analyse.cooccurrence import (
    PAIR_NETWORKS,
    association_strength,
    cooccurrence_network,
    paper_entities,
    top_links,
)
from kg.analyse.load import graph_path, read_graph
from kg.analyse.report import MapResult, research_map, top_entities
from kg.analyse.termmap import term_network
from kg.analyse.trends import (
    Burst,
    Shift,
    Trend,
    bursts,
    entity_years,
    new_entities,
    papers_by_venue,
    papers_by_year,
    rising_and_falling,
    venue_emphasis,
)
from kg.export.gexf import to_gexf_graph, write_gexf
from kg.export.vosviewer import read_vosviewer, write_vosviewer

__all__ = [
    "PAIR_NETWORKS", "Burst", "Community", "MapResult", "Shift", "Trend", "association_strength", "bursts",
    "centrality", "cooccurrence_network", "detect_communities", "entity_years", "graph_path", "new_entities",
    "paper_entities", "papers_by_venue", "papers_by_year", "read_graph", "read_vosviewer", "research_map",
    "rising_and_falling", "term_network", "to_gexf_graph", "top_entities", "top_links", "venue_emphasis",
    "write_gexf", "write_vosviewer",
]
