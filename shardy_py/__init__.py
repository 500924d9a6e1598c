"""shardy_py: a pure-Python toolkit for the Shardy (``sdy``) MLIR sharding dialect.

>>> import shardy_py
>>> m = shardy_py.parse('sdy.mesh @m = <["x"=2, "y"=4]>')
>>> m.meshes["m"].axis_size("y")
4
>>> print(m, end="")
module {
  sdy.mesh @m = <["x"=2, "y"=4]>
}
"""
from __future__ import annotations

from shardy_py.errors import ParseError
from shardy_py.ir import attrs as _attrs
from shardy_py.ir.attrs import *  # noqa: F403  (the attribute classes are public API)
from shardy_py.ir.attrs import Attr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Location, Operation, Region, Value
from shardy_py.ir.types import RankedTensorType, Type, UnrankedTensorType, parse_type

__version__ = "0.1.0"
__all__ = [  # noqa: F405
    "ParseError", "Attr", "Module", "Block", "Location", "Operation", "Region", "Value",
    "RankedTensorType", "Type", "UnrankedTensorType", "parse_type", "parse", "parse_attribute",
    *[c.__name__ for c in _attrs.SDY_ATTR_CLASSES], "OpaqueAttr",
    "verify", "print_module", "named_sharding", "mark_sharding", "UNCONSTRAINED", "local_shape", "device_slices",
    "sharding_rule", "propagate", "explain", "interpret", "partition", "simulate", "from_jax", "give_precedence",
    "cost", "compare", "suggest",
]

# Heavier parts (numpy device code, the verifier) load on first use.
_LAZY = {
    "named_sharding": ("shardy_py.builder", "named_sharding"),
    "mark_sharding": ("shardy_py.builder", "mark_sharding"),
    "UNCONSTRAINED": ("shardy_py.builder", "UNCONSTRAINED"),
    "ShardingSpecError": ("shardy_py.builder", "ShardingSpecError"),
    "local_shape": ("shardy_py.hlo", "local_shape"),
    "device_slices": ("shardy_py.hlo", "device_slices"),
    "Diagnostic": ("shardy_py.verify", "Diagnostic"),
    "sharding_rule": ("shardy_py.rules.sharding_rule", "sharding_rule"),
    "propagate": ("shardy_py.passes.propagation.propagation_pipeline", "propagate"),
    "explain": ("shardy_py.explanation", "explain"),
    "interpret": ("shardy_py.interpreter.api", "interpret"),
    "partition": ("shardy_py.passes.partition", "partition"),
    "simulate": ("shardy_py.interpreter.simulate", "simulate"),
    "SimulationError": ("shardy_py.interpreter.simulate", "SimulationError"),
    "from_jax": ("shardy_py.interop.jax_input", "from_jax"),
    "give_precedence": ("shardy_py.priorities", "give_precedence"),
    "compare": ("shardy_py.cost.comparison", "compare"),
    "suggest": ("shardy_py.cost.search", "suggest"),
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        mod, attr = _LAZY[name]
        value = globals()[name] = getattr(importlib.import_module(mod), attr)  # found once
        return value
    raise AttributeError(f"module 'shardy_py' has no attribute {name!r}")


# Load the verifier subpackage now: importing ``shardy_py.verify`` later would rebind the
# name ``shardy_py.verify`` from the function below to the subpackage.
import shardy_py.cost as _cost_package  # noqa: E402  (light: its modules load on first use)
import shardy_py.verify as _verify_package  # noqa: E402


def verify(module: Module) -> list:
    """Check ``module`` against every Shardy rule; a list of ``Diagnostic`` (empty when clean)."""
    return _verify_package.verify(module)


def cost(module: Module, topology=None, **options):
    """What ``module``'s sharding costs per device: a ``CostReport`` (``shardy_py.cost.report.cost``
    says what it holds; ``topology`` is a ``Topology`` or a preset name of ``shardy_py.cost.PRESETS``).
    The package's other parts are ``from shardy_py.cost import compare_variants, topology, ...``."""
    return _cost_package.cost(module, topology, **options)


def parse(text, filename: str | None = None) -> Module:
    """Parse MLIR text holding Shardy IR into a ``Module``.

    ``text`` may also be what JAX gives: a ``jax.stages.Lowered`` (``jax.jit(f).lower(...)``),
    jaxlib's MLIR ``ir.Module`` (``lowered.compiler_ir()``) or a ``jax.export.Exported``; their
    text is read (``shardy_py.from_jax(f, *args)`` lowers a function for you).
    Raises ``ParseError`` (with ``.line``, ``.column``, ``.message``) on bad syntax, ``TypeError``
    for anything else.
    """
    from shardy_py.syntax.parser import parse_module

    if not isinstance(text, str):
        from shardy_py.interop.jax_input import describe_source, module_text

        source = text
        text = module_text(source)
        if text is None:
            raise TypeError(f"shardy_py.parse reads MLIR text (a str), a jax.stages.Lowered, an MLIR ir.Module or "
                            f"a jax.export.Exported, not a {describe_source(source)}"
                            + ("; decode bytes of MLIR text first (MLIR bytecode must be printed as text)"
                               if isinstance(source, (bytes, bytearray)) else ""))
    return parse_module(text, filename)


def print_module(module: Module, *, generic: bool = False, debug_info: bool = False) -> str:
    """MLIR's print of ``module``: the pretty form (what ``str(module)`` gives), or with
    ``generic=True`` the generic form (``get_asm(print_generic_op_form=True)``); ``debug_info``
    adds the locations."""
    from shardy_py.syntax.printer import print_module as _print

    return _print(module, debug_info=debug_info, generic=generic)


def parse_attribute(text: str) -> Attr:
    """Parse one standalone sdy attribute, e.g. ``'#sdy.sharding<@m, [{"a"}]>'``."""
    from shardy_py.errors import AttrSyntaxError
    from shardy_py.syntax.scanner import LineIndex
    from shardy_py.syntax.sdy_parser import parse_sdy

    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    try:
        return parse_sdy(stripped, "attribute")
    except AttrSyntaxError as e:
        line, col = LineIndex(text).locate(lead + e.offset)
        raise ParseError(e.message, line, col, lead + e.offset) from None
