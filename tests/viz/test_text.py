import pytest
from hypothesis import given
from hypothesis import strategies as st

from kg.viz.html import graph_payload, result_label
from kg.viz.text import readable

RAW = r"We propose **APE**, keeping 98\% of the score with a 4.5$\times$ speedup on \textbf{RAG} tasks."


@pytest.mark.parametrize("word, shown", [("APE", "APE"), ("98\\%", "98%"), ("4.5$\\times", "4.5×"), ("RAG", "RAG")])
def test_readable_moves_raw_spans_onto_the_clean_text(word, shown):
    text = readable(RAW)
    start = RAW.index(word)
    s, e = text.span(start, start + len(word))
    assert text.text[s:e] == shown
    assert "\\" not in text.text and "$" not in text.text and "*" not in text.text


def test_a_span_inside_dropped_markup_is_empty_not_negative():
    text = readable(r"a **b** c")
    s, e = text.span(2, 4)  # the two stars only
    assert s == e


def test_result_label_names_the_metric_first():
    assert result_label({"value": "up to 12.97%", "metric": "accuracy"}) == "accuracy: up to 12.97%"
    assert result_label({"value": "98%", "metric": "value"}) == "98% (metric not stated)"


def test_payload_shows_clean_abstracts_with_exact_spans(graph_factory):
    graph = graph_factory([{"id": "paper:1", "abstract": RAW, "entities": [("APE", "Method", True), ("RAG", "Task")]}])
    graph.add_node("result:paper:1:0", label="Result", name="98% value", value="98%", metric="value",
                   paper="paper:1", start=RAW.index("98"), end=RAW.index(" of"))
    payload = graph_payload(graph)
    index = {n["id"]: i for i, n in enumerate(payload["nodes"])}
    abstract = payload["nodes"][index["paper:1"]]["details"]["abstract"]
    assert abstract.startswith("We propose APE, keeping 98% of the score with a 4.5× speedup")
    for _, target, _, spans in payload["links"]:
        for _paper, start, end in spans:
            assert abstract[start:end] == payload["nodes"][target]["name"]
    result = payload["nodes"][index["result:paper:1:0"]]
    assert result["name"] == "98% (metric not stated)"
    assert abstract[result["details"]["start"]:result["details"]["end"]] == "98%"


PIECES = list("ab \\$*_`'~{}.%") + ["\\times", "Abstract: ", "Summary", "**", "''", " \\textbf{x}"]


@given(st.lists(st.sampled_from(PIECES), max_size=20).map("".join))
def test_readable_is_clean_text_whether_or_not_it_takes_the_shortcut(raw):
    from kg.extract.clean import clean_text

    assert readable(raw).text == clean_text(raw).text
