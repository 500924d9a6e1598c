"""``interpret(module, *args)``: run a module's entry function as StableHLO's reference interpreter
does (``stablehlo/reference/Api.cpp``)."""
from __future__ import annotations

import os
import sys

import numpy as np

from shardy_py.interpreter import load_ops
from shardy_py.interpreter.evaluator import Evaluator, InterpretError, fit_of
from shardy_py.interpreter.values import TOKEN, fit

load_ops()


def entry_function(module, function: str = "main"):
    """The function ``interpret`` runs: ``function`` by name, or the only function of the module;
    None when the module has no functions."""
    funcs = [op for op in module.body.ops if op.name == "func.func"]
    if not funcs:
        return None
    for f in funcs:
        if f.properties_view.get("sym_name") == function:
            return f
    if len(funcs) == 1 and function == "main":
        return funcs[0]
    raise InterpretError(f"module must have entry func with name {function}", module.body.ops[0].loc)


def entry_arguments(func, args) -> list:
    """``args`` as the values ``func`` takes: numpy arrays of its argument types (tokens and tuples as
    given); ``InterpretError`` at the function when their number or a shape differs."""
    arg_types = func.properties_view.get("arg_types", [])
    if len(args) != len(arg_types):
        raise InterpretError(f"invalid number of arguments: expected {len(arg_types)}, got {len(args)}", func.loc)
    values = []
    for i, (a, t) in enumerate(zip(args, arg_types, strict=False)):
        if a is TOKEN or isinstance(a, tuple):
            values.append(a)
            continue
        a = np.asarray(a)
        f = fit_of(t)
        if f is not None and a.shape == f.shape and a.dtype == f.dtype and f.wrap is None:
            values.append(a)  # already what the type holds
            continue
        shape = tuple(getattr(t, "shape", ()))
        if a.shape != shape:
            raise InterpretError(f"argument {i} has shape {a.shape}, expected {t}", func.loc)
        values.append(fit(a, t.element_type))
    return values


def run_module(module, args=(), *, function: str = "main", probe_dir: str | None = None, out=None):
    """Run the entry function of ``module`` on ``args`` (numpy arrays); (results, result types)."""
    func = entry_function(module, function)
    if func is None:
        return [], []
    result_types = func.properties_view.get("result_types", [])
    values = entry_arguments(func, args)
    if probe_dir:
        try:
            os.remove(os.path.join(probe_dir, "index.csv"))
        except FileNotFoundError:
            pass
    ev = Evaluator(module, probe_dir=probe_dir, out=out if out is not None else sys.stdout)
    with np.errstate(all="ignore"):
        results = ev.run_region(func.regions[0], values, {})
    return owned(results), list(result_types)


def owned(values: list) -> list:
    """``values`` as arrays the caller owns: the interpreter shares read-only constants between runs and
    gives views (reshapes, slices) of its inputs, which are copied here."""
    return [np.array(v) if isinstance(v, np.ndarray) and (v.base is not None or not v.flags.writeable) else v
            for v in values]


def interpret(module, *args, function: str = "main") -> tuple:
    """Run ``function`` (by default ``main``, or the module's only function) of ``module`` (a parsed
    ``Module`` or MLIR text) on ``args`` (numpy arrays) with StableHLO's semantics; its results as
    numpy arrays.  Raises ``InterpretError`` (with ``.loc``) on a failing check or unsupported op.

    >>> import numpy as np, shardy_py
    >>> shardy_py.interpret('''func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
    ...   %0 = stablehlo.add %a, %a : tensor<2xi32>
    ...   return %0 : tensor<2xi32>
    ... }''', np.array([1, 2], np.int32))
    (array([2, 4], dtype=int32),)
    """
    if isinstance(module, str):
        import shardy_py

        module = shardy_py.parse(module)
    results, _ = run_module(module, args, function=function)
    return tuple(results)
