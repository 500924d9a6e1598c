"""Ops of the dialects MLIR registers in full: an op of one of these dialects that no declaration
or parser knows does not exist (MLIR: "custom op 'stablehlo.frobnicate' is unknown"), while ops of
every other dialect, registered or not, are kept as written (lossless)."""
from __future__ import annotations

from shardy_py.syntax import registered_ops_data

#: Dialects whose every op we declare (stablehlo and chlo: ``dialects/``; sdy, func, builtin: the
#: parser's own handlers), as jaxlib registers them: these dialects allow no unknown op.
CLOSED_DIALECTS = frozenset({"stablehlo", "chlo", "sdy", "func", "builtin"})
#: The ops with MLIR's IsTerminator trait among those of the dialects we declare in full.
TERMINATORS = frozenset({"func.return", "stablehlo.return", "sdy.return"})
#: Ops of those dialects that exist in MLIR but that we keep as written (no declaration of ours).
KEPT_AS_WRITTEN = frozenset({"builtin.unrealized_conversion_cast"})
#: Dialects jaxlib 0.12 registers whose ops we keep as written (``registered_ops_data``, generated from jaxlib
#: by ``benchmarks/registered_ops_table.py``): their ops, as its context registers them; any other name of
#: theirs is an unknown op to MLIR (in generic form too, but for the dialects of ``UNKNOWN_OPS_ALLOWED``).
REGISTERED_OPS = registered_ops_data.REGISTERED_OPS
#: The ops of ``REGISTERED_OPS`` that are (or may be) terminators (their op definitions' ``Terminator`` trait;
#: jaxlib 0.12 says "must be the last operation in the parent block" or no "block with no terminator" for each):
#: a block may end in them.  Every other op of the table is never a terminator.
REGISTERED_TERMINATORS = frozenset({
    "affine.yield", "cf.br", "cf.cond_br", "cf.switch", "gpu.return", "gpu.terminator", "gpu.yield", "llvm.br",
    "llvm.cond_br", "llvm.indirectbr", "llvm.resume", "llvm.return", "llvm.switch", "llvm.unreachable",
    "memref.alloca_scope.return", "memref.atomic_yield", "mhlo.return", "mpmd.return", "scf.condition",
    "scf.forall.in_parallel", "scf.reduce", "scf.reduce.return", "scf.yield", "shape.assuming_yield",
    "shape.return", "shape.yield", "tensor.yield", "ub.unreachable", "vector.yield", "vhlo.return_v1"})


def check_known_op(parser, name: str, offset: int, generic: bool) -> None:
    """Raise MLIR's error when ``name`` (written at ``offset``) is not an op of its (closed) dialect."""
    dialect = name.split(".", 1)[0]
    registered = REGISTERED_OPS.get(dialect)
    if registered is not None:
        if name in registered or generic and dialect in registered_ops_data.UNKNOWN_OPS_ALLOWED:
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
