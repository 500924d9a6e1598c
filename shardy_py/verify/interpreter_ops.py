"""The verifier of StableHLO's ``interpreter.run_parallel`` (``RunParallelOp::verify`` and its ODS attribute
constraints, ``stablehlo/reference/InterpreterOps.cpp`` and ``.td``), run on the op kept as written: the
``interpreter`` dialect is StableHLO's interpreter's, which jaxlib and Shardy's tools do not register, so
its ops keep their text; the checks the reference interpreter makes before running it are made here."""
from __future__ import annotations

from shardy_py.ir.builtin_attrs import ArrayAttr, SymbolRefAttr
from shardy_py.ir.ops import Operation
from shardy_py.verify.context import Context
from shardy_py.verify.diagnostics import Failure
from shardy_py.verify.structure import functions_of_nearest_table, name_position

_SHAPED = ("tensor<", "vector<", "memref<")


def _attribute(op: Operation, name: str):
    """The attribute ``name`` typed (None when absent, or not an attribute MLIR reads)."""
    from shardy_py.errors import AttrSyntaxError
    from shardy_py.syntax.attr_reader import parse_attribute

    raw = op.properties_view.get(name)
    if raw is None:
        raw = op.attributes_view.get(name)
    if raw is None:
        return None
    try:
        return parse_attribute(str(raw))
    except AttrSyntaxError:
        return None


def _flat_symbols(attr) -> list[str] | None:
    """The names of an array of flat symbol references (``[@a, @b]``), None for anything else."""
    if not isinstance(attr, ArrayAttr) or not all(isinstance(a, SymbolRefAttr) and not a.nested for a in attr):
        return None
    return [a.root for a in attr]


def verify_run_parallel(op: Operation, ctx: Context) -> Failure | None:
    """``interpreter.run_parallel``: ``programs`` a non-empty grid of functions of the enclosing module whose
    inputs and results add up to the op's; ``infeed`` (optional) functions returning one tensor each."""
    at = name_position(op)
    programs = _attribute(op, "programs")
    if programs is None:
        return Failure(f"'{op.name}' op requires attribute 'programs'", (), at)
    grid = [_flat_symbols(row) for row in programs] if isinstance(programs, ArrayAttr) else [None]
    if any(row is None for row in grid):
        return Failure(f"'{op.name}' op attribute 'programs' failed to satisfy constraint: Array of "
                       "FlatSymbolRefArrayAttr", (), at)
    infeed_attr = _attribute(op, "infeed")
    infeed = _flat_symbols(infeed_attr) if infeed_attr is not None else None
    if infeed_attr is not None and infeed is None:
        return Failure(f"'{op.name}' op attribute 'infeed' failed to satisfy constraint: flat symbol ref array "
                       "attribute", (), at)
    if not grid or not grid[0]:
        return Failure("`programs` attribute cannot be empty", (), at)
    functions = functions_of_nearest_table(op, ctx)
    ins = outs = 0
    for row in grid:
        if len(row) != len(grid[0]):
            return Failure(f"Sizes of second dimension of `programs` should all match {len(grid[0])} but got "
                           f"{len(row)}", (), at)
        for name in row:
            fn = functions.get(name)
            if fn is None:
                return Failure(f'Function "{name}" not found', (), at)
            ins += len(fn.properties_view.get("arg_types") or ())
            outs += len(fn.properties_view.get("result_types") or ())
    if len(op.operands) != ins:
        return Failure(f"Number of inputs ({len(op.operands)}) should match the sum of the number of inputs of all "
                       f"programs ({ins})", (), at)
    if len(op.results) != outs:
        return Failure(f"Number of results ({len(op.results)}) should match the sum of the number of results of "
                       f"all programs ({outs})", (), at)
    if infeed is not None:
        if not infeed:
            return Failure("infeed attribute is optional or should not be empty", (), at)
        for name in infeed:
            fn = functions.get(name)
            if fn is None:
                return Failure(f'Function "{name}" not found', (), at)
            results = fn.properties_view.get("result_types") or []
            if len(results) != 1:
                return Failure(f'Function "{name}" should return 1 tensor but returns {len(results)}', (), at)
            if not str(results[0]).startswith(_SHAPED):
                return Failure(f"Function \"{name}\" should return a tensor type, but instead returns "
                               f"'{results[0]}'", (), at)
    return None
