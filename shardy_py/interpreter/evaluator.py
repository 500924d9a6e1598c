"""The evaluator: runs functions and regions of a parsed module, op by op.

Each op kind has a handler registered with ``@handler("dialect.op", ...)`` in one of the op-family
modules (``ops_*.py``).  A handler is called as ``handler(ev, op, operands)`` with the evaluator, the
``Operation`` and its operand values, and returns the op's results (a list, one value per result).
Array results are fitted to the result types (narrow integers wrapped around), so handlers may
compute in a wider dtype.

Errors are ``InterpretError``: a message located at the op that failed.
"""
from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence

import numpy as np

from shardy_py.interpreter.values import UnsupportedType, element_name, fit
from shardy_py.ir.attrs import OpaqueAttr
from shardy_py.ir.ops import Block, Location, Operation, Region
from shardy_py.ir.types import RankedTensorType

Handler = Callable[["Evaluator", Operation, list], list]
HANDLERS: dict[str, Handler] = {}

TERMINATORS = frozenset({"func.return", "stablehlo.return", "chlo.return", "sdy.return"})
#: Ops a process records in its trace when it runs them (the collectives, filled in by ``ops_collectives``).
TRACED: set[str] = set()


class InterpretError(Exception):
    """A failure while interpreting, located at ``loc`` (the op's location) when known."""

    def __init__(self, message: str, loc: Location | None = None):
        super().__init__(message)
        self.message = message
        self.loc = loc


