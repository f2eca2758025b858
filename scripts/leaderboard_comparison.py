"""Compare kg's result tuples with public leaderboards (Papers with Code via the SOTA? corpus, NLP-TDMS).

Both public sets are paper-level (task, dataset, metric, score) tuples keyed by
arXiv id (``../shared/data/pwc_sota_leaderboards``, ``../shared/data/nlp_tdms``;
read their SOURCE.md). kg needs abstracts. The papers of both that we have text
for are SciREX training papers (full text, ``../shared/data/scirex``): their
titles are matched to NLP-progress rows (``../shared/data/nlp_progress_sota``),
which give each paper's arXiv URL. The openreview abstracts (NeurIPS 2023, ICML
2024) carry no arXiv id and none of their titles occurs in the public sets, so
no openreview paper can be matched; this script says how many it tried.

For each matched paper the abstract is cut from the SciREX text (the section
headed ``Abstract``, else the first section after the title), built with kg,
and each public tuple is checked:

- stated: the tuple's score occurs as a number in the abstract (what any
  abstract-only extractor could find at best);
- found: kg reports a result stating that number (its score; for a value that
  states no score, a number of the value; never the baseline's ``X`` of ``X -> Y``);
- + dataset / + metric: that result's dataset / metric name matches the tuple's
  (same words, one name's words all within the other's, or an acronym of it).

    python scripts/leaderboard_comparison.py -o /tmp/compare          # prints the report (Markdown)
    python scripts/leaderboard_comparison.py -o /tmp/compare --json   # and the numbers as JSON
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
_ARXIV = re.compile(r"(\d{4}\.\d{4,5})")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def norm_title(text: str | None) -> str:
    return re.sub(r"[^a-z0-9]", "", (text or "").lower())


def arxiv_of(text: str | None) -> str | None:
    found = _ARXIV.search(text or "")
    return found.group(1) if found else None


def detokenise(words: list[str]) -> str:
    text = " ".join(words)
    for pattern, repl in ((r" ([,.;:%)\]])", r"\1"), (r"([(\[]) ", r"\1"), (r" - ", "-"), (r" 's\b", "'s"),
                          (r" n't\b", "n't")):
        text = re.sub(pattern, repl, text)
    return text


def scirex_abstract(doc: dict) -> tuple[str, str] | None:
    """(title, abstract) of a SciREX paper, or None when no abstract can be cut out."""
    words = doc["words"]
    s, e = doc["sentences"][0]
    title = re.sub(r"^document\s*:\s*", "", detokenise(words[s:e]))
    for start, end in doc["sections"]:
        head = words[start:start + 3]
        if [w.lower() for w in head[:3]] == ["section", ":", "abstract"]:
            return title, detokenise(words[start + 3:end])
    start, end = doc["sections"][0]
    if words[start:start + 2] == ["document", ":"] and end > e:
        return title, detokenise(words[e:end])
    return None


def nlp_progress_rows(path: Path) -> list[dict]:
    rows: list[dict] = []

    def walk(tasks):
        for task in tasks:
            for dataset in task.get("datasets", []):
                for part in [dataset, *(dataset.get("subdatasets") or [])]:
                    for row in (part.get("sota") or {}).get("rows", []):
                        rows.append({"task": task["task"], "dataset": part.get("dataset") or dataset.get("dataset"),
                                     "title": row.get("paper_title"), "url": row.get("paper_url"),
                                     "metrics": row.get("metrics") or {}})
            walk(task.get("subtasks", []))

    walk(json.loads(path.read_text(encoding="utf-8")))
    return rows


def public_tuples(data: Path) -> tuple[dict[str, list[dict]], dict[str, list[dict]]]:
    """arXiv id -> tuples, for Papers with Code (SOTA? corpus) and for NLP-TDMS."""
    pwc: dict[str, list[dict]] = {}
    with gzip.open(data / "pwc_sota_leaderboards" / "annotations.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            key = re.sub(r"v\d+$", "", record["paper_id"])
            pwc.setdefault(key, [])
            for board in record["leaderboards"]:
                if board not in pwc[key]:
                    pwc[key].append(board)
    links = {}
    for line in (data / "nlp_tdms" / "paper_links.tsv").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if len(fields) >= 2:
            links[fields[0]] = arxiv_of(fields[1]) or arxiv_of(fields[0])
    tdms: dict[str, list[dict]] = {}
    for line in (data / "nlp_tdms" / "resultsAnnotation.tsv").read_text(encoding="utf-8").splitlines():
        name, _, tuples = line.partition("\t")
        key = links.get(name) or arxiv_of(name)
        if not key:
            continue
        for item in tuples.split("$"):
            parts = item.split("#")
            if len(parts) == 4:
                tdms.setdefault(key, []).append(dict(zip(("task", "dataset", "metric", "score"), parts)))
    return pwc, tdms


def _words(text: str | None) -> frozenset[str]:
    from kg.ids import name_key

    return frozenset(w for x in re.split(r"[\s\-_/()]+", text or "") for w in name_key(x).split("-") if w)


def names_match(ours: str | None, theirs: str | None) -> bool:
    """The same words, or one name's words all within the other's (``WMT 2014`` in ``WMT2014
    English-German``), or one an acronym of the other (``WoZ``, ``Wizard-of-Oz``)."""
    from kg.ids import name_key
    from kg.resolve import abbreviates

    a, b = _words(ours), _words(theirs)
    if not (a and b):
        return False
    return a <= b or b <= a or abbreviates(ours, name_key(theirs)) or abbreviates(theirs, name_key(ours))


def _numbers(text: str) -> set[float]:
    return {float(n) for n in _NUMBER.findall(text.replace(",", ""))}


def compare(papers: list[dict], public: dict[str, list[dict]]) -> dict:
    counts = {"papers": 0, "tuples": 0, "stated": 0, "found": 0, "found_dataset": 0, "found_dataset_metric": 0,
              "kg_results": 0, "kg_results_with_dataset": 0, "kg_results_in_public": 0}
    examples = []
    for paper in papers:
        key = paper["id"].removeprefix("arxiv:")
        tuples = [t for t in public.get(key, []) if _NUMBER.search(t.get("score") or "")]
        if not tuples:
            continue
        counts["papers"] += 1
        names = {e["id"]: e["name"] for e in paper["entities"]}
        results = paper["results"]
        counts["kg_results"] += len(results)
        counts["kg_results_with_dataset"] += sum(1 for r in results if r["dataset"])
        scores = {float(_NUMBER.search(t["score"].replace(",", "")).group(0)) for t in tuples}
        counts["kg_results_in_public"] += sum(1 for r in results if r.get("number") in scores or (
            r.get("number") is None and _numbers(r["value"]) & scores))
        stated_numbers = _numbers(paper["abstract"])
        for t in tuples:
            score = float(_NUMBER.search(t["score"].replace(",", "")).group(0))
            counts["tuples"] += 1
            if score not in stated_numbers:
                continue
            counts["stated"] += 1
            hits = [r for r in results if r.get("number") == score or (
                r.get("number") is None and score in _numbers(r["value"]))]  # not the ``from`` of from-to
            if not hits:
                continue
            counts["found"] += 1
            with_dataset = [r for r in hits if names_match(names.get(r["dataset"]), t["dataset"])]
            counts["found_dataset"] += bool(with_dataset)
            full = [r for r in with_dataset if names_match(r.get("metric"), t["metric"])]
            counts["found_dataset_metric"] += bool(full)
            r = (full or with_dataset or hits)[0]
            examples.append({"paper": paper["title"], "public": t, "kg": {
                "value": r["value"], "metric": r.get("metric"), "dataset": names.get(r["dataset"]),
                "subject": names.get(r["subject"])}})
    return {"counts": counts, "examples": examples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-o", "--output", type=Path, required=True, help="a folder for the abstracts and the build")
    parser.add_argument("--data", type=Path, default=DATA, help=f"the shared data folder (default {DATA})")
    parser.add_argument("--json", action="store_true", help="also print the numbers as JSON")
    args = parser.parse_args()
    from kg.build import build
    from kg.builddir import BuildDir

    data, out = args.data, args.output
    out.mkdir(parents=True, exist_ok=True)
    progress = nlp_progress_rows(data / "nlp_progress_sota" / "nlp-progress.json")
    arxiv_by_title = {norm_title(r["title"]): arxiv_of(r["url"]) for r in progress if arxiv_of(r["url"])}
    pwc, tdms = public_tuples(data)
    with gzip.open(data / "scirex" / "train.jsonl.gz", "rt", encoding="utf-8") as handle:
        scirex = [json.loads(line) for line in handle]
    matched = []
    for doc in scirex:
        cut = scirex_abstract(doc)
        if cut is None:
            continue
        title, abstract = cut
        key = arxiv_by_title.get(norm_title(title))
        if key and (key in pwc or key in tdms):
            matched.append({"id": f"arxiv:{key}", "arxiv_id": key, "title": title, "abstract": abstract})
    openreview = [json.loads(line) for name in ("icml2024.jsonl", "neurips2023.jsonl")
                  for line in (data / "openreview" / name).open(encoding="utf-8")]
    public_titles = {norm_title(r["title"]) for r in progress}
    openreview_matches = sum(1 for r in openreview if norm_title(r.get("title")) in public_titles)
    source = out / "matched.jsonl"
    source.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in matched), encoding="utf-8")
    build([source], out / "build", outputs=("papers", "node_link"), cache=False)
    papers = [json.loads(line) for line in BuildDir(out / "build").papers.open(encoding="utf-8")]
    report = {"openreview_papers": len(openreview), "openreview_matched": openreview_matches,
              "scirex_papers": len(scirex), "matched": len(matched),
              "pwc": compare(papers, pwc), "nlp_tdms": compare(papers, tdms)}
    print(f"openreview: {len(openreview)} papers, {openreview_matches} matched by title (no arXiv ids there)")
    print(f"SciREX: {len(scirex)} papers, {len(matched)} matched to an arXiv id in Papers with Code or NLP-TDMS")
    print("| public set | papers | tuples | score stated in the abstract | kg finds the score | + dataset "
          "| + dataset + metric | kg results (with a dataset) | kg results whose score is a public one |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in ("pwc", "nlp_tdms"):
        c = report[name]["counts"]
        print(f"| {name} | {c['papers']} | {c['tuples']} | {c['stated']} | {c['found']} | {c['found_dataset']} "
              f"| {c['found_dataset_metric']} | {c['kg_results']} ({c['kg_results_with_dataset']}) "
              f"| {c['kg_results_in_public']} |")
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
