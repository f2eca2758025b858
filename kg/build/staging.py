"""A build directory holds one build at a time, staged and moved into place when complete;
a build that fails removes what it created there."""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path

from kg.build.report import BuildError, BuildReport
from kg.builddir import OUTPUT_FILES, STAGING_PREFIX, SUMMARY_FILE, BuildDir


def _not_yet_there(out: Path) -> list[Path]:
    """What a build into ``out`` creates and is to remove if it fails, deepest first: the
    directories up to ``out`` that do not exist yet, else the lock file and the cache."""
    missing = [path for path in (out, *out.parents) if not path.exists() and not path.is_symlink()]
    if missing:
        return missing  # removing the topmost new directory removes everything under it
    return [path for path in (BuildDir(out).lock, BuildDir(out).cache) if not path.exists()]


def _remove_created(paths: list[Path]) -> None:
    for path in reversed(paths):  # the topmost first: everything under it goes with it
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


@contextmanager
def _build_lock(out: Path):
    """Hold ``BUILD_DIR/.kg-build.lock`` for the build; another build holding it is an error.

    ``flock`` locks end with the process, so a killed build leaves no stale lock.
    """
    import fcntl

    out.mkdir(parents=True, exist_ok=True)
    path = BuildDir(out).lock
    handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held until the build ends
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise BuildError(
                f"{out} is being built by another kg build ({holder}); wait for it to finish "
                f"or build into another directory"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"process {os.getpid()}\n")
        handle.flush()
        yield
    finally:
        handle.close()


def _remove_leftovers(out: Path) -> None:
    """Staging directories and ``.part`` files of builds that were killed (the lock is ours)."""
    for path in out.glob(f"{STAGING_PREFIX}*"):
        shutil.rmtree(path, ignore_errors=True)
    for name in [*OUTPUT_FILES.values(), SUMMARY_FILE]:
        for part in out.glob(f".{name}.*.part"):
            part.unlink(missing_ok=True)


def _publish(stage: Path, out: Path, report: BuildReport) -> None:
    """Move the staged files into ``out``: summary.json out first, back in last."""
    staged, target = BuildDir(stage), BuildDir(out)
    target.summary.unlink(missing_ok=True)
    for kind in OUTPUT_FILES:
        if staged.output(kind).exists():
            os.replace(staged.output(kind), target.output(kind))
        else:
            target.output(kind).unlink(missing_ok=True)  # an earlier build's file this build did not write
    os.replace(staged.summary, target.summary)
    report.outputs = {
        kind: out / path.name if path.parent == stage else path for kind, path in report.outputs.items()
    }
