import json

import spacy
from spacy.tokens import DocBin

from kg.evaluate.scierc import read_scierc
from kg.evaluate.tdmsci import read_conll
from kg.train.convert import convert_corpus, scierc_doc, split_tdmsci, to_docbin

RECORD = {
    "doc_key": "toy",
    "sentences": [
        ["We", "use", "deep", "neural", "nets", "."],
        ["They", "parse", "-LRB-", "WSJ", "-RRB-"],
    ],
    # Inclusive ends; [2, 4] and [3, 4] overlap (SciERC allows it), [9, 9] is one token.
    "ner": [
        [[2, 4, "Method"], [3, 4, "Method"]],
        [[6, 6, "Generic"], [7, 7, "Task"], [9, 9, "Material"]],
    ],
    "relations": [[], [[6, 6, 7, 7, "USED-FOR"], [9, 9, 7, 7, "USED-FOR"]]],
    "clusters": [],
}


def _round_trip(path):
    nlp = spacy.blank("en")
    docbin = DocBin(store_user_data=True).from_bytes(
        to_docbin(scierc_doc(nlp.vocab, r) for r in read_scierc(path)).to_bytes()
    )
    return list(docbin.get_docs(nlp.vocab))


def test_scierc_spans_survive_docbin_with_exclusive_ends(tmp_path):
    path = tmp_path / "toy.jsonl"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    (doc,) = _round_trip(path)
    words = [w for s in RECORD["sentences"] for w in s]
    gold = {(s, e, label) for sent in RECORD["ner"] for s, e, label in sent}
    assert {(s.start, s.end - 1, s.label_) for s in doc.spans["sc"]} == gold
    for span in doc.spans["sc"]:
        assert [t.text for t in span] == [
            {"-LRB-": "(", "-RRB-": ")"}.get(w, w) for w in words[span.start : span.end]
        ]
    # doc.ents cannot overlap: the longer of the two Method spans is kept.
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("deep neural nets", "Method"),
        ("They", "Generic"),
        ("parse", "Task"),
        ("WSJ", "Material"),
    ]
    relations = {tuple(r) for r in doc._.kg_span_relations}
    assert relations == {(6, 7, 7, 8, "USED-FOR"), (9, 10, 7, 8, "USED-FOR")}
    assert [s.start for s in doc.sents] == [0, 6]
    assert doc.user_data["doc_key"] == "toy"


def test_convert_corpus_writes_train_and_dev(tmp_path):
    data = tmp_path / "scierc"
    data.mkdir()
    for split in ("train", "dev"):
        (data / f"{split}.jsonl").write_text(json.dumps(RECORD) + "\n", encoding="utf-8")
    paths = convert_corpus("scierc", data, tmp_path / "out")
    nlp = spacy.blank("en")
    assert sorted(paths) == ["dev", "train"]
    assert len(list(DocBin().from_disk(paths["dev"]).get_docs(nlp.vocab))) == 1


def test_tdmsci_dev_is_the_tail_of_train(tmp_path):
    conll = "".join(f"w{i}\t{i * 3}\t{'B-TASK' if i % 2 else 'O'}\n\n" for i in range(20))
    data = tmp_path / "tdmsci"
    data.mkdir()
    (data / "train.conll").write_text(conll, encoding="utf-8")
    train, dev = split_tdmsci(read_conll(data / "train.conll"))
    assert (len(train), len(dev)) == (18, 2) and dev[0].words == ("w18",)
    paths = convert_corpus("tdmsci", data, tmp_path / "out")
    docs = list(DocBin().from_disk(paths["dev"]).get_docs(spacy.blank("en").vocab))
    assert [[(e.text, e.label_) for e in d.ents] for d in docs] == [[], [("w19", "TASK")]]
    assert read_conll(tmp_path / "out" / "dev.conll") == [
        s.__class__(str(i), s.words, s.offsets, s.tags) for i, s in enumerate(dev)
    ]
