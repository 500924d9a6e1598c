"""Verifiers of ``stablehlo.dot`` and ``stablehlo.dot_general`` (``inferDotOp``, ``verifyDotOp``,
``checkDotGeneralConstraints``, ``inferDotGeneralOp``, ``verifyDotGeneralOp`` in StableHLO's
``TypeInference.cpp``; ``DotGeneralOp::verify`` and ``DotAlgorithmAttr::verify`` in ``StablehloOps.cpp``)."""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.dialects.stablehlo_verify_common import (
    attribute_verifier_failure,
    bounds,
    clean_when_seen,
    dims_compatible,
    emit,
    first_duplicate,
    in_types,
    op_fail,
    out_types,
    prop,
    shape,
    typed_prop,
)
from shardy_py.ir.builtin_attrs import ArrayAttr
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.stablehlo_attrs import DotDimensionNumbersAttr, PrecisionAttr


def dims_text(dims: Sequence[int]) -> str:
    """``[2, ?]``: StableHLO's ``dimSizesToString``."""
    return "[" + ", ".join("?" if d < 0 else str(d) for d in dims) + "]"


def precision_array(op, kind: type = PrecisionAttr) -> Failure | None:
    """ODS's precision config constraint of ``precision_config``: absent, or an array of ``kind`` enums
    (``HLO_PrecisionConfigAttr``; CHLO's, of ``#chlo<precision ...>``, for ``kind=ChloPrecisionAttr``)."""
    if prop(op, "precision_config") is None:
        return None
    config = typed_prop(op, "precision_config")
    if not isinstance(config, ArrayAttr) or not all(isinstance(p, kind) for p in config):
        return op_fail(op, "attribute 'precision_config' failed to satisfy constraint: Precision Config attribute")
    return None


def precision_config(op) -> Failure | None:
    """ODS ``HLO_PrecisionConfigAttr`` (an array of precision enums) and ``verifyPrecisionConfig`` (at most 2)."""
    if (f := precision_array(op)) is not None or prop(op, "precision_config") is None:
        return f
    config = typed_prop(op, "precision_config")
    if len(config) > 2:
        return emit(f"expects precision config to be empty or have <= 2 elements, got {len(config)}")
    return None


def _result_shape(op, dims: Sequence[int]) -> Failure | None:
    """The result shape compatible with the inferred one (``verifyCompatibleShape``)."""
    result = out_types(op)[0] if op.results else None
    got = shape(result)
    if got is None:
        return None
    if len(got) != len(dims) or not all(map(dims_compatible, got, dims)):
        return emit(f"inferred shape '{dims_text(dims)}' is incompatible with return type of operation "
                           f"'{result}'")
    return None


@clean_when_seen
def verify_dot(op, ctx) -> Failure | None:
    """``stablehlo.dot``: ranks 1 or 2 with compatible contracting sizes; the result shape (``inferDotOp``)."""
    types = in_types(op)
    lhs, rhs = (shape(t) for t in types[:2])
    f = precision_config(op)
    if f is not None or lhs is None or rhs is None:
        return f
    ranks = (len(lhs), len(rhs))
    if ranks in ((1, 1), (1, 2)) and dims_compatible(lhs[0], rhs[0]):
        dims = [] if ranks == (1, 1) else [rhs[1]]
    elif ranks in ((2, 1), (2, 2)) and dims_compatible(lhs[1], rhs[0]):
        dims = [lhs[0]] if ranks == (2, 1) else [lhs[0], rhs[1]]
    else:
        return emit("expected both lhs/rhs ranks to be either 1 or 2")
    return _result_shape(op, dims)


def _most_specific(i: int, a: int, b: int, a_bound: int, b_bound: int) -> int | Failure:
    """``inferMostSpecificDimAndBound``'s size (its bound is not needed for the shape check)."""
    if a >= 0 or b >= 0:
        if a >= 0 and b >= 0 and a != b:
            return fail(f"Mismatched dimension sizes {a} and {b} in dimension {i}")
        size = a if a >= 0 else b
        bound = a_bound if a_bound >= 0 else b_bound
        if bound >= 0 and size > bound:
            return fail(f"Mismatched dimension size {size} and bound {bound} in dimension {i}")
        return size
    return -1


