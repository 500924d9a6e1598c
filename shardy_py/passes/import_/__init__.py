"""Shardy's import passes (``shardy/dialect/sdy/transforms/import/``), one module per pass."""
