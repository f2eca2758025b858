"""``kg build``: read -> extract -> resolve -> assemble -> write, streaming.

Papers are read lazily and extracted in batches; extractions are spooled to
a temporary file while the resolver counts them, then read back once to be
resolved, written to ``papers.jsonl`` and added to the graph. Memory grows
with the graph, not with the input. With ``engine="dask"`` and an output
directory, resolution, assembly and writing run on the Dask cluster too
(:mod:`kg.cluster`), and write the same files byte for byte.

Every input record ends in ``manifest.jsonl`` as ``built``, ``duplicate`` (same
paper id as an earlier record) or ``skipped`` (with the reader's reason, or the
extractor's: a paper that fails or runs out of its time budget is skipped, and
the build goes on). Every file found in an input directory and not read is
there too, as ``ignored`` with the reason, and a file read in the format its
content shows rather than its extension's has a ``read`` row saying so. A build
that builds no paper at all is an error (every record and why is in the message),
not an empty graph.

A build that fails leaves nothing behind: the files and directories it created
(BUILD_DIR itself, its lock file, its extraction cache) are removed; a previous
build in BUILD_DIR stays as it was.

A build directory holds one build at a time: ``BUILD_DIR/.kg-build.lock`` is
held (``flock``) while a build runs, and a second build into it stops at once
with a clear error. Files are written into ``BUILD_DIR/.kg-staging-*/`` and moved
into place only when everything is written: ``summary.json`` is removed just
before the move and written last, so ``BUILD_DIR`` always holds either the
previous complete build or the new one (or, for the milliseconds of the move,
no ``summary.json``, which marks a build as incomplete). A killed build's
staging directory and ``.part`` files are removed by the next build.

Modules: :mod:`~kg.build.run` runs the build (:func:`build`),
:mod:`~kg.build.manifest` accounts for every input record,
:mod:`~kg.build.spool` holds extractions between the stages,
:mod:`~kg.build.staging` locks, stages and publishes the build directory,
:mod:`~kg.build.outputs` writes the files, :mod:`~kg.build.report` holds
:class:`BuildReport` and the summary's figures, and :mod:`~kg.build.progress`
the progress bar.
"""

from kg.build.report import BuildError, BuildReport
from kg.build.run import build
from kg.builddir import LOCK_FILE, OUTPUT_FILES

# Outside __all__, and importable from here as they were before the package was split.
from kg.build.progress import estimate_records as estimate_records
from kg.build.report import OnError as OnError
from kg.build.spool import spool_record as spool_record

__all__ = ["build", "BuildReport", "BuildError", "OUTPUT_FILES", "LOCK_FILE"]
