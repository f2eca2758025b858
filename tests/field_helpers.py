"""The real field: NeurIPS 2023 and ICML 2024 abstracts (``shared/data/openreview``), built once.

The abstracts are not in the repository (see their SOURCE.md); tests that need them
skip only when they are absent. :func:`field_build` runs ``kg build`` on both files
(about a minute and a half on two cores) and keeps the output in pytest's cache
directory under a key hashed from the data files and the code that extracts,
resolves and assembles, so a changed extractor rebuilds it and an unchanged one
reuses it across runs.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CANDIDATES = [
    ROOT.parent / "shared" / "data" / "openreview",  # next to the repository, as on a developer's machine
    ROOT.parents[1] / "shared" / "data" / "openreview",  # a git worktree one level further down
    Path("/work/shared/data/openreview"),
]
FILES = ("neurips2023.jsonl", "icml2024.jsonl")
#: The ICML 2024 abstracts alone (a real corpus build of 2,602 papers), or None.
ICML2024 = next((c / "icml2024.jsonl" for c in CANDIDATES if (c / "icml2024.jsonl").is_file()), None)


def field_data() -> Path | None:
    """The directory holding both openreview files, or None."""
    for candidate in CANDIDATES:
        if all((candidate / name).is_file() for name in FILES):
            return candidate
    return None


def _key(data: Path) -> str:
    digest = hashlib.sha256()
    for name in FILES:
        stat = (data / name).stat()
        digest.update(f"{name} {stat.st_size} {int(stat.st_mtime)}".encode())
    package = ROOT / "kg"
    code = [*(package / "extract").rglob("*"), *(package / "ingest").rglob("*.py"), *(package / "build").rglob("*.py"),
            *(package / n for n in ("resolve.py", "assemble.py", "ids.py", "types.py"))]
    for path in sorted(code):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def field_build(cache_root: Path) -> Path:
    """The ``kg build`` output of both openreview files (built at most once per key)."""
    data = field_data()
    assert data is not None, "call field_data() first and skip when it is None"
    target = cache_root / _key(data)
    if (target / "graph.json").is_file():
        return target
    cache_root.mkdir(parents=True, exist_ok=True)
    for old in cache_root.iterdir():
        if old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=cache_root))
    from kg.build import build

    build([data / name for name in FILES], tmp, outputs=("papers", "manifest", "node_link"), cache=False)
    os.replace(tmp, target)
    return target
