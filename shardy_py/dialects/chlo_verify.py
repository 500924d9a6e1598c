"""Verifiers of CHLO's ops (``stablehlo/dialect/ChloOps.cpp`` and ``ChloOps.td``): the element-type
traits of the broadcasting binary ops, ``constant_like``, ``ragged_dot``
(``checkRaggedDotConstraints``, ``inferRaggedDotOutputDimensions``), ``top_k`` (``inferTopKOp``),
``scan`` and ``mulhi``'s operand type."""
from __future__ import annotations

from shardy_py.dialects.stablehlo_verify_common import (
    bounds,
    check_inferred,
    compatible,
    dims_compatible,
    element,
    elements_compatible,
    int_prop,
    ints_prop,
    is_integer,
    is_pred,
    op_fail,
    prop,
    shape,
    tensor,
    typed_prop,
    types_text,
)
from shardy_py.dialects.stablehlo_verify_dot import precision_array
from shardy_py.dialects.stablehlo_verify_types import (
    arg_types,
    compatible_shape,
    entry_block,
    known,
    terminator_types,
)
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.stablehlo_attrs import ChloPrecisionAttr, DotDimensionNumbersAttr, RaggedDotDimensionNumbersAttr

#: The broadcasting ops whose element types need only be compatible (quantized alike), and those
#: without an element-type trait (logical ops, complex, compare); the others require the same element type.
_COMPATIBLE_ELEMENTS = frozenset({"add", "maximum", "minimum"})
_NO_ELEMENT_TRAIT = frozenset({"and", "or", "xor", "complex", "compare"})


def _element_trait(op, short: str) -> Failure | None:
    """``HLO_CompatibleOperandsAndResultElementType`` / ``SameOperandsAndResultElementType``."""
    if short in _NO_ELEMENT_TRAIT:
        return None
    types = [v.type for v in op.operands] + [r.type for r in op.results]
    if short in _COMPATIBLE_ELEMENTS:
        if any(not elements_compatible(types[0], t) for t in types[1:]):
            return op_fail(op, "requires compatible element types for all operands and results")
    elif any(element(t).text != element(types[0]).text for t in types[1:]):
        return op_fail(op, "requires the same element type for all operands and results")
    return None


def _broadcast_dims(a: int, b: int) -> int | None:
    """``OpTrait::util::getBroadcastedShape`` for one dimension (None: not broadcastable)."""
    if a < 0:
        return b if b > 1 else -1
    if b < 0:
        return a if a > 1 else -1
    if a == 1 or a == b:
        return b
    return a if b == 1 else None


def _broadcast_shape(x, y, broadcast_dimensions) -> list[int] | None:
    """``getBroadcastTypeWithBroadcastDimensions``'s shape (None where the C++ infers an unranked type)."""
    if broadcast_dimensions is None:
        out: list[int] = []
        for i in range(1, max(len(x), len(y)) + 1):
            a = x[-i] if i <= len(x) else 1
            b = y[-i] if i <= len(y) else 1
            d = _broadcast_dims(a, b)
            if d is None:
                return None
            out.insert(0, d)
        return out
    large, small = (x, y) if len(x) > len(y) else (y, x)
    if len(broadcast_dimensions) != len(small) or any(d >= len(large) for d in broadcast_dimensions):
        return None
    out = list(large)
    for i, d in enumerate(broadcast_dimensions):
        b = _broadcast_dims(small[i], large[d])
        if b is None:
            return None
        out[d] = b
    return out


def verify_broadcast_binary(op, ctx) -> Failure | None:
    """A ``chlo.broadcast_*`` binary op: its element-type trait, then ``InferBroadcastBinaryOpReturnTypeComponents``
    (operands of compatible element types; the result of their broadcast shape)."""
    if not known(op) or len(op.operands) != 2 or len(op.results) != 1:
        return None
    short = op.name[len("chlo.broadcast_"):]
    f = _element_trait(op, short)
    if f is not None:
        return f
    lhs, rhs = (v.type for v in op.operands)
    if not elements_compatible(lhs, rhs):
        return fail("mismatched operand types")
    x, y = shape(lhs), shape(rhs)
    if x is None or y is None or bounds(lhs) or bounds(rhs):
        return None
    dims = _broadcast_shape(x, y, ints_prop(op, "broadcast_dimensions"))
    if dims is None:
        return None
    elem = "i1" if short == "compare" else f"complex<{element(lhs)}>" if short == "complex" else element(lhs)
    return check_inferred(op, [tensor(dims, elem)])


