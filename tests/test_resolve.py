from kg.ids import name_key
from kg.resolve import Resolver
from kg.types import Entity, Extraction, Mention, Paper, Relation, Source


def extraction(pid, *entities, relations=()):
    return Extraction(Paper(pid, "text", Source("f", 0)), list(entities), list(relations))


def entity(name, key, kind="Method", aliases=(), proposed=False, catalogue_id=None):
    return Entity(name, kind, key, [Mention(name, 0, len(name))], proposed, list(aliases), catalogue_id)


def resolve_all(extractions):
    resolver = Resolver()
    for e in extractions:
        resolver.add(e)
    return resolver, [resolver.resolve(e) for e in extractions]


def test_acronym_defined_once_resolves_bare_uses_to_the_long_form():
    defined = extraction("a", entity("GNN", "graph-neural-network", aliases=["Graph Neural Network"]))
    bare = extraction("b", entity("GNNs", "gnn"))
    resolver, records = resolve_all([defined, bare])
    assert records[0].entities[0].id == records[1].entities[0].id == "entity:gnn"  # the name most papers use
    assert resolver.entities["entity:gnn"].aliases == ["Graph Neural Network"]


def test_an_id_comes_from_the_canonical_name_never_from_a_descriptive_phrase():
    odd = extraction("a", entity("CV dataset", "cv-dataset", "Dataset", aliases=["ImageNet"]))
    usual = [extraction(p, entity("ImageNet", "imagenet", "Dataset", catalogue_id="pwc:dataset:imagenet"))
             for p in "bcd"]
    resolver, records = resolve_all([odd, *usual])
    assert {r.entities[0].id for r in records[1:]} == {"entity:imagenet"}
    assert "CV dataset" not in resolver.entities["entity:imagenet"].aliases


def test_an_example_in_one_paper_does_not_pull_a_model_into_a_class():
    papers = [
        extraction("a", entity("large language model", "large-language-model", aliases=["GPT-4", "LLM"])),
        extraction("b", entity("GPT-4", "gpt-4", "Model", catalogue_id="model:gpt-4")),
        extraction("c", entity("LLMs", "llm")),
        extraction("d", entity("LLM", "large-language-model", aliases=["large language models"])),
    ]
    resolver, records = resolve_all(papers)
    assert records[1].entities[0].id == "entity:gpt-4"
    llm = resolver.entities[records[2].entities[0].id]
    assert llm.name == "LLM" and llm.catalogue_id is None and llm.generic
    assert records[0].entities[0].id == records[3].entities[0].id == llm.id


def test_entities_sharing_a_catalogue_id_are_one():
    papers = [
        extraction("a", entity("ImageNet", "imagenet", "Dataset", catalogue_id="pwc:dataset:imagenet")),
        extraction("b", entity("ImageNet-1K", "imagenet-1-k", "Dataset", catalogue_id="pwc:dataset:imagenet")),
        extraction("c", entity("ImageNet", "imagenet", "Dataset", catalogue_id="pwc:dataset:imagenet")),
    ]
    resolver, records = resolve_all(papers)
    assert {r.entities[0].id for r in records} == {"entity:imagenet"}
    assert resolver.entities["entity:imagenet"].aliases == ["ImageNet-1K"]


def test_an_acronym_follows_the_long_form_most_papers_define():
    papers = [
        extraction("a", entity("SD", "speculative-decoding", aliases=["speculative decoding"])),
        extraction("b", entity("SD", "speculative-decoding", aliases=["speculative decoding"])),
        extraction("c", entity("SD", "stable-diffusion", "Model", aliases=["Stable Diffusion"])),
        extraction("d", entity("SD", "sd")),
    ]
    _, records = resolve_all(papers)
    ids = [r.entities[0].id for r in records]
    assert ids[0] == ids[1] == ids[3] != ids[2]


def test_acronym_defined_two_ways_stays_apart():
    one = extraction("a", entity("SD", "speculative-decoding", aliases=["Speculative Decoding"]))
    two = extraction("b", entity("SD", "stable-diffusion", aliases=["Stable Diffusion"]))
    bare = extraction("c", entity("SD", "sd"))
    _, records = resolve_all([one, two, bare])
    assert len({r.entities[0].id for r in records}) == 3
    assert "entity:sd" in {r.entities[0].id for r in records}


def test_spellings_differing_in_separators_are_one_entity_in_any_order():
    papers = [
        extraction("a", entity("StableDiffusion", "stablediffusion", "Model")),
        extraction("b", entity("Stable Diffusion", "stable-diffusion", "Model")),
        extraction("c", entity("Stable-Diffusion", "stable-diffusion", "Model")),
    ]
    for order in (papers, list(reversed(papers))):
        resolver, records = resolve_all(order)
        assert {r.entities[0].id for r in records} == {"entity:stable-diffusion"}
        assert resolver.entities["entity:stable-diffusion"].name == "Stable Diffusion"
        assert "entity:stablediffusion" not in resolver.entities


def test_resolution_does_not_depend_on_input_order():
    papers = [
        extraction("a", entity("CIFAR10", "cifar-10", "Dataset")),
        extraction("b", entity("CIFAR-10", "cifar-10", "Dataset", catalogue_id="pwc:dataset:cifar-10")),
        extraction("c", entity("CIFAR-10", "cifar-10", "Method")),
    ]
    forward, _ = resolve_all(papers)
    backward, _ = resolve_all(list(reversed(papers)))
    assert forward.entities == backward.entities
    info = forward.entities["entity:cifar-10"]
    assert (info.name, info.type, info.catalogue_id) == ("CIFAR-10", "Dataset", "pwc:dataset:cifar-10")
    assert info.aliases == ["CIFAR10"]


def test_entities_resolving_alike_in_one_paper_merge_and_relations_follow():
    paper = extraction(
        "a",
        entity("LLM", "large-language-model", aliases=["large language model"]),
        entity("large language models", "large-language-model"),
        entity("Zorb", "zorb", proposed=True),
        relations=[Relation(2, "uses", 0, 0, 4), Relation(2, "uses", 1, 0, 4), Relation(0, "uses", 1, 0, 4)],
    )
    _, [record] = resolve_all([paper])
    assert [e.id for e in record.entities].count("entity:large-language-model") == 1
    assert [(r.subject, r.predicate, r.object) for r in record.relations] == [
        ("entity:zorb", "uses", "entity:large-language-model")
    ]


def test_an_acronym_two_entities_share_leaves_each_its_own_named_id():
    papers = [
        extraction("a", entity("CMDP", "constrained-mdp", aliases=["constrained MDP"])),
        extraction("b", entity("CMDP", "constrained-mdp", aliases=["constrained MDP"])),
        extraction("c", entity("CMDP", "contextual-mdp", aliases=["contextual MDP"])),
    ]
    resolver, records = resolve_all(papers)
    ids = [r.entities[0].id for r in records]
    assert ids[0] == ids[1] != ids[2]
    for eid in set(ids):
        assert eid == "entity:" + name_key(resolver.entities[eid].name)


def test_a_trailing_plus_names_another_method():
    papers = [
        extraction("a", entity("LoRA", name_key("LoRA"))),
        extraction("b", entity("LoRA+", name_key("LoRA+"))),
        extraction("c", entity("LoRA", name_key("LoRA")), entity("LoRA+", name_key("LoRA+"))),
    ]
    resolver, records = resolve_all(papers)
    assert {"entity:lora", "entity:lora-plus"} <= set(resolver.entities)
    assert [e.name for e in records[2].entities] == ["LoRA", "LoRA+"]
    assert records[2].entities[0].id != records[2].entities[1].id
