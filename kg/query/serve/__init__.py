"""``kg serve``: a read-only SPARQL 1.1 Protocol endpoint over a built graph, on localhost.

The SPARQL work is done by the Oxigraph server (``oxigraph serve-read-only``
from the ``oxigraph`` package, the engine of ``pyoxigraph``), run as a managed
subprocess on a free loopback port over an on-disk store of ``graph.ttl``
(built once with ``oxigraph load`` into ``BUILD_DIR/.oxigraph/``; see
:func:`kg.query.sparql.store_dir`). Clients talk to a small front in this
package (stdlib ``http.server``, one thread per connection), which forwards
queries to Oxigraph over a bounded pool of keep-alive connections::

    client --HTTP--> front (--host:--port)  --pool--> oxigraph serve-read-only
                     page, checks, limits             127.0.0.1:<free port>, --timeout-s

Why a front and not Oxigraph alone: each point was checked against
Oxigraph 0.5.13 and has a test in ``tests/query/serve/test_serve.py``.

* **SERVICE.** Oxigraph's server follows ``SERVICE <http://...>`` to any
  host: it POSTed the query to a listener we started (a server-side request
  forgery hole). The front refuses queries with ``SERVICE`` (403) using
  :func:`kg.query.sparql.check_query`, which also refuses updates.
* **Result size.** Oxigraph has no result-size limit. The front buffers at
  most ``max_result_bytes`` of a response and answers 413 beyond that, so
  memory is bounded by ``max_concurrent * max_result_bytes``.
* **Timeouts.** Oxigraph sends ``200 OK`` before evaluating; a query it
  cancels at ``--timeout-s`` ends as a 200 response whose body is the text
  "The SPARQL operation has been cancelled". The front enforces the deadline
  itself and answers 503; Oxigraph's own timeout (one second later, it only
  takes whole seconds) stops the evaluation.
* **Query page.** Oxigraph serves YASGUI at ``/`` from local files, but YASGUI
  calls ``prefix.cc`` (prefix completion) and the LOV API at
  ``lov.linkeddata.es`` (term completion) from the browser, sending what is
  typed to third parties. The front serves its own small page instead (no
  external requests; its Content-Security-Policy forbids them).
* **Graph Store Protocol.** Oxigraph's read-only server answers ``GET /store``
  with the whole dataset, past any limit; the front exposes only
  ``/sparql`` and ``/query``. ``/update`` and SPARQL Update are refused (403).
* **Bursts.** Oxigraph starts a thread per connection. The front caps open
  client connections (``max_connections``, and ``max_per_client`` from one
  address; beyond them, an immediate 503) and queries in flight
  (``max_concurrent``; the rest wait, up to the timeout), and reuses its
  connections to Oxigraph.
* **Slow clients.** A socket timeout bounds each wait for bytes, not a request:
  64 clients sending a byte every 10 s held every connection. The front reads
  each request (line, headers, body) under one deadline (``request_timeout``)
  and drops the connection when it passes; and when the connections are all
  taken, a new one takes the place of the one that has waited longest for its
  request (``evict_after``), so a client that sends its request at once gets
  in even from the address of the slow ones.
* **Memory.** Oxigraph has no memory limit: three ``ORDER BY`` cross products
  took it from 118 MB to 2.25 GB, kept after the 503s. It runs under
  ``RLIMIT_DATA`` = ``max_memory`` (a query needing more makes it abort: the
  query gets 502 and a new Oxigraph is started), and when its resident memory
  stays above half of that, a fresh process takes the next queries while the
  old one is stopped after its queries have had their time (at most two
  processes). If Oxigraph exits, a new one is started (a query that aborts it
  is not sent again); kg serve stops only if a new one cannot start. One Oxigraph quirk remains: with
  ``--timeout-s`` it keeps a sleeping thread (~15 KiB) per query until the
  timeout has passed, so under load its threads number about query rate x
  (timeout + 1 s); they end by themselves (tested: after 600 requests in
  bursts, threads and memory return to their baseline).
* **DNS rebinding.** Bound to loopback, the front answers only requests
  whose ``Host`` is a loopback name, so a web page cannot read the endpoint
  through a hostname that resolves to 127.0.0.1.
* **Accept.** With no ``Accept`` header or ``*/*``, SELECT and ASK answer
  SPARQL JSON and CONSTRUCT and DESCRIBE answer Turtle (Oxigraph alone picks
  N-Quads). Any explicit media type is passed through: JSON, XML, CSV, TSV
  results; Turtle, N-Triples, RDF/XML graphs.

``FROM <file:...>``, ``FROM NAMED`` and the ``default-graph-uri`` /
``named-graph-uri`` parameters only select graphs inside the store; Oxigraph
never reads files or URLs for them (tested). ``LOAD`` is an update (refused).

One module per concern:

============== ==================================================================
``binary``     which ``oxigraph`` binary runs, and its version
``store``      the on-disk store of ``graph.ttl``, built once per version
``process``    one ``oxigraph serve-read-only`` process (memory limit, stops with us)
``supervisor`` restarts an Oxigraph that exits, replaces one that holds too much
``upstream``   the bounded pool of queries and connections to Oxigraph
``protocol``   what a SPARQL request may ask (pure functions: refused or sent on)
``front``      the HTTP server: connection limits, eviction, the Host check
``handler``    one connection: request deadline, routes, responses
``page``       the query page (``assets/``) and its Content-Security-Policy
``server``     all of it put together: :class:`SparqlServer`, :func:`serve`
``limits``     :class:`Limits`; ``errors``: :class:`ServeError`
============== ==================================================================

Examples
--------
>>> Limits().timeout
30.0
>>> accept_header(None)
'application/sparql-results+json, text/turtle;q=0.9'
>>> accept_header("text/csv")
'text/csv'
"""

from kg.query.serve.binary import find_oxigraph
from kg.query.serve.errors import ServeError
from kg.query.serve.limits import Limits
from kg.query.serve.protocol import accept_header
from kg.query.serve.server import SparqlServer, serve

__all__ = ["Limits", "ServeError", "SparqlServer", "serve", "find_oxigraph", "accept_header"]
