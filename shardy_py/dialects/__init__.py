"""Declarations of the ops shardy_py models, one module per dialect (see ``registry``)."""
