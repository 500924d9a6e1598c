"""``SourcePositions``, defined in ``shardy_py.syntax.source_positions`` (the op verifiers of
``dialects/`` use it too)."""
from shardy_py.syntax.source_positions import SourcePositions

__all__ = ["SourcePositions"]
