"""Scoring extraction against gold annotations (``kg evaluate``)."""
