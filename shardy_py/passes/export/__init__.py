"""Shardy's export passes (``shardy/dialect/sdy/transforms/export/``), one module per pass."""