def _dot_general_dims(op, lhs: tuple[int, ...], rhs: tuple[int, ...], dn: DotDimensionNumbersAttr) -> Failure | None:
    """``checkDotGeneralConstraints`` after the precision config."""
    lb, rb = dn.lhs_batching_dimensions, dn.rhs_batching_dimensions
    lc, rc = dn.lhs_contracting_dimensions, dn.rhs_contracting_dimensions
    if len(lb) != len(rb):
        return emit("lhs and rhs should have the same number of batching dimensions")
    if len(lc) != len(rc):
        return emit("lhs and rhs should have the same number of contracting dimensions")
    for side, batching, contracting in (("lhs", lb, lc), ("rhs", rb, rc)):
        dup = first_duplicate([*batching, *contracting])
        if dup is not None:
            return emit(f"has duplicated dimension from {side}_batching_dimensions and "
                               f"{side}_contracting_dimensions: {dup}")
    for side, rank, groups in (("lhs", len(lhs), (("batching", lb), ("contracting", lc))),
                               ("rhs", len(rhs), (("batching", rb), ("contracting", rc)))):
        for kind, dims in groups:
            for d in dims:
                if not 0 <= d < rank:
                    return emit(f"{side}_{kind}_dimensions value: {d} is out of range: [0, {rank})")
    for kind, ldims, rdims in (("batching", lb, rb), ("contracting", lc, rc)):
        for a, b in zip(ldims, rdims, strict=True):
            if not dims_compatible(lhs[a], rhs[b]):
                return emit(f"{kind} dimension sizes must match for lhs/rhs")
    return None


def _algorithm(op, ctx) -> Failure | None:
    """``DotAlgorithmAttr::verify``, reported at the attribute (as MLIR's attribute verifier reports it)."""
    return attribute_verifier_failure(op, ctx, "algorithm", "#stablehlo.dot_algorithm",
                                      ("dot algorithm", "must be positive"))


@clean_when_seen
def verify_dot_general(op, ctx) -> Failure | None:
    """``stablehlo.dot_general``: the algorithm, the dimension numbers, the result shape, DEFAULT precision with
    an algorithm (``DotGeneralOp::verify``)."""
    f = _algorithm(op, ctx) or precision_config(op)
    if f is not None:
        return f
    types = in_types(op)
    lhs, rhs = (shape(t) for t in types[:2])
    dn = typed_prop(op, "dot_dimension_numbers")
    if lhs is None or rhs is None or not isinstance(dn, DotDimensionNumbersAttr):
        return None
    f = _dot_general_dims(op, lhs, rhs, dn)
    if f is not None:
        return f
    lhs_bounds = bounds(types[0]) or (-1,) * len(lhs)
    rhs_bounds = bounds(types[1]) or (-1,) * len(rhs)
    dims: list[int] = []
    for i, (a, b) in enumerate(zip(dn.lhs_batching_dimensions, dn.rhs_batching_dimensions, strict=True)):
        size = _most_specific(i, lhs[a], rhs[b], lhs_bounds[a], rhs_bounds[b])
        if isinstance(size, Failure):
            return emit(size.message)
        dims.append(size)
    for side, used in ((lhs, (*dn.lhs_batching_dimensions, *dn.lhs_contracting_dimensions)),
                       (rhs, (*dn.rhs_batching_dimensions, *dn.rhs_contracting_dimensions))):
        dims.extend(d for i, d in enumerate(side) if i not in used)
    f = _result_shape(op, dims)
    if f is not None:
        return f
    config = typed_prop(op, "precision_config")
    default = config is None or all(getattr(p, "value", None) == "DEFAULT" for p in config)
    if not default and prop(op, "algorithm") is not None:
        return emit("must specify DEFAULT precision config when algorithm is set.")
    return None
