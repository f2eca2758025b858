"""``python tests/neo4j_server install|run|version``: the test Neo4j by hand.

``install`` resolves the jars with Maven (what ``make test`` does first);
``run`` starts a server in a temp dir (or ``--home``), prints its URI, user and
password, and stops it on Ctrl-C.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from neo4j_server import Neo4jServer, Neo4jServerError, classpath, java, neo4j_version

    parser = argparse.ArgumentParser(prog="python tests/neo4j_server", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("install", help="resolve the Neo4j jars with Maven (into ~/.m2)")
    commands.add_parser("version", help="print the Neo4j version pom.xml pins")
    run = commands.add_parser("run", help="start a server and wait for Ctrl-C")
    run.add_argument("--home", type=Path, help="data directory (default: a new temp dir, removed)")
    run.add_argument("--port", type=int, help="Bolt port (default: a free one)")
    run.add_argument("--password", help="password of user neo4j (default: a random one)")
    run.add_argument("--heap", default="1g")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))  # stop the server on kill too
    try:
        if args.command == "version":
            print(neo4j_version())
        elif args.command == "install":
            java()
            for profile in ("server", "cypher-shell"):
                jars = classpath(profile, refresh=True).count(":") + 1
                print(f"Neo4j {neo4j_version()} {profile}: {jars} jars resolved")
        else:
            server = Neo4jServer(args.home, port=args.port, password=args.password, heap=args.heap)
            with server:
                print(f"Neo4j {neo4j_version()} at {server.uri}, user neo4j, password {server.password}")
                print(f"data in {server.home}; Ctrl-C stops it", flush=True)
                try:
                    while server.running:
                        time.sleep(1)
                except KeyboardInterrupt:
                    pass
    except Neo4jServerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
