"""Entity recognition by catalogue, acronym definition, name shape and head noun.

Candidates, strongest first:
1. catalogue matches (the ``span_ruler`` spans in ``catalogue_key``), with their ids;
2. acronyms and their long forms defined in the text (``doc._.kg_abbreviations``);
3. name-shaped tokens: ``AFLOW``, ``GNN-Diff``, ``GritLM-8x7B``, ``ComposableART``,
   with a model size kept (``OPT (30B)`` -> ``OPT-30B``);
4. Title Case phrases mid-sentence (``Monte Carlo Tree Search``);
5. lower-case noun phrases ending in a head noun of a type (``node classification``).

Types come from the catalogue, else the long form's head, else context
(``X dataset``, a list shared with a known dataset, a model size), else Method.
Overlaps keep the stronger, then the longer candidate.

The package, one concern a module:

* :mod:`~kg.extract.entities.candidate`: :class:`Candidate` and the rules' priorities;
* :mod:`~kg.extract.entities.shapes` and :mod:`~kg.extract.entities.phrase_types`: what a name
  looks like (:func:`is_name_like`) and the type a phrase's head gives (:func:`type_of_phrase`);
* the candidate sources: :mod:`~kg.extract.entities.learned_spans` (the recogniser's spans),
  :mod:`~kg.extract.entities.catalogue`, :mod:`~kg.extract.entities.defined` (acronyms and long
  forms), :mod:`~kg.extract.entities.names` (name shapes, naming slots),
  :mod:`~kg.extract.entities.introduced` (introduced and emphasised phrases) and
  :mod:`~kg.extract.entities.phrases` (title and head-noun phrases);
* :mod:`~kg.extract.entities.choice`: which candidates stand, none overlapping;
* :mod:`~kg.extract.entities.context_types`: their types from context;
* :mod:`~kg.extract.entities.features`: the learned decision's :func:`entity_features`;
* :mod:`~kg.extract.entities.component`: the registered ``kg_entities`` factory and
  :class:`EntityRecognizer`.

Each rule module gives :class:`EntityRecognizer` one mixin of methods rather than module
functions: the rules read the recogniser's settings and per-document state (``self.vocab``,
``self._blocked``, ``self._texts``) and call one another's helpers, so as methods they moved
unchanged and stay reachable as before (``recogniser._defined(doc)``).
"""

from __future__ import annotations

from kg.extract.entities.candidate import (
    PRIORITY_CATALOGUE, PRIORITY_DEFINED, PRIORITY_NAME, PRIORITY_PHRASE, PRIORITY_TITLE, Candidate,
)
from kg.extract.entities.component import (  # noqa: F401  (make_entity_recognizer: the spacy_factories entry point)
    EntityRecognizer, make_entity_recognizer,
)
from kg.extract.entities.features import candidate_groups, entity_features, is_variant
from kg.extract.entities.introduced import emphasized_spans
from kg.extract.entities.names import OUR_NEW
from kg.extract.entities.phrase_types import type_of_phrase
from kg.extract.entities.shapes import SIZE, is_name_like

__all__ = ["EntityRecognizer", "candidate_groups", "emphasized_spans", "entity_features", "is_name_like",
           "type_of_phrase", "Candidate", "OUR_NEW", "PRIORITY_CATALOGUE", "PRIORITY_DEFINED", "PRIORITY_NAME",
           "PRIORITY_PHRASE", "PRIORITY_TITLE", "SIZE", "is_variant"]
