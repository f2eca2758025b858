"""Trained pipelines shipped with kg (one folder each); load them with :func:`kg.train.load_trained`."""
