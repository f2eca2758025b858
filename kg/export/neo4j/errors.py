"""The one error of a load, and its text: one line, never any credentials."""

from __future__ import annotations

import re
from collections.abc import Iterable


class Neo4jExportError(RuntimeError):
    """Loading into Neo4j failed; the message says where and why (never any credentials)."""


#: Neo4j's default minimum password length; shorter secrets are not masked in messages.
MIN_MASKED_LENGTH = 8
#: Characters that continue a word, a number or a host name around a masked secret.
_WORD_CHARS = r"\w.:/@%+~-"


def _redact_uri(uri: str) -> str:
    """``bolt://user:secret@host:7687`` -> ``bolt://host:7687``."""
    return re.sub(r"(?<=://)[^/@\s]*@", "", uri)


def mask_secret(text: str, secret: str | None) -> str:
    """``text`` without credentials: URIs lose their ``user:password@``, and ``secret`` is masked.

    Neither the driver nor Neo4j repeats a password in its messages; this is a
    second guard. The secret is masked only where it stands as a whole token,
    never inside a longer word, number or address, and only when it has at least
    :data:`MIN_MASKED_LENGTH` characters: a shorter one (``127``, ``1``) cannot be
    told apart from the ports, addresses and words of a message, and masking it
    would garble them ("Couldn't connect to ***.0.0.1:1").

    >>> mask_secret("Couldn't connect to 127.0.0.1:1", "127")
    "Couldn't connect to 127.0.0.1:1"
    >>> mask_secret("no user with password 'hunter2-hunter2'", "hunter2-hunter2")
    "no user with password '***'"
    >>> mask_secret("cannot use bolt://kg:s3cr3t@host:7687", "s3cr3t")
    'cannot use bolt://host:7687'
    """
    text = _redact_uri(text)
    if not secret or len(secret) < MIN_MASKED_LENGTH:
        return text
    pattern = f"(?<![{_WORD_CHARS}]){re.escape(secret)}(?![{_WORD_CHARS}])"
    return re.sub(pattern, "***", text)


def _describe(exc: BaseException, secrets: Iterable[str | None] = ()) -> str:
    """The error on one line: Neo4j's code and message, or the class and message of others.

    FalkorDB's unnamed errors are explained. (The driver's own text of a Neo4j error
    adds GQL status fields, which for a failed login read "unexpected error ... see
    debug log": misleading, so only the code and message are kept.)
    """
    code = getattr(exc, "code", None)
    message = getattr(exc, "message", None)
    if code and message and str(code).startswith("Neo.") and "UnknownError" not in str(code):
        text = " ".join(f"{code}: {message}".split())
    else:
        text = " ".join(f"{type(exc).__name__}: {exc}".split())
    metadata = getattr(exc, "metadata", None)
    raw = metadata.get("code") if isinstance(metadata, dict) else None
    if code and "UnknownError" in str(code):
        if isinstance(raw, str) and not raw.startswith("Neo."):
            text += f" (the server's own code: {raw})"
        text += " (FalkorDB reports errors this way over Bolt)"
    for secret in secrets:
        text = mask_secret(text, secret)
    return text
