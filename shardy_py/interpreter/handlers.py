"""The handlers of the interpreter: each op kind's function, registered with ``@handler("dialect.op", ...)``
by the op-family modules (``ops_*.py``, ``quant``, ``check_ops``; ``load_ops`` imports them) and
called by the evaluator as ``handler(ev, op, operands)``."""
from __future__ import annotations

import importlib
from collections.abc import Callable

#: ``handler(evaluator, op, operand values) -> result values``.
Handler = Callable[["Evaluator", "Operation", list], list]  # noqa: F821  (evaluator.Evaluator, ir.ops.Operation)
HANDLERS: dict[str, Handler] = {}


def handler(*names: str) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of the ops ``names``."""

    def register(fn: Handler) -> Handler:
        for n in names:
            HANDLERS[n] = fn
        return fn

    return register


_OP_MODULES = (
    "ops_elementwise", "ops_shape", "ops_control", "ops_collectives", "ops_linalg", "ops_chlo", "ops_reduce",
    "ops_gather", "ops_conv", "ops_rng", "ops_sdy", "ops_chlo_special", "check_ops",
)
_loaded = False


def load_ops() -> None:
    """Import every op-family module, which registers its handlers."""
    global _loaded
    if not _loaded:
        for name in _OP_MODULES:
            importlib.import_module(f"shardy_py.interpreter.{name}")
        _loaded = True
