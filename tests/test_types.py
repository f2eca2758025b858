"""The records between stages: a mention in the title survives the extraction cache and
``papers.jsonl``; a stored record naming an unknown field is refused."""

import pytest

from kg.types import (
    Entity, Extraction, Mention, Paper, PaperRecord, ResolvedEntity, Source, extraction_from_json,
    extraction_to_json,
)

PAPER = Paper("p", "We present a sampler.", Source("f", 0), title="Zorbix: A Sampler")


def _extraction(field="title"):
    return Extraction(PAPER, [Entity("Zorbix", "Method", "zorbix", [Mention("Zorbix", 0, 6, field)], True)])


def test_a_title_mention_round_trips_through_the_stored_record():
    record = _extraction()
    assert extraction_from_json(extraction_to_json(record), PAPER) == record


def test_a_stored_mention_of_an_unknown_field_is_refused():
    data = extraction_to_json(_extraction())
    data["entities"][0]["mentions"][0]["field"] = "body"
    with pytest.raises(ValueError, match="Mention.field"):
        extraction_from_json(data, PAPER)


def test_papers_jsonl_names_the_field_of_title_mentions_only():
    entities = [ResolvedEntity("entity:zorbix", "Zorbix", "Method", True, [Mention("Zorbix", 0, 6, "title")]),
                ResolvedEntity("entity:sampler", "sampler", "Method", False, [Mention("sampler", 13, 20)])]
    out = PaperRecord(PAPER, entities, [], [], []).to_json()
    assert [e["mentions"] for e in out["entities"]] == [
        [{"text": "Zorbix", "start": 0, "end": 6, "field": "title"}],
        [{"text": "sampler", "start": 13, "end": 20}],
    ]
