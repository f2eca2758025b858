#!/usr/bin/env bash
# A plain install builds graphs (issue 15): the wheel of this checkout, installed with no
# extras into a fresh virtualenv, is under 10 MB and `kg build` of the examples works; a
# command that needs an extra says which in one line. Run by .ci/run (`make check-install`).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Build from a copy of the files git knows: a stale build/ in the checkout can leak removed files.
mkdir "$work/src"
git ls-files -co --exclude-standard -z | tar --null -cf - -T - | tar -xf - -C "$work/src"
"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/pip" install -q --upgrade pip
"$work/venv/bin/pip" wheel -q --no-deps "$work/src" -w "$work/wheel"
wheel=("$work"/wheel/research_kg-*.whl)
size=$(stat -c %s "${wheel[0]}")
echo "wheel: $(basename "${wheel[0]}") $size bytes"
if (( size >= 10000000 )); then echo "error: the wheel is over 10 MB" >&2; exit 1; fi

"$work/venv/bin/pip" install -q "${wheel[0]}"
echo "installed: $("$work/venv/bin/pip" list --format=freeze | wc -l) distributions," \
     "site-packages $(du -sm "$work"/venv/lib/python3*/site-packages | cut -f1) MB"
"$work/venv/bin/kg" build examples/iclr2025 -o "$work/out" -q
test -s "$work/out/graph.json" && test -s "$work/out/summary.json"
echo "kg build examples/iclr2025: $(wc -l < "$work/out/papers.jsonl") papers"

status=0
"$work/venv/bin/kg" query sparql "$work/out" --example top_benchmarks 2> "$work/err" || status=$?
expected="error: this command needs pyoxigraph, which is not installed: pip install 'research-kg[sparql]'"
if [[ $status -ne 1 || "$(cat "$work/err")" != "$expected" ]]; then
  echo "error: kg query sparql without the sparql extra exited $status with: $(cat "$work/err")" >&2
  exit 1
fi
echo "without [sparql]: $expected"
