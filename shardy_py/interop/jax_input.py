"""From JAX to a ``Module``: what ``shardy_py.parse`` accepts besides text, and ``from_jax``.

JAX is optional: nothing here imports it until ``from_jax`` is called, and the other objects are
recognised by what they offer (duck typing), so a module of shardy_py never needs jax installed.

* a ``jax.stages.Lowered`` (``jax.jit(f).lower(*args)``): its ``as_text()``, the StableHLO module
  with Shardy's sdy dialect that JAX hands to XLA;
* an MLIR ``ir.Module`` or ``ir.Operation`` of jaxlib's bindings (``lowered.compiler_ir()``): its
  ``get_asm()``;
* a ``jax.export.Exported``: its ``mlir_module()``.
"""
from __future__ import annotations

from typing import Any


def module_text(source: Any) -> str | None:
    """The MLIR text of a JAX or MLIR object, or None when ``source`` is none of those."""
    if callable(getattr(source, "compiler_ir", None)) and callable(getattr(source, "as_text", None)):
        return source.as_text()
    operation = getattr(source, "operation", source)
    if callable(getattr(operation, "get_asm", None)):
        return operation.get_asm()
    if callable(getattr(source, "mlir_module", None)):
        return source.mlir_module()
    return None


def describe_source(source: Any) -> str:
    """What ``parse`` was given, for the TypeError it raises on what it cannot read."""
    kind = type(source)
    return f"{kind.__module__}.{kind.__qualname__}"


def from_jax(f, *args, **kwargs):
    """The ``Module`` of ``jax.jit(f)`` lowered for ``args`` (arrays, or ``jax.ShapeDtypeStruct``s
    with their ``sharding``); ``f`` may already be jitted (with its ``in_shardings``, ...).

    Arguments sharded over a ``jax.sharding.AbstractMesh`` need no devices: the function is then
    lowered for the CPU, as ``jit(f).trace(*args).lower(lowering_platforms=("cpu",))`` does.
    Raises ImportError (saying how to install it) when jax is not installed.
    """
    try:
        import jax
    except ImportError:
        raise ImportError("shardy_py.from_jax needs JAX: pip install jax") from None
    from shardy_py.syntax.parser import parse_module

    jitted = f if callable(getattr(f, "trace", None)) else jax.jit(f)
    traced = jitted.trace(*args, **kwargs)
    try:
        lowered = traced.lower()
    except ValueError as e:
        if "lowering_platforms" not in str(e):
            raise
        lowered = traced.lower(lowering_platforms=("cpu",))
    return parse_module(module_text(lowered))
