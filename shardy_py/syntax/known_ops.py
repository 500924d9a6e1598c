"""Ops of the dialects MLIR registers in full: an op of one of these dialects that no declaration
or parser knows does not exist (MLIR: "custom op 'stablehlo.frobnicate' is unknown"), while ops of
every other dialect, registered or not, are kept as written (lossless)."""
from __future__ import annotations

#: Dialects whose every op we declare (stablehlo and chlo: ``dialects/``; sdy, func, builtin: the
#: parser's own handlers), as jaxlib registers them: these dialects allow no unknown op.
CLOSED_DIALECTS = frozenset({"stablehlo", "chlo", "sdy", "func", "builtin"})
#: The ops with MLIR's IsTerminator trait among those of the dialects we declare in full.
TERMINATORS = frozenset({"func.return", "stablehlo.return", "sdy.return"})
#: Ops of those dialects that exist in MLIR but that we keep as written (no declaration of ours).
KEPT_AS_WRITTEN = frozenset({"builtin.unrealized_conversion_cast"})
#: Dialects jaxlib 0.12 registers whose ops we keep as written: their ops, as its context registers
#: them (``is_registered_operation``); any other name of theirs is an unknown op to MLIR.
REGISTERED_OPS = {"arith": frozenset({
    "arith.addf", "arith.addi", "arith.addui_extended", "arith.andi", "arith.bitcast", "arith.ceildivsi",
    "arith.ceildivui", "arith.cmpf", "arith.cmpi", "arith.constant", "arith.convertf", "arith.divf",
    "arith.divsi", "arith.divui", "arith.extf", "arith.extsi", "arith.extui", "arith.floordivsi",
    "arith.flush_denormals", "arith.fptosi", "arith.fptoui", "arith.index_cast", "arith.index_castui",
    "arith.maximumf", "arith.maximumnumf", "arith.maxnumf", "arith.maxsi", "arith.maxui", "arith.minimumf",
    "arith.minimumnumf", "arith.minnumf", "arith.minsi", "arith.minui", "arith.mulf", "arith.muli",
    "arith.mulsi_extended", "arith.mului_extended", "arith.negf", "arith.ori", "arith.remf", "arith.remsi",
    "arith.remui", "arith.scaling_extf", "arith.scaling_truncf", "arith.select", "arith.shli", "arith.shrsi",
    "arith.shrui", "arith.sitofp", "arith.subf", "arith.subi", "arith.subui_extended", "arith.truncf",
    "arith.trunci", "arith.uitofp", "arith.xori"}),
    # (TensorOps.td's ops; jaxlib 0.12 has no Python module for the dialect: each name checked with
    # ``is_registered_operation``, tests/test_parse_known_ops_arith.py)
    "tensor": frozenset({
        "tensor.bitcast", "tensor.cast", "tensor.collapse_shape", "tensor.concat", "tensor.dim", "tensor.empty",
        "tensor.expand_shape", "tensor.extract", "tensor.extract_slice", "tensor.from_elements", "tensor.gather",
        "tensor.generate", "tensor.insert", "tensor.insert_slice", "tensor.pad", "tensor.parallel_insert_slice",
        "tensor.rank", "tensor.reshape", "tensor.scatter", "tensor.splat", "tensor.yield"})}


def check_known_op(parser, name: str, offset: int, generic: bool) -> None:
    """Raise MLIR's error when ``name`` (written at ``offset``) is not an op of its (closed) dialect."""
    dialect = name.split(".", 1)[0]
    registered = REGISTERED_OPS.get(dialect)
    if registered is not None:
        if name in registered:
            return
    elif dialect not in CLOSED_DIALECTS or name in KEPT_AS_WRITTEN or "." not in name:
        return
    if generic:
        raise parser.error(offset, f"unregistered operation '{name}' found in dialect ('{dialect}') that does "
                                   "not allow unknown operations")
    raise parser.error(offset, f"custom op '{name}' is unknown")


def results_mismatch(defined: int, named: int) -> str:
    """MLIR's error for an op written with ``named`` result names that defines ``defined`` results
    (``OperationParser::parseOperation``; results may also be left unnamed)."""
    if defined == 0:
        return "cannot name an operation with no results"
    return f"operation defines {defined} results but was provided {named} to bind"


def might_be_terminator(name: str) -> bool:
    """MLIR's ``mightHaveTrait<IsTerminator>``: a terminator, or an op of a dialect MLIR does not know."""
    return name in TERMINATORS or name.split(".", 1)[0] not in CLOSED_DIALECTS
