"""Numeric results as leaderboard entries: a value with its metric, subject, dataset, task and baseline.

Three steps, each general (no names or abstracts are listed here):

1. **Candidates.** Every number a result can be stated with (:data:`VALUE`):
   percentages, multiples (``4.5×``, ``3 times``, ``2-fold``), points, ranges
   (``4-16%``, ``1.1x~3.4x``), changes (``from 31.2% to 44.6%``, ``5% → 45.3%``,
   ``+3.4``, ``44.9 (+2.8)%``), orders of magnitude, and bare scores next to a
   Metric entity (``BLEU 31.5``, ``FID of 5.17``, ``50.9 AP``). Numbers inside
   a name (``GPT-4``, ``ResNet-50``) and model sizes (``7B``) are not candidates.
2. **Is it a result?** A logistic regression (:class:`~kg.extract.linear.LinearModel`,
   ``kg train-linear results``) over the candidate's shape and the words around it
   tells a result (``improves accuracy by 5%``) from a proportion or a setting
   (``5% of the data``, ``a 10% noise rate``). Without a model every candidate is kept.
3. **Attribution by syntax and proximity** within the sentence, each field left
   empty when the sentence does not state it:

   - metric: a Metric entity bound to the value (``50.9 AP``, ``AP of 50.9``,
     ``improves AP by 3.4``, ``3.4 gain in AP``), else the noun phrase the value
     measures (``77.3% training time``, ``reduces question count by 20%``);
   - subject: the actor (Method or Model) that states the value as the subject of
     its clause (``GPT-4 achieves 80%``), else the paper's main proposed method or
     model (the one relations hang on, :func:`kg.extract.relations.main_proposals`);
     none when the paper names none (the result is the paper's);
   - dataset and task: the Dataset / Task entity of the value's clause (``on X``),
     else the sentence's only one;
   - baseline: an actor after ``over``, ``than``, ``compared with``, ``outperforms`` ...;
   - direction: which way is better, from the metric (error, time: lower) or the
     change stated (improves: higher; reduces: lower);
   - setting: shots, model sizes, bit widths and epochs the sentence states.

The value's parts: ``number`` is the score it states (the second of ``from X to
Y``; none for a change or a range), ``delta`` the change it states
(``+3.4``, ``4.5x`` speed-up, the ``+2.8%`` of ``44.9% (+2.8%)``), ``unit`` its
unit (``%``, ``x``, ``pp``). Stored as dicts with character offsets (clean text)
in ``doc._.kg_results``; entity fields are ``(start_char, end_char)`` of a span.

The package, one concern a module:

* :mod:`~kg.extract.results.values`: the value pattern (:data:`VALUE`) and :func:`parse_value`;
* :mod:`~kg.extract.results.candidates`: step 1, :func:`result_candidates` and :class:`Candidate`;
* :mod:`~kg.extract.results.features`: step 2, the learned decision's :func:`candidate_features`;
* :mod:`~kg.extract.results.attribution`: step 3, each kept value as a record of its fields;
* :mod:`~kg.extract.results.stretches`: the part of its sentence a value's fields are looked for in;
* :mod:`~kg.extract.results.metric` and :mod:`~kg.extract.results.phrases`: what the value measures;
* :mod:`~kg.extract.results.actors`: its subject and baseline;
* :mod:`~kg.extract.results.places`: its dataset and task;
* :mod:`~kg.extract.results.direction`: which way is better;
* :mod:`~kg.extract.results.setting`: shots, sizes, bit widths, epochs;
* :mod:`~kg.extract.results.words`: the general English the rules share;
* :mod:`~kg.extract.results.component`: the registered ``kg_results`` factory and :class:`ResultFinder`.

Examples
--------
>>> VALUE.search("improves BLEU by up to 2.5 points").group(0)
'up to 2.5 points'
>>> [m.group(0) for m in VALUE.finditer("from 31.2% to 44.6% (43% relative)")]
['from 31.2% to 44.6%', '43%']
>>> parse_value("44.9 (+2.8)%")
('44.9% (+2.8%)', 44.9, '%', '+2.8%')
"""

from __future__ import annotations

from kg.extract.results.candidates import Candidate, result_candidates
from kg.extract.results.component import (  # noqa: F401  (make_result_finder: the spacy_factories entry point)
    MODELS_DIR, ResultFinder, make_result_finder,
)
from kg.extract.results.features import candidate_features
from kg.extract.results.values import VALUE, parse_value

__all__ = ["ResultFinder", "VALUE", "Candidate", "parse_value", "result_candidates", "candidate_features"]
