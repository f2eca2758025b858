"""What a paper proposes is found by syntax, not by its name: replace every proposed name of
the example abstracts (as our own annotation gives them) with an invented word and check the
invented word is still found as a proposal."""

import json
import re
from pathlib import Path

from kg.extract.pipeline import extract_papers
from kg.ids import name_key
from kg.ingest import read_papers
from kg.types import Paper

GOLD = Path(__file__).resolve().parents[1] / "data" / "seeds_gold.jsonl"
INVENTED = ["Blorvex", "Quintaro", "Zephyrix", "Mundalo", "Krastel", "Vobrin"]


def renamed_papers(examples_dir):
    gold = [json.loads(line) for line in GOLD.read_text("utf-8").splitlines()]
    papers = list(read_papers([examples_dir]))
    for record, paper in zip(gold, papers):
        text, names = paper.abstract, []
        proposed = [e["name"] for e in record["entities"] if e["proposed"]]
        for i, name in enumerate(proposed):
            new = INVENTED[i % len(INVENTED)]
            new = new.upper() if name.isupper() else new
            pattern = re.compile(r"(?<![\w-])" + re.escape(name) + r"(?!\w)")
            if pattern.search(text):
                text = pattern.sub(new, text)
                names.append(new)
        yield Paper(paper.id, text, paper.source), names


def test_invented_proposal_names_are_found(nlp, examples_dir):
    pairs = list(renamed_papers(examples_dir))
    found = total = 0
    for record, (_, names) in zip(extract_papers([p for p, _ in pairs], nlp), pairs):
        proposed = {name_key(n) for e in record.entities if e.proposed for n in [e.name, *e.aliases]}
        for name in names:
            total += 1
            found += any(key.startswith(name_key(name)) for key in proposed)
    print(f"invented proposal names found: {found}/{total}")  # pytest -s shows it
    assert total >= 30
    assert found / total >= 0.8, f"{found}/{total} invented proposal names found"
