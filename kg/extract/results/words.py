"""General English the rules read, shared by the steps: words of change, comparison, scoring and
which way a metric is better (none comes from the annotated abstracts)."""

from __future__ import annotations

import re

_CHANGE_NOUNS = re.compile(
    r"^(?:improvements?|increases?|gains?|boosts?|reductions?|decreases?|drops?|savings?|"
    r"advantages?|margins?|enhancements?|lifts?|jumps?)$", re.IGNORECASE)
_UP = frozenset("improve improves improved improving improvement improvements increase increases increased "
                "increasing boost boosts boosted boosting gain gains higher better faster more raise raises "
                "outperform outperforms outperforming outperformed surpass surpasses surpassing speedup "
                "speed-up speedups accelerate accelerates accelerating acceleration up enhance enhances "
                "enhancing exceeds exceeding".split())
_DOWN = frozenset("reduce reduces reduced reducing reduction reductions decrease decreases decreased decreasing "
                  "lower lowers lowering fewer less save saves saving savings cut cuts cutting drop drops "
                  "shrink shrinks smaller down".split())
_LOWER_BETTER = frozenset("error errors loss losses time latency latencies memory cost costs perplexity fid "
                          "wer cer rmse mae mse regret violation violations overhead energy flops size steps "
                          "queries toxicity fpr fpr95 runtime distance consumption footprint usage "
                          "epe ece kid lpips bpd nll mape smape divergence gap count".split())
_HIGHER_BETTER = frozenset("accuracy accuracies precision recall f1 f-score auc auroc auprc ap map miou iou "
                           "bleu rouge rouge-1 rouge-2 rouge-l meteor cider success throughput "
                           "speedup speed-up speed win reward rewards return returns ndcg psnr ssim gain "
                           "improvement efficiency robustness fidelity coverage pass@1 pass@k hit@1 "
                           "mrr em pq hiou nds correlation".split())
_BASELINE_BEFORE = frozenset("over than vs vs. versus against outperforms outperform outperforming outperformed "
                             "surpasses surpass surpassing beats beat beating exceeds exceeding relative "
                             "baseline baselines compared comparing previous prior".split())
_WE = frozenset("we our ours us this proposed".split())
_PREPOSITIONS = frozenset("with using on of for by from via in into to under against over than across "
                          "like as between among".split())
#: What runs a method in a clause (``agents trained with X``, ``pre-training using X``).
_USING = frozenset("using with on via".split())
_METRIC_GLUE = frozenset("of = : is was are were score scores reaches reaching reached achieves achieving "
                         "achieved attains attaining obtains obtaining a an the to at with by within".split())
_SCORE_VERBS = frozenset("achieves achieve achieving achieved reaches reaching reached obtains obtaining "
                         "obtained attains attaining attained scores scoring yields yielding".split())
_APPROX_WORDS = frozenset("up to over about around nearly almost approximately roughly merely only just at "
                          "least most ~ ∼ > <".split())
#: Tags of finite verbs: the verb of a clause, whose subject states the value (not ``achieving``).
_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD"})
_OUTPERFORM = frozenset("outperforms outperform outperforming outperformed surpasses surpass surpassing "
                        "surpassed beats beat beating exceeds exceed exceeding exceeded".split())
#: Labels of the entities that state a result or are compared with (subject, baseline).
_ACTORS = ("Method", "Model")

#: Words between the items of a list of values (``3.08 or 2.52``, ``72.3%, 76.4% and 74.2%``).
_LISTING = frozenset((",", "and", "or", "/"))
