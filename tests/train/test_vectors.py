import numpy
import spacy

from kg.train.vectors import ppmi_svd_vectors, set_vectors

SENTENCES = [
    ["We", "report", "BLEU", "on", "WMT", "."],
    ["BLEU", "and", "ROUGE", "scores", "."],
    ["we", "report", "rouge", "on", "CNN", "."],
] * 20


def test_ppmi_svd_vectors_are_unit_length_and_deterministic():
    words, table = ppmi_svd_vectors(SENTENCES, min_count=1, dim=4)
    assert words[0] == "." and set(words) >= {"bleu", "rouge", "we"}
    assert numpy.allclose(numpy.linalg.norm(table, axis=1), 1.0, atol=1e-4)
    assert numpy.allclose(ppmi_svd_vectors(SENTENCES, min_count=1, dim=4)[1], table)


def test_vectors_key_every_spelling_and_survive_save_and_load(tmp_path):
    words, table = ppmi_svd_vectors(SENTENCES, min_count=1, dim=4)
    nlp = spacy.blank("en")
    set_vectors(nlp.vocab, words, table, {w for s in SENTENCES for w in s})
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    doc = loaded.make_doc("BLEU bleu Bleu Rouge xyzzy")
    row = table[words.index("bleu")]
    for token in doc[:3]:
        assert numpy.allclose(token.vector, row)
    assert numpy.allclose(doc[3].vector, table[words.index("rouge")])
    assert not doc[4].has_vector
