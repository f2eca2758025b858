"""The errors of kg's SPARQL access: one base class, so a caller catches them all."""


class SparqlError(ValueError):
    """A query that cannot be run: a syntax error, or an error while evaluating it."""


class QueryRefused(SparqlError):
    """A query kg will not run: an update, or ``SERVICE`` (a request to another server)."""
