"""A numpy interpreter of StableHLO: ``interpret(module, *args)`` runs a module's ``main`` as
StableHLO's reference interpreter (``stablehlo-translate --interpret``) does.

Layout: ``values`` (element types and numpy dtypes), ``arith`` (element arithmetic), ``evaluator``
(runs functions and regions), the op families (``ops_elementwise``, ``ops_shape``, ``ops_reduce``,
``ops_linalg``, ``ops_gather``, ``ops_conv``, ``ops_control``, ``ops_collectives`` with ``process_grid`` and
``mesh_groups``, ``ops_chlo`` and ``ops_chlo_special``, ``ops_rng``, ``ops_sdy``), ``quant`` (uniform quantized
types), ``check_ops`` (the check and interpreter dialects), ``printing`` and ``command`` (the ``interpret``
subcommand).  ``shardy_py.simulation`` runs a sharded program partitioned on simulated devices with
``simulate_shards`` (the pieces each device holds) and ``simulate_compare`` (results compared).
"""
from __future__ import annotations

from shardy_py.interpreter.handlers import load_ops


def interpret(module, *args, function: str = "main") -> tuple:
    """See ``shardy_py.interpreter.api.interpret``."""
    from shardy_py.interpreter.api import interpret as _interpret

    return _interpret(module, *args, function=function)


__all__ = ["interpret", "load_ops"]