def verify_compatible_types(op, ctx) -> Failure | None:
    """``HLO_CompatibleOperandsAndResultType``: every operand and result compatible with the first operand."""
    if not known(op):
        return None
    types = [v.type for v in op.operands] + [r.type for r in op.results]
    if types and not all(compatible(t, types[0]) for t in types):
        return op_fail(op, "requires compatible types for all operands and results")
    return None


def verify_constant_like(op, ctx) -> Failure | None:
    """``ConstantLikeOp::verify``: the value's type is the result's element type."""
    if not known(op) or not op.results:
        return None
    value = str(prop(op, "value") or "")
    if " : " not in value:
        return None
    value_type = value.rsplit(" : ", 1)[1].strip()
    if value_type != element(op.results[0].type).text:
        return op_fail(op, "value's type doesn't match element return type")
    return None


def verify_mulhi(op, ctx) -> Failure | None:
    """ODS: ``mulhi``'s operands are tensors of 2..64-bit integers (not i1)."""
    if not known(op):
        return None
    for i, v in enumerate(op.operands):
        if shape(v.type) is None or not is_integer(v.type) or is_pred(v.type):
            return op_fail(op, f"operand #{i} must be ranked tensor of 2/4/8/16/32/64-bit integer values, but got "
                               f"'{v.type}'")
    return verify_compatible_types(op, ctx)


def verify_top_k(op, ctx) -> Failure | None:
    """``inferTopKOp``: rank >= 1, last dimension >= k; results of the operand's shape with k last."""
    if not known(op) or not op.operands:
        return None
    t = op.operands[0].type
    dims, k = shape(t), int_prop(op, "k")
    if dims is None and t.is_shaped:  # unranked: results of the element types alone
        from shardy_py.ir.types import parse_type

        return check_inferred(op, [parse_type(f"tensor<*x{element(t)}>"), parse_type("tensor<*xi32>")])
    if dims is None or k is None:
        return None
    if not dims:
        return fail("operand's rank must be at least 1")
    if dims[-1] >= 0 and dims[-1] < k:
        return fail(f"operand's last dimension must be at least {k}")
    out = [*dims[:-1], k]
    return check_inferred(op, [tensor(out, element(t)), tensor(out, "i32")])


def _dot_constraints(op, lhs, rhs, dn: RaggedDotDimensionNumbersAttr) -> Failure | None:
    """``checkDotGeneralConstraints`` (shared with dot_general), its messages without the op prefix as
    ``emitOptionalError`` gives them."""
    from shardy_py.dialects import stablehlo_verify_dot

    as_dot = DotDimensionNumbersAttr(dn.lhs_batching_dimensions, dn.rhs_batching_dimensions,
                                     dn.lhs_contracting_dimensions, dn.rhs_contracting_dimensions)
    f = stablehlo_verify_dot._dot_general_dims(op, lhs, rhs, as_dot)
    prefix = f"'{op.name}' op "
    if f is not None and f.message.startswith(prefix):
        return fail(f.message[len(prefix):])
    return f


def _distinct(a, b, a_name: str, b_name: str) -> Failure | None:
    seen = set()
    for d in (*a, *b):
        if d in seen:
            return fail(f"has duplicated dimension from {a_name} and {b_name}: {d}")
        seen.add(d)
    return None


def _in_bounds(d: int, rank: int, name: str, rank_name: str) -> Failure | None:
    if not 0 <= d < rank:
        return fail(f"Expects {name} to be in range [0, {rank_name}) i.e. [0, {rank}). got: {d}.")
    return None


