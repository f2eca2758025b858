#!/bin/sh
# Load a built kg graph into the Neo4j of docker-compose.yml, in one command.
#
#   NEO4J_PASSWORD=... docker/load.sh [--bulk] BUILD_DIR
#
# BUILD_DIR is the output of `kg build` (it holds graph.json).
#   default  online: start Neo4j, then MERGE the graph through Bolt (kg.export.neo4j.write_neo4j):
#            batched, idempotent; run it again after new papers to add only what is new.
#   --bulk   offline: write CSVs (kg.export.neo4j_bulk) into docker/import, stop Neo4j,
#            REPLACE the database with `neo4j-admin database import full`, start Neo4j,
#            create the id constraints. Fastest for large graphs.
# Environment: NEO4J_PASSWORD (required), KG (the kg command; default: kg on the PATH, e.g. .venv/bin/kg),
# NEO4J_BOLT_PORT / NEO4J_HTTP_PORT (default 7687 / 7474).
set -eu

here="$(cd "$(dirname "$0")" && pwd)"
mode=online
if [ "${1:-}" = "--bulk" ]; then mode=bulk; shift; fi
if [ $# -ne 1 ]; then
    echo "usage: NEO4J_PASSWORD=... $0 [--bulk] BUILD_DIR" >&2
    exit 2
fi
build="$1"
: "${NEO4J_PASSWORD:?set NEO4J_PASSWORD (the password Neo4j is started with)}"
export NEO4J_PASSWORD
kg="${KG:-kg}"
compose="docker compose -f $here/docker-compose.yml"
export KG_IMPORT_DIR="${KG_IMPORT_DIR:-$here/import}"
mkdir -p "$KG_IMPORT_DIR"

# cypher-shell inside the container; the password comes from the container's NEO4J_AUTH
# through the environment, so it never appears in a command line.
cypher() {
    $compose exec -T neo4j sh -c 'NEO4J_PASSWORD="${NEO4J_AUTH#neo4j/}" exec cypher-shell -u neo4j "$@"' cypher-shell "$@"
}

wait_for_neo4j() {
    printf 'waiting for Neo4j'
    tries=0
    until cypher 'RETURN 1' >/dev/null 2>&1; do
        tries=$((tries + 1))
        if [ "$tries" -gt 90 ]; then
            echo; echo "Neo4j did not come up; see: $compose logs neo4j" >&2
            exit 1
        fi
        printf '.'
        sleep 2
    done
    echo
}

if [ "$mode" = bulk ]; then
    "$kg" export neo4j-bulk "$build" -o "$KG_IMPORT_DIR"
    $compose stop neo4j >/dev/null 2>&1 || true
    # The image's entrypoint runs commands as the neo4j user; the database must be stopped.
    $compose run --rm --no-deps -e IMPORT_DIR=/import -e DATABASE=neo4j neo4j sh /import/import.sh
    $compose up -d neo4j
    wait_for_neo4j
    cypher -f /import/schema.cypher
else
    $compose up -d neo4j
    wait_for_neo4j
    NEO4J_URI="bolt://localhost:${NEO4J_BOLT_PORT:-7687}" NEO4J_USERNAME=neo4j \
        "$kg" export neo4j "$build"
fi
echo "Neo4j Browser: http://localhost:${NEO4J_HTTP_PORT:-7474} (user neo4j). Example queries: $here/queries.cypher"
