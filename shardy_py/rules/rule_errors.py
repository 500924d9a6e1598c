"""The error a sharding rule raises for an op the C++ registry cannot handle: where the C++ would
read past the end of a tensor's dimensions (undefined behaviour) or never finish.  It is a
``PassError`` with one diagnostic at the op, so ``-sdy-populate-op-sharding-rules`` fails with an
``error:`` at the op's location."""
from __future__ import annotations

from shardy_py.passes.manager import PassError
from shardy_py.verify.diagnostics import Diagnostic


def rule_error(op, message: str) -> PassError:
    """A ``PassError`` reporting ``message`` at ``op``."""
    loc = op.loc
    line, column = (loc.line, loc.column) if loc is not None else (1, 1)
    return PassError(message, [Diagnostic(line, column, "error", message)])
