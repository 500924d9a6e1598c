"""Shardy's passes in Python, and the pass manager ``python -m shardy_py opt`` runs them with.

>>> import shardy_py
>>> from shardy_py import passes
>>> m = shardy_py.parse('sdy.mesh @m = <["x"=1]>')
>>> print(passes.run(m, "sdy-remove-size-one-axes"), end="")  # doctest: +SKIP

``run(module, "name", **options)`` runs one pass (or pipeline) on a module in place and returns it;
``PassManager.parse("-sdy-a -sdy-b='opt=1'")`` builds a sequence as ``sdy_opt`` reads it.
"""
from __future__ import annotations

from shardy_py.passes.manager import PassError, PassManager, run
from shardy_py.passes.registry import PASSES, Pass, PassOption, register

__all__ = ["PASSES", "Pass", "PassError", "PassManager", "PassOption", "register", "run"]