def handler(*names: str) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of the ops ``names``."""

    def register(fn: Handler) -> Handler:
        for n in names:
            HANDLERS[n] = fn
        return fn

    return register


@functools.lru_cache(maxsize=8192)
def _parse_attr_text(text: str):
    from shardy_py.syntax.attr_reader import parse_attribute

    return parse_attribute(text)


def typed(value):
    """An attribute as its typed value (an ``OpaqueAttr``'s text parsed)."""
    if isinstance(value, OpaqueAttr):
        if not value.text.strip():  # a unit attribute
            return value
        try:
            return _parse_attr_text(value.text)
        except Exception:  # noqa: BLE001 - a text the attribute reader does not know stays opaque
            return value
    return value


def has_attr(op: Operation, name: str) -> bool:
    """Whether ``op`` carries attribute ``name`` (e.g. a unit attribute)."""
    return name in op.properties_view or name in op.attributes_view


def attr(op: Operation, name: str, default=None):
    """The inherent or discardable attribute ``name`` of ``op``, typed; ``default`` when absent."""
    v = op.properties_view.get(name)
    if v is None:
        v = op.attributes_view.get(name)
    return default if v is None else typed(v)


def int_list(value) -> list[int]:
    """The integers of an ``array<i64: ...>``, a ``dense<...>`` of integers or a list attribute."""
    if value is None:
        return []
    if hasattr(value, "values") and callable(value.values):
        return [int(v) for v in value.values()]
    if hasattr(value, "values"):
        return [int(v) for v in value.values]
    if hasattr(value, "elements"):
        return [int(getattr(e, "value", e)) for e in value.elements]
    return list(value)


def ints(op: Operation, name: str, default=None) -> list[int] | None:
    """``int_list`` of attribute ``name``; ``default`` when absent."""
    v = attr(op, name)
    return default if v is None else int_list(v)


def int_attr(op: Operation, name: str, default: int | None = None) -> int | None:
    v = attr(op, name)
    return default if v is None else int(getattr(v, "value", v))


def enum_attr(op: Operation, name: str, default: str | None = None) -> str | None:
    v = attr(op, name)
    return default if v is None else str(getattr(v, "value", v))


class Evaluator:
    """Runs the functions of one module for one process (``process``: its ids in a process grid, or
    None outside ``interpreter.run_parallel``)."""

    def __init__(self, module, *, probe_dir: str | None = None, process=None, out=None,
                 print_lock: threading.Lock | None = None, probe_state=None):
        self.module = module
        self.funcs: dict[str, Operation] = {
            op.properties_view.get("sym_name"): op for op in module.walk() if op.name == "func.func"}
        self.probe_dir = probe_dir
        self.process = process
        self.out = out
        self.print_lock = print_lock or threading.Lock()
        self.probe_state = probe_state if probe_state is not None else {"next_id": 0, "lock": threading.Lock()}
        #: Per op, whether it takes or gives quantized tensors (``quant.has_quantized``), found once.
        self._quantized: dict = {}
        #: The values visible to the op being run (regions of control flow ops see them).
        self.scope: dict = {}
        #: True while a region runs on whole arrays of elements at once (``regions.apply_scalar_region``):
        #: results keep the shape of their operands rather than the declared scalar shape.
        self.batched = False

    def fork(self, process) -> Evaluator:
        """An evaluator for another process of the same module (sharing output and probe state)."""
        return Evaluator(self.module, probe_dir=self.probe_dir, process=process, out=self.out,
                         print_lock=self.print_lock, probe_state=self.probe_state)

    # -- running -------------------------------------------------------------------------------
    def call(self, name: str, args: Sequence, loc: Location | None = None) -> list:
        """Run function ``name`` on ``args``; its results."""
        func = self.funcs.get(name)
        if func is None:
            raise InterpretError(f"function @{name} not found", loc)
        if not func.regions or not func.regions[0].blocks:
            raise InterpretError(f"function @{name} has no body", loc or func.loc)
        return self.run_region(func.regions[0], list(args), {})

    def run_region(self, region: Region, args: Sequence, env: dict) -> list:
        """Run ``region`` (its first block, then blocks reached by branches) with ``args`` bound to the
        entry block's arguments, seeing the values of ``env``; the values its terminator returns."""
        block = region.blocks[0]
        return self.run_block(block, args, env)

    def run_block(self, block: Block, args: Sequence, env: dict) -> list:
        if len(args) != len(block.arguments):
            raise InterpretError(f"expected {len(block.arguments)} block arguments, got {len(args)}",
                                 block.parent.parent.loc if block.parent and block.parent.parent else None)
        for a, v in zip(block.arguments, args, strict=False):
            env[a] = v
        for op in block.ops:
            if op.name in TERMINATORS:
                return [self.value(env, v, op) for v in op.operands]
            self.run_op(op, env)
        return []

    def value(self, env: dict, v, op: Operation):
        if v is None:
            raise InterpretError("operand could not be resolved", op.loc)
        try:
            return env[v]
        except KeyError:
            raise InterpretError(f"value {v.name} used before it is defined", op.loc) from None

    def run_op(self, op: Operation, env: dict) -> None:
        fn = HANDLERS.get(op.name)
        if fn is None:
            raise InterpretError(f"unsupported op: {op.name}", op.loc)
        operands = [self.value(env, v, op) for v in op.operands]
        outer = self.scope
        self.scope = env
        try:
            quantized = self._quantized.get(op)
            if quantized is None:
                quantized = self._quantized[op] = has_quantized(op)
            if quantized:
                results = run_dequantized(self, op, fn, operands)
            else:
                results = fn(self, op, operands)
        except InterpretError as e:
            if e.loc is None:
                e.loc = op.loc
            raise
        except UnsupportedType as e:
            raise InterpretError(f"{op.name}: {e}", op.loc) from None
        except OSError as e:
            raise InterpretError(f"{op.name}: {e.strerror or e}: {e.filename}", op.loc) from None
        except (ValueError, IndexError, TypeError, ZeroDivisionError, OverflowError, KeyError, AttributeError) as e:
            raise InterpretError(f"{op.name}: {e}", op.loc) from None
        finally:
            self.scope = outer
        if len(results) != len(op.results):
            raise InterpretError(f"{op.name} gave {len(results)} results, expected {len(op.results)}", op.loc)
        if self.process is not None and op.name in TRACED:
            self.process.record(op, operands, results)
        for r, v in zip(op.results, results, strict=False):
            if isinstance(v, np.generic):
                v = np.asarray(v)
            if isinstance(v, np.ndarray) and isinstance(r.type, RankedTensorType):
                v = fit(v, r.type.element_type)
                if v.shape != r.type.shape and not self.batched and all(d >= 0 for d in r.type.shape):
                    raise InterpretError(f"{op.name}: result shape {v.shape} does not match {r.type}", op.loc)
            env[r] = v


def result_element(op: Operation, index: int = 0) -> str:
    """The element type name of result ``index`` of ``op``."""
    return element_name(op.results[index].type)


def operand_element(op: Operation, index: int = 0) -> str:
    """The element type name of operand ``index`` of ``op``."""
    v = op.operands[index]
    return element_name(v.type)


def result_shape(op: Operation, index: int = 0) -> tuple[int, ...]:
    return tuple(op.results[index].type.shape)


# Quantized values are dequantized around the handlers of the ops that take them (``quant``), which
# registers its own handlers: imported last, as it needs ``handler``.
from shardy_py.interpreter.quant import has_quantized, run_dequantized  # noqa: E402
