"""Shardy's propagation passes (``shardy/dialect/sdy/transforms/propagation/``), one module per pass."""
