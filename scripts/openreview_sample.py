"""Write the abstracts of an annotated openreview sample as JSON Lines, for `kg build`.

The gold files under tests/data/openreview_gold/ hold ids, titles and
annotations only; the abstracts stay in ../shared/data/openreview/ (their
SOURCE.md: use them to develop and measure, do not ship them). This script
joins the two::

    python scripts/openreview_sample.py tests/data/openreview_gold/dev.jsonl -o /tmp/dev.jsonl
    kg build /tmp/dev.jsonl -o /tmp/dev
    kg evaluate names tests/data/openreview_gold/dev.jsonl /tmp/dev/papers.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "openreview"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gold", type=Path, help="a gold file with an 'id' per line")
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=DATA, help=f"the openreview folder (default {DATA})")
    args = parser.parse_args()
    wanted = [json.loads(line)["id"] for line in args.gold.open(encoding="utf-8") if line.strip()]
    found = {}
    for path in sorted(args.data.glob("*.jsonl")):
        for line in path.open(encoding="utf-8"):
            record = json.loads(line)
            if record["id"] in wanted:
                found[record["id"]] = record
    missing = [i for i in wanted if i not in found]
    if missing:
        raise SystemExit(f"{len(missing)} ids not found in {args.data}: {', '.join(missing[:5])}")
    with args.output.open("w", encoding="utf-8") as out:
        for paper_id in wanted:
            out.write(json.dumps(found[paper_id], ensure_ascii=False) + "\n")
    print(f"{len(wanted)} abstracts -> {args.output}")


if __name__ == "__main__":
    main()
