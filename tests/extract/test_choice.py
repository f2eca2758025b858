"""Which candidates stand (kg.extract.entities.choice), on hand-made candidates of invented text."""

import pytest
import spacy

from kg.extract.entities.candidate import PRIORITY_CATALOGUE, PRIORITY_NAME, Candidate
from kg.extract.entities.choice import strengthen_around_catalogue


def candidate(doc, text, words, label, priority, source):
    start = text.index(words)
    span = doc.char_span(start, start + len(words))
    return Candidate(span.start, span.end, label, priority, source=source)


@pytest.mark.parametrize("text, phrase, inner, name, strong", [
    # a phrase around a catalogue name of its type is as strong as the catalogue name
    ("It lowers the inference latency of Plonk.", "inference latency", "latency", None, True),
    # a second name the rules read inside the phrase: two names, not one phrase
    ("We compare Plonk-q3 with Zorbo-v2 here.", "Plonk-q3 with Zorbo-v2", "Plonk-q3", "Zorbo-v2", False),
])
def test_a_phrase_around_a_catalogue_name_is_strong_unless_it_holds_another_name(text, phrase, inner, name, strong):
    doc = spacy.blank("en")(text)
    label = "Metric" if strong else "Model"
    outer = candidate(doc, text, phrase, label, 1.5, "learned")
    candidates = [outer, candidate(doc, text, inner, label, PRIORITY_CATALOGUE, "catalogue")]
    if name:
        candidates.append(candidate(doc, text, name, None, PRIORITY_NAME, "name"))
    strengthen_around_catalogue(doc, candidates)
    assert (outer.priority == PRIORITY_CATALOGUE) is strong


@pytest.mark.parametrize("text, phrase, inner, types, strong", [
    # a dataset name around one the catalogue lists as a dataset and as a model
    ("Results on Plonk-Sound Source are best.", "Plonk-Sound Source", "Plonk-Sound", ("Dataset", "Model"), True),
    # a size after a catalogued dataset makes its own variant; a plain word describes it
    ("We train on Plonknet 64x64 images.", "Plonknet 64x64", "Plonknet", ("Dataset",), True),
    ("We train on Plonknet images.", "Plonknet images", "Plonknet", ("Dataset",), False),
    # a task around a dataset stays the dataset's
    ("It solves Plonkbench question answering.", "Plonkbench question answering", "Plonkbench", ("Dataset",), False),
])
def test_a_dataset_phrase_around_a_catalogued_dataset(text, phrase, inner, types, strong):
    doc = spacy.blank("en")(text)
    label = "Task" if "answering" in phrase else "Dataset"
    outer = candidate(doc, text, phrase, label, 1.5, "learned")
    strengthen_around_catalogue(doc, [outer, *(candidate(doc, text, inner, t, PRIORITY_CATALOGUE, "catalogue")
                                               for t in types)])
    assert (outer.priority == PRIORITY_CATALOGUE) is strong


@pytest.mark.parametrize("text, phrase, inner, strong", [
    # capitalised words around a catalogued model name a method of the paper's own
    ("We present Spiking Plonknet for point clouds.", "Spiking Plonknet", "Plonknet", True),
    # a lower-case word before it describes the model: it stays the catalogue's
    ("We compare against fine-tuned Plonknet models.", "fine-tuned Plonknet", "Plonknet", False),
])
def test_a_method_written_as_a_name_around_a_catalogued_model_is_strong(text, phrase, inner, strong):
    doc = spacy.blank("en")(text)
    outer = candidate(doc, text, phrase, "Method", 1.5, "learned")
    strengthen_around_catalogue(doc, [outer, candidate(doc, text, inner, "Model", PRIORITY_CATALOGUE, "catalogue")])
    assert (outer.priority == PRIORITY_CATALOGUE) is strong


@pytest.mark.parametrize("text, whole", [
    ("We introduce Neural Zorbnet for graphs.", True),  # capitalised: one name
    ("We introduce a neural Zorbnet for graphs.", False),  # a plain word describing the name
])
def test_an_introduced_name_keeps_the_capitalised_words_before_a_name_inside_it(text, whole):
    from kg.extract.entities.choice import _favour_whole_names

    doc = spacy.blank("en")(text)
    start = text.index("eural") - 1
    phrase = candidate(doc, text, text[start:text.index(" for")], "Method", 1, "introduced")
    inner = candidate(doc, text, "Zorbnet", "Method", PRIORITY_NAME, "name")
    _favour_whole_names(doc, [phrase, inner], [])
    assert (phrase.priority > PRIORITY_NAME) is whole
