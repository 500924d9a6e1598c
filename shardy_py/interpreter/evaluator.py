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
import weakref
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from shardy_py.interpreter.values import UnsupportedType, dtype_of, element_name, fit
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


class _Fit(NamedTuple):
    """How a result of a tensor type is fitted: its dtype, the element type name when narrow integers
    wrap around (``fit``), its static shape (None with dynamic dimensions)."""

    dtype: np.dtype
    wrap: str | None
    shape: tuple[int, ...] | None


class _Plan(NamedTuple):
    """What running one op needs, found once per op: its handler, whether it sees quantized values,
    whether processes trace it, and how each result is fitted (None: not a ranked tensor)."""

    fn: Handler
    quantized: bool
    traced: bool
    fits: tuple[_Fit | None, ...]


@functools.lru_cache(maxsize=4096)
def fit_of(t) -> _Fit | None:
    """How a value of type ``t`` is fitted (``_Fit``; None: not a ranked tensor of a known element type)."""
    if not isinstance(t, RankedTensorType):
        return None
    try:
        dtype = dtype_of(element_name(t))
    except UnsupportedType:
        return None
    narrow = dtype.itemsize == 1 and dtype.kind in "iu" and element_name(t) not in ("i8", "ui8", "si8")
    shape = tuple(t.shape) if all(d >= 0 for d in t.shape) else None
    return _Fit(dtype, element_name(t) if narrow else None, shape)


def _plan(op: Operation) -> _Plan:
    fn = HANDLERS.get(op.name)
    if fn is None:
        raise InterpretError(f"unsupported op: {op.name}", op.loc)
    return _Plan(fn, has_quantized(op), op.name in TRACED, tuple(fit_of(r.type) for r in op.results))


#: Per module, each op's ``_Plan`` and what handlers memoise for an op (``Evaluator.memo``); forgotten
#: with the module.  Ops are not expected to change between runs of the same module.
_MODULE_CACHES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: The key of a module's functions by name in its memo.
_FUNCS = "functions"


def _caches(module) -> tuple[dict, dict]:
    try:
        found = _MODULE_CACHES.get(module)
        if found is None:
            found = _MODULE_CACHES[module] = ({}, {})
        return found
    except TypeError:  # not weakly referable: caches for this evaluator only
        return {}, {}


class Evaluator:
    """Runs the functions of one module for one process (``process``: its ids in a process grid, or
    None outside ``interpreter.run_parallel``)."""

    def __init__(self, module, *, probe_dir: str | None = None, process=None, out=None,
                 print_lock: threading.Lock | None = None, probe_state=None):
        self.module = module
        #: Per op, its ``_Plan``; and values handlers derive from an op alone (a constant's array, read-only),
        #: kept with the module across runs.
        self._plans, self.memo = _caches(module)
        funcs = self.memo.get(_FUNCS)
        if funcs is None:
            funcs = self.memo[_FUNCS] = {
                op.properties_view.get("sym_name"): op for op in module.walk() if op.name == "func.func"}
        self.funcs: dict[str, Operation] = funcs
        self.probe_dir = probe_dir
        self.process = process
        self.out = out
        self.print_lock = print_lock or threading.Lock()
        self.probe_state = probe_state if probe_state is not None else {"next_id": 0, "lock": threading.Lock()}
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
        steps = self.memo.get(block)
        if steps is None:
            steps = self.memo[block] = self._steps(block)
        for op, step in steps:
            if step is None:
                if op.name in TERMINATORS:
                    return [self.value(env, v, op) for v in op.operands]
                self.run_op(op, env)
                continue
            try:
                step(env)
            except Exception:  # noqa: BLE001 - the handler's path runs it again and reports what failed
                self.run_op(op, env)
        return []

    @staticmethod
    def _steps(block: Block) -> list[tuple[Operation, object]]:
        """Each op of ``block`` up to its terminator, with its fast step (``fast_steps``) or None."""
        from shardy_py.interpreter.fast_steps import fast_step

        steps = []
        for op in block.ops:
            if op.name in TERMINATORS:
                steps.append((op, None))
                break
            steps.append((op, fast_step(op)))
        return steps

    def value(self, env: dict, v, op: Operation):
        if v is None:
            raise InterpretError("operand could not be resolved", op.loc)
        try:
            return env[v]
        except KeyError:
            raise InterpretError(f"value {v.name} used before it is defined", op.loc) from None

    def run_op(self, op: Operation, env: dict) -> None:
        plan = self._plans.get(op)
        if plan is None:
            plan = self._plans[op] = _plan(op)
        try:
            operands = [env[v] for v in op.operands]
        except KeyError:
            operands = [self.value(env, v, op) for v in op.operands]
        outer = self.scope
        self.scope = env
        try:
            if plan.quantized:
                results = run_dequantized(self, op, plan.fn, operands)
            else:
                results = plan.fn(self, op, operands)
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
        fits = plan.fits
        if len(results) != len(fits):
            raise InterpretError(f"{op.name} gave {len(results)} results, expected {len(op.results)}", op.loc)
        if plan.traced and self.process is not None:
            self.process.record(op, operands, results)
        if len(fits) == 1:
            env[op.results[0]] = self._fitted(op, 0, results[0], fits[0])
        else:
            for i, (r, v) in enumerate(zip(op.results, results, strict=False)):
                env[r] = self._fitted(op, i, v, fits[i])

    def _fitted(self, op: Operation, index: int, v, f: _Fit | None):
        """Result ``index`` of ``op`` as its type holds it (see ``_Fit``)."""
        if f is None:
            return v
        if type(v) is not np.ndarray:
            if isinstance(v, np.generic):
                v = np.asarray(v)
            elif not isinstance(v, np.ndarray):
                return v
        if v.dtype is not f.dtype and v.dtype != f.dtype:
            v = v.astype(f.dtype)
        if f.wrap is not None:
            v = fit(v, f.wrap)
        if v.shape != f.shape and f.shape is not None and not self.batched:
            raise InterpretError(f"{op.name}: result shape {v.shape} does not match {op.results[index].type}", op.loc)
        return v


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
