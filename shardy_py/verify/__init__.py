"""The Shardy verifier: ``verify(module) -> list[Diagnostic]``.

Rules are grouped by family (``meshes``, ``shardings``, ``sharding_rules``,
``edges``, ``op_attrs``, ``simple_ops``, ``computations``, ``collectives``,
``unreduced``); ``driver`` runs them in Shardy's order.  Shared axis algebra
lives in ``axes``.
"""
from shardy_py.verify.diagnostics import Diagnostic, Failure
from shardy_py.verify.driver import verify

__all__ = ["Diagnostic", "Failure", "verify"]
