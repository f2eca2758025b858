"""``kg serve``: a read-only SPARQL endpoint over a built graph."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli.common import EXIT_FAILED, EXIT_OK, err, require_complete_build


@click.command("serve")
@click.argument("build_dir", type=click.Path(exists=True, path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but a loopback address opens the graph "
                   "to the network.")
@click.option("--port", type=click.IntRange(0, 65535), default=7878, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--timeout", type=click.FloatRange(0.1), default=30.0, show_default=True,
              help="Seconds a query may take.")
@click.option("--max-result-mb", type=click.FloatRange(0.001), default=16.0, show_default=True,
              help="Largest response, in MiB; larger results get 413 (add a LIMIT).")
@click.option("--max-concurrent", type=click.IntRange(1), default=8, show_default=True,
              help="Queries evaluated at once; others wait (up to --timeout).")
@click.option("--max-per-client", type=click.IntRange(1), default=32, show_default=True,
              help="Open connections from one client address; more get 503 at once.")
@click.option("--max-memory-mb", type=click.IntRange(0), default=2048, show_default=True,
              help="Memory the Oxigraph process may allocate; a query needing more gets 502 and "
                   "Oxigraph is restarted; above half of it, Oxigraph is replaced once idle. 0: no limit.")
@click.option("--oxigraph", "oxigraph", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="The oxigraph server binary (default: the one installed with kg).")
@click.option("-q", "--quiet", is_flag=True, help="Do not log requests.")
def serve(build_dir, host, port, timeout, max_result_mb, max_concurrent, max_per_client, max_memory_mb,
          oxigraph, quiet):
    """Serve BUILD_DIR (a build directory, or an RDF file: .ttl or .nt) as a SPARQL endpoint.

    A SPARQL 1.1 Protocol endpoint at /sparql (GET and POST; results as JSON,
    XML, CSV or TSV, CONSTRUCT and DESCRIBE as Turtle, by the Accept header)
    and a query page at /. Read-only: updates, LOAD and SERVICE are refused.
    Oxigraph answers the queries; the store is cached in BUILD_DIR/.oxigraph.
    Stop with Ctrl-C.

    \b
    Example:
      kg build examples/iclr2025 -o out
      kg serve out
      curl -H 'Accept: text/csv' --data-urlencode \\
        'query=SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }' http://127.0.0.1:7878/sparql
    """
    from kg.query.serve import Limits, ServeError
    from kg.query.serve import serve as run_server

    require_complete_build(build_dir)

    limits = Limits(
        timeout=timeout,
        max_result_bytes=int(max_result_mb * 1024 * 1024),
        max_concurrent=max_concurrent,
        max_per_client=max_per_client,
        max_memory=max_memory_mb * 1024 * 1024,
    )

    def ready(server) -> None:
        base = server.url.removesuffix("sparql")
        click.echo(f"kg serve: SPARQL endpoint at {server.url}")
        click.echo(f"kg serve: query page at {base}")
        click.echo(
            f"kg serve: {server.graph}; read-only; timeout {limits.timeout:g} s; results up to "
            f"{max_result_mb:g} MiB; Ctrl-C to stop"
        )
        sys.stdout.flush()

    try:
        run_server(build_dir, host=host, port=port, limits=limits, oxigraph=oxigraph, quiet=quiet,
                   ready=ready)
    except (ServeError, FileNotFoundError) as error:
        from rich.markup import escape

        err.print(f"[red]error:[/] {escape(str(error))}", highlight=False)
        sys.exit(EXIT_FAILED)
    sys.exit(EXIT_OK)


if __name__ == "__main__":  # python -m kg.cli.serve
    serve()
