"""What every command shares: exit codes and the error console."""

from __future__ import annotations

from rich.console import Console

EXIT_OK, EXIT_FAILED, EXIT_SKIPPED = 0, 1, 3
err = Console(stderr=True)
