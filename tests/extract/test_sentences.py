"""Sentences of bounded length, found in log time: the ground for linear extraction time."""

import pytest
import spacy

from kg.extract.sentences import doc_words, sentence_words, spans_by_sentence

# Real abstract words with the sentence punctuation taken out: the senter finds one long run.
RUN_ON = (
    "we evaluate our method on MNIST and CIFAR-10 in terms of accuracy and F1 score with BERT "
    "and propose Zorblat a novel framework that we evaluate on ImageNet and COCO for detection "
)


def test_a_run_on_abstract_is_cut_into_sentences_of_at_most_max_tokens(nlp):
    text = (RUN_ON * (100_000 // len(RUN_ON) + 1))[:100_000]
    doc = nlp(text)
    limit = nlp.get_pipe("kg_sentence_limit").max_tokens
    sents = list(doc.sents)
    assert len(sents) >= len(doc) // limit
    assert max(len(s) for s in sents) <= limit
    assert sum(len(s) for s in sents) == len(doc)  # nothing lost, nothing doubled


def test_real_sentences_are_left_as_the_sentence_splitter_found_them(nlp, examples_dir):
    text = (examples_dir / "000_86b06102d999f119.txt").read_text("utf-8").split("\n\n", 2)[1]
    with_limit = [(s.start, s.end) for s in nlp(text).sents]
    with nlp.select_pipes(disable=["kg_sentence_limit"]):
        without = [(s.start, s.end) for s in nlp(text).sents]
    assert with_limit == without


@pytest.mark.parametrize("max_tokens", [1, 3, 7, 500])
def test_token_and_span_sent_answer_what_spacy_itself_answers(max_tokens):
    blank = spacy.blank("en")
    blank.add_pipe("sentencizer")
    blank.add_pipe("kg_sentence_limit", config={"max_tokens": max_tokens})
    doc = blank("One two three four five six seven eight. Nine ten! Eleven twelve thirteen fourteen? Fifteen")
    hooked_tokens = [(t.sent.start, t.sent.end) for t in doc]
    hooked_spans = [(doc[i : i + 2].sent.start, doc[i : i + 2].sent.end) for i in range(len(doc) - 1)]
    doc.user_token_hooks.clear()
    doc.user_span_hooks.clear()
    assert hooked_tokens == [(t.sent.start, t.sent.end) for t in doc]
    assert hooked_spans == [(doc[i : i + 2].sent.start, doc[i : i + 2].sent.end) for i in range(len(doc) - 1)]


def test_an_empty_doc_passes_through():
    blank = spacy.blank("en")
    blank.add_pipe("kg_sentence_limit")
    assert len(blank("")) == 0


def test_max_tokens_must_be_positive():
    blank = spacy.blank("en")
    with pytest.raises(ValueError, match="at least 1"):
        blank.add_pipe("kg_sentence_limit", config={"max_tokens": 0})


def test_spans_by_sentence_keeps_the_given_order_and_drops_spans_across_sentences():
    blank = spacy.blank("en")
    blank.add_pipe("sentencizer")
    doc = blank("Alpha beta gamma. Delta epsilon zeta. Eta theta.")
    spans = [doc[5:6], doc[0:1], doc[2:5], doc[4:5], doc[8:9]]  # doc[2:5] crosses a boundary
    grouped = [(s.text, [x.text for x in inside]) for s, inside in spans_by_sentence(doc, spans)]
    assert grouped == [
        ("Alpha beta gamma.", ["Alpha"]),
        ("Delta epsilon zeta.", ["epsilon", "Delta"]),
        ("Eta theta.", ["Eta"]),
    ]


def test_sentence_words_are_each_spans_own_and_read_again_for_another_tokenisation():
    blank = spacy.blank("en")
    doc = blank("We propose Zorblat. It beats BERT on MNIST.")
    first, second = doc[0:4], doc[4:10]
    assert sentence_words(first) == {"we", "propose", "zorblat", "."}
    assert sentence_words(second) == {"it", "beats", "bert", "on", "mnist", "."}
    assert sentence_words(doc[0:4]) is sentence_words(first)  # read once, then kept
    other = blank("Our Zorblat wins BERT on MNIST by 3 points.")  # as many tokens as doc
    other.user_data.update(doc.user_data)  # as kg_clean carries user data to the cleaned doc
    assert sentence_words(other[0:4]) == {"our", "zorblat", "wins", "bert"}


def test_doc_words_are_read_once_per_document_and_shared_with_sentence_words():
    blank = spacy.blank("en")
    doc = blank("We propose Zorblat. It beats BERT.")
    words = doc_words(doc)
    assert words == ["we", "propose", "zorblat", ".", "it", "beats", "bert", "."]
    assert doc_words(doc) is words  # kept in the doc's user data
    assert sentence_words(doc[4:8]) == {"it", "beats", "bert", "."}
    assert doc_words(doc) is words  # the sentence read the same list
    other = blank("Our Zorblat wins BERT on MNIST.")
    other.user_data.update(doc.user_data)  # copied user data is another doc's
    assert doc_words(other) == ["our", "zorblat", "wins", "bert", "on", "mnist", "."]
