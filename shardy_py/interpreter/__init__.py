"""A numpy interpreter of StableHLO: ``interpret(module, *args)`` runs a module's ``main`` as
StableHLO's reference interpreter (``stablehlo-translate --interpret``) does.

Layout: ``values`` (element types and numpy dtypes), ``arith`` (element arithmetic), ``evaluator``
(runs functions and regions), the op families (``ops_elementwise``, ``ops_shape``, ``ops_reduce``,
``ops_linalg``, ``ops_gather``, ``ops_conv``, ``ops_control``, ``ops_collectives`` with ``process_grid`` and
``mesh_groups``, ``ops_chlo`` and ``ops_chlo_special``, ``ops_rng``, ``ops_sdy``), ``quant`` (uniform quantized
types), ``check_ops`` (the check and interpreter dialects), ``printing`` and ``command`` (the ``interpret``
subcommand).  ``simulate`` runs a sharded program partitioned on simulated devices (``simulate_shards``,
``simulate_compare``, ``simulate_report``, ``simulate_command``).
"""
from __future__ import annotations

import importlib

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


def interpret(module, *args, function: str = "main") -> tuple:
    """See ``shardy_py.interpreter.api.interpret``."""
    from shardy_py.interpreter.api import interpret as _interpret

    return _interpret(module, *args, function=function)


__all__ = ["interpret", "load_ops"]
