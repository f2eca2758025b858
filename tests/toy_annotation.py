"""A tiny hand-made annotated abstract with known answers, for training tests (invented names)."""

ABSTRACT = (
    "Image segmentation of thin structures is hard. We propose Zorblat, a novel framework for "
    "image segmentation. On the Plinkset benchmark, Zorblat outperforms U-Net and improves "
    "mean IoU by 4.2%. It uses 12% of the memory and runs in the QuuxLib toolkit of PlonkSoft."
)
GOLD = {
    "id": "toy:1", "title": "Zorblat: thin structures",
    "entities": [
        {"name": "Zorblat", "type": "Method", "proposed": True, "aliases": []},
        {"name": "image segmentation", "type": "Task", "proposed": False, "aliases": []},
        {"name": "Plinkset", "type": "Dataset", "proposed": False, "aliases": []},
        {"name": "U-Net", "type": "Method", "proposed": False, "aliases": []},
        {"name": "mean IoU", "type": "Metric", "proposed": False, "aliases": ["segmenting images well"]},
    ],
    "relations": [
        {"subject": "Zorblat", "predicate": "evaluated_on", "object": "Plinkset"},
        {"subject": "Zorblat", "predicate": "compared_with", "object": "U-Net"},
        {"subject": "Zorblat", "predicate": "applied_to", "object": "image segmentation"},
    ],
    "results": [{"value": "4.2%", "metric": "mean IoU", "subject": "Zorblat", "dataset": "Plinkset",
                 "task": None, "baseline": "U-Net", "setting": None, "direction": "higher"}],
}