def _ragged_constraints(lhs, rhs, groups, dn: RaggedDotDimensionNumbersAttr) -> Failure | None:
    """``checkRaggedDotConstraints``: one lhs ragged dimension; group_sizes' shape for its mode; the rhs
    group dimensions (one for a non-contracting ragged dimension, none otherwise)."""
    lb, lc = dn.lhs_batching_dimensions, dn.lhs_contracting_dimensions
    rb, rc, rg = dn.rhs_batching_dimensions, dn.rhs_contracting_dimensions, dn.rhs_group_dimensions
    if len(dn.lhs_ragged_dimensions) != 1:
        return fail("There must be exactly one ragged dimension in the lhs.")
    ragged = dn.lhs_ragged_dimensions[0]
    f = _in_bounds(ragged, len(lhs), "lhs_ragged_dim", "lhs_rank")
    if f is not None:
        return f
    mode = "batch" if ragged in lb else "contracting" if ragged in lc else "non-contracting"
    if mode == "batch":
        prefix = list(lb[:lb.index(ragged)])
    elif mode == "contracting":
        prefix = [*lb, *lc[:lc.index(ragged)]]
    else:
        prefix = [*lb, *(i for i in range(ragged) if i not in lb and i not in lc)]
    expected = [lhs[d] for d in prefix]
    if len(groups) != 1:
        if len(groups) != len(expected) + 1:
            return fail(f"expected group_sizes to have rank {len(expected) + 1}, got {len(groups)}")
        if list(groups[:len(expected)]) != expected:
            want = ", ".join(map(str, [*expected, groups[-1]]))
            return fail(f"group_sizes is expected to have shape [{want}], got [{', '.join(map(str, groups))}]")
    num_groups = groups[-1]
    for d in rg:
        f = _in_bounds(d, len(rhs), "rhs_group_dim", "rhs_rank")
        if f is not None:
            return f
    f = _distinct(rg, rb, "rhs_group_dimensions", "rhs_batching_dimensions") or \
        _distinct(rg, rc, "rhs_group_dimensions", "rhs_contracting_dimensions")
    if f is not None:
        return f
    if mode != "non-contracting":
        if rg:
            return fail("There must be zero group dimensions in the rhs when the ragged dimension is batch or "
                        "contracting.")
        return None
    if len(rg) != 1:
        return fail("There must be exactly one group dimension in the rhs when the lhs ragged dimension is "
                    "non-contracting.")
    if not dims_compatible(num_groups, rhs[rg[0]]):
        return fail(f"rhs group dimension is expected to have size={num_groups}, got {rhs[rg[0]]}")
    return None


def verify_ragged_dot(op, ctx) -> Failure | None:
    """``RaggedDotOp::verify``: the dot constraints, the ragged ones, and the result shape (the attributes' ODS
    constraints first)."""
    if (f := precision_array(op, ChloPrecisionAttr)) is not None:
        return f
    if not known(op) or len(op.operands) != 3:
        return None
    lhs, rhs, groups = (shape(v.type) for v in op.operands)
    dn = typed_prop(op, "ragged_dot_dimension_numbers")
    if lhs is None or rhs is None or groups is None or not isinstance(dn, RaggedDotDimensionNumbersAttr):
        return None
    f = _dot_constraints(op, lhs, rhs, dn) or _ragged_constraints(lhs, rhs, groups, dn)
    if f is not None:
        return f
    lb, lc = dn.lhs_batching_dimensions, dn.lhs_contracting_dimensions
    rb, rc, rg = dn.rhs_batching_dimensions, dn.rhs_contracting_dimensions, dn.rhs_group_dimensions
    dims = [groups[-1]] if dn.lhs_ragged_dimensions[0] in lc else []
    dims += [lhs[d] for d in lb]
    dims += [lhs[i] for i in range(len(lhs)) if i not in lb and i not in lc]
    dims += [rhs[i] for i in range(len(rhs)) if i not in rb and i not in rc and i not in rg]
    result = op.results[0].type if op.results else None
    got = shape(result)
    if got is not None and (len(got) != len(dims) or not all(map(dims_compatible, got, dims))):
        text = "[" + ", ".join("?" if d < 0 else str(d) for d in dims) + "]"
        return fail(f"inferred shape '{text}' is incompatible with return type of operation '{result}'")
    return None


