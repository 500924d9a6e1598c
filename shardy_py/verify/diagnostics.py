"""``Diagnostic`` and ``Failure``, defined in ``shardy_py.ir.diagnostics`` (the op verifiers of
``dialects/`` make them too)."""
from shardy_py.ir.diagnostics import Diagnostic, Failure, Note, fail

__all__ = ["Diagnostic", "Failure", "Note", "fail"]
