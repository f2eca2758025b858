"""How ``kg serve`` reports trouble: :class:`ServeError` when it cannot go on, :func:`note` for what it survives."""

from __future__ import annotations

import sys

__all__ = ["ServeError", "note"]


class ServeError(RuntimeError):
    """The endpoint cannot start or its Oxigraph process failed."""


def note(message: str) -> None:
    """One line on stderr: the server keeps running (an Oxigraph restart, a failed answer)."""
    print(f"kg serve: {message}", file=sys.stderr, flush=True)