def verify_scan(op, ctx) -> Failure | None:
    """``ScanOp::verify``: the scan dimension in bounds and of one size; the body's arguments are the
    inputs (scan dimension removed) and the carries."""
    if not known(op) or not op.regions:
        return None
    segments = str(prop(op, "operandSegmentSizes") or "")
    counts = [int(x) for x in segments.split(":", 1)[1].rstrip(">").split(",")] if ":" in segments else None
    if counts is None or len(counts) != 2:
        return None
    n_inputs = counts[0]
    if n_inputs == 0 and len(op.results) == counts[1]:
        return op_fail(op, "at least one of inputs or outputs must be present")
    dim = int_prop(op, "dimension")
    size = int_prop(op, "scan_dim_size")
    if dim is None:
        return None
    types = [v.type for v in op.operands]
    for i, t in enumerate(types[:n_inputs]):
        s = shape(t)
        if s is None:
            return op_fail(op, f"operand {i} is not ranked")
        if dim >= len(s):
            return op_fail(op, f"scan dimension of operand {i} is out of bounds")
        if s[dim] < 0:
            continue
        if size is not None and size != s[dim]:
            return op_fail(op, f"invalid scan dimension size of operand {i}")
        size = s[dim]
    block = entry_block(op.regions[0])
    if block is None:
        return None
    args = arg_types(block)
    if len(args) != len(types):
        return op_fail(op, f"expects {len(types)} arguments in the body, but got {len(args)}")
    for i, (t, a) in enumerate(zip(types, args, strict=True)):
        s = shape(t)
        if s is None:
            return op_fail(op, f"operand {i} is not ranked")
        if a is None or terminator_types(block) is None:
            return None
        want = tensor([d for j, d in enumerate(s) if j != dim or i >= n_inputs], element(t), None)
        if not compatible(want, a):
            return op_fail(op, f"operand and body argument {i} are incompatible")
    return None


def verify_scan_results(op, ctx) -> Failure | None:
    """``ScanOp::inferReturnTypeComponents`` (after the nested ops): each returned output with the scan
    dimension put back, then the carries as returned."""
    if not known(op) or not op.regions:
        return None
    segments = str(prop(op, "operandSegmentSizes") or "")
    counts = [int(x) for x in segments.split(":", 1)[1].rstrip(">").split(",")] if ":" in segments else None
    dim = int_prop(op, "dimension")
    block = entry_block(op.regions[0])
    if counts is None or len(counts) != 2 or dim is None or block is None:
        return None
    size = int_prop(op, "scan_dim_size")
    for t in [v.type for v in op.operands][:counts[0]]:
        s = shape(t)
        if s is not None and dim < len(s) and s[dim] >= 0:
            size = s[dim]
    n_carries = counts[1]
    returned = terminator_types(block)
    if returned is None:
        return None
    if len(returned) < n_carries:
        return fail(f"ScanOp body must return at least {n_carries} values (carries)")  # (emitOptionalError)
    if any(shape(t) is None for t in returned):
        return None
    n_outputs = len(returned) - n_carries
    inferred = []
    for i, t in enumerate(returned):
        dims = list(shape(t))
        if i < n_outputs:
            dims.insert(dim, -1 if size is None else size)
        inferred.append(tensor(dims, element(t)))
    results = [r.type for r in op.results]  # (ScanOp::isCompatibleReturnTypes: verifyCompatibleShapes, shapes only)
    if None in results:
        return None
    if len(results) != len(inferred) or not all(compatible_shape(a, b) for a, b in zip(inferred, results, strict=True)):
        return op_fail(op, f"inferred type(s) {types_text(inferred)} are incompatible with return type(s) of "
                           f"operation {types_text(results)}")
    return None

