"""Which ``oxigraph`` server binary to run, and its version (the store cache is kept per version)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from kg.query.serve.errors import ServeError

__all__ = ["find_oxigraph", "oxigraph_version"]


def find_oxigraph(binary: str | os.PathLike[str] | None = None) -> str:
    """The ``oxigraph`` server binary: ``binary``, the one next to this Python, or on PATH."""
    if binary is not None:
        path = shutil.which(str(binary))
        if path is None:
            raise ServeError(f"not an executable: {binary}")
        return path
    beside = Path(sys.executable).parent / "oxigraph"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    path = shutil.which("oxigraph")
    if path is None:
        from kg.extras import install_hint

        raise ServeError(f"the Oxigraph server is not installed: {install_hint('sparql')}")
    return path


def oxigraph_version(binary: str) -> str:
    """``0.5.13`` from ``oxigraph --version``."""
    done = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30,
                          check=False)
    words = done.stdout.split()
    if done.returncode != 0 or not words:
        raise ServeError(f"{binary} --version failed: {done.stderr.strip()}")
    return words[-1]
