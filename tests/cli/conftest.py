"""A small build that the export and query commands read."""

import pytest

SMALL_LIST = """NeurIPS 2024 Papers

We propose Zorbnet, a novel framework for node classification. Experiments on MNIST and CIFAR-10 show that Zorbnet outperforms GPT-4o by 12.97% in accuracy. Code: https://github.com/x/zorbnet.

We introduce Quorbit, a benchmark for link prediction. Models such as GPT-4o and Zorbnet are evaluated on Quorbit and MNIST.
"""


@pytest.fixture(scope="session")
def small_build(tmp_path_factory):
    from kg.build import build

    source = tmp_path_factory.mktemp("in") / "list.txt"
    source.write_text(SMALL_LIST, encoding="utf-8")
    out = tmp_path_factory.mktemp("out")
    report = build([source], out, cache=False)
    return out, report.graph
