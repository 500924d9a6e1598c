"""Rules C14-C30: sdy.manual_computation and sdy.named_computation."""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.ir.attrs import ManualAxesAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import Block, Operation
from shardy_py.ir.types import DYNAMIC, RankedTensorType, Type
from shardy_py.verify.axes import axis_ref_str, axis_size
from shardy_py.verify.common_mesh import common_mesh
from shardy_py.verify.context import Context, loc_of
from shardy_py.verify.diagnostics import Failure, fail
from shardy_py.verify.shardings import bound_axis_failure, verify_sharding_per_value
from shardy_py.verify.structure import name_position
from shardy_py.verify.typeutil import is_shaped, operand_types, shape_of, type_str, value_name


def _body(op: Operation) -> Block | None:
    if op.regions and op.regions[0].blocks:
        return op.regions[0].blocks[0]
    return None


def _terminator(op: Operation) -> Operation | None:
    b = _body(op)
    return b.ops[-1] if b is not None and b.ops else None


def verify_single_block_return(op: Operation, ctx: Context) -> Failure | None:
    """C14/C25: one region with one block ending in ``sdy.return``."""
    if not op.regions or len(op.regions[0].blocks) != 1:
        n = len(op.regions[0].blocks) if op.regions else 0
        return fail(f"'{op.name}' op body must be a region with exactly one block, got {n}")
    term = _terminator(op)
    if term is None or term.name != "sdy.return":
        found = f"'{term.name}'" if term is not None else "an empty block"
        return fail(f"'{op.name}' op body must end with 'sdy.return', found {found}")
    return None


def verify_named_computation_result_types(op: Operation, ctx: Context) -> Failure | None:
    """C26: the result types are those of the ``sdy.return`` operands."""
    term = _terminator(op)
    if term is None or term.name != "sdy.return":  # (the body's own rule, checked after its ops)
        return None
    returned = operand_types(term)
    declared = op.result_types
    got = [str(t) for t in returned]
    want = [str(t) for t in declared]
    if got != want:
        return fail(f"'sdy.named_computation' op returns ({', '.join(got)}) from its body but declares result type(s) "
                    f"({', '.join(want)})")
    return None


def verify_no_nested_manual_axes(op: Operation, ctx: Context) -> Failure | None:
    """C15: a manual axis may not already be manual in an enclosing manual computation."""
    owners = ctx.enclosing_manual_axes(op)
    if not owners:
        return None
    manual = op.properties_view.get("manual_axes")
    for name in getattr(manual, "axes", ()):
        owner = owners.get(name)
        if owner is not None:
            return bound_axis_failure(name, owner).prefixed("'sdy.manual_computation' op ")
    return None


def verify_isolated_from_above(op: Operation, ctx: Context) -> Failure | None:
    """C14/C25 region invariant: ops in the body use only values defined inside it."""
    body = _body(op)
    if body is None:
        return None
    inside: set = set(body.arguments)
    for nested in op.walk():
        if nested is op:
            continue
        for r in nested.results:
            inside.add(r)
        for reg in nested.regions:
            for b in reg.blocks:
                inside.update(b.arguments)
    for nested in op.walk():
        if nested is op:
            continue
        for v in nested.operands:
            if v is not None and v not in inside:
                parent = loc_of(op)
                name = value_name(v)
                return Failure(f"'{nested.name}' op uses {name}, which is defined outside the isolated body of "
                               f"'{op.name}'; pass it in as an operand instead",
                               ((parent.line, parent.column, f"'{op.name}' is isolated from above"),),
                               name_position(nested))  # (MLIR's op location: its name, after its results)
    return None


def _manual_size(axes, manual: set[str], mesh) -> int:
    n = 1
    for a in axes:
        if a.name in manual:
            n *= axis_size(a, mesh)
    return n


def _verify_mc_values(op: Operation, ctx: Context, global_types: Sequence[Type | None],
                      local_types: Sequence[Type | None], attr: TensorShardingPerValueAttr | None,
                      manual: set[str], kind: str) -> Failure | None:
    """C16-C21 for the operands (``kind='operand'``) or the results."""
    shardings = attr.shardings if attr is not None else ()
    if not global_types and not local_types and not shardings:
        return None
    pre = "'sdy.manual_computation' op "
    f = verify_sharding_per_value(attr or TensorShardingPerValueAttr(()), list(global_types), ctx, op, kind,
                                  ctx.enclosing_manual_axes(op))
    if f:
        return f.prefixed(pre)
    if len(global_types) != len(local_types):
        return fail(f"{pre}has {len(global_types)} {kind}(s) but its body has {len(local_types)} region {kind}(s); "
                    "they must match")
    for i, (g, loc_t, s) in enumerate(zip(global_types, local_types, shardings, strict=False)):
        for dim, d in enumerate(s.dim_shardings):
            free = None
            for a in d.axes:
                if a.name not in manual:
                    free = free or a
                elif free is not None:
                    return fail(f"{pre}{kind} {i} sharding, dim {dim}: manual axis {axis_ref_str(a)} comes after "
                                f"free axis {axis_ref_str(free)}; manual axes must come first")
        if not is_shaped(g):
            continue
        shape = shape_of(g)
        if shape is None:
            continue
        mesh = ctx.mesh_of(s)
        new_dims = []
        for size, d in zip(shape, s.dim_shardings, strict=False):
            if size == DYNAMIC:
                new_dims.append(DYNAMIC)
                continue
            m = _manual_size(d.axes, manual, mesh) if mesh is not None else 1
            if m == 0 or size % m != 0:
                return fail(f"{pre}{kind} {i}: dimension of size {size} is not divisible by the size {m} of its "
                            "manual axes")
            new_dims.append(size // m)
        elem = g.element_type if isinstance(g, RankedTensorType) else _elem_of(g)
        expected = "tensor<" + "".join(("?" if x == DYNAMIC else str(x)) + "x" for x in new_dims) + elem + ">"
        if loc_t is None or loc_t.text != expected:
            return fail(f"{pre}{kind} {i}: global type {type_str(g)} sharded on the manual axes gives local type "
                        f"'{expected}', but the region {kind} has type {type_str(loc_t)}")
    return None


def _elem_of(t: Type) -> str:
    text = t.text
    inner = text[text.index("<") + 1:-1] if "<" in text else text
    return inner.split("x")[-1].split(",")[0].strip()


def manual_computation_key(op: Operation, ctx: Context) -> tuple:
    """Everything ``verify_manual_computation`` reads, but the module's meshes: its manual axes, in
    and out shardings, operand, result, body argument and ``sdy.return`` operand types, and the
    manual axes of the computations around it (equal keys, equal verdicts)."""
    props = op.properties_view
    body = _body(op)
    term = _terminator(op)
    returned = tuple(operand_types(term)) if term is not None and term.name == "sdy.return" else None
    return (props.get("manual_axes"), props.get("in_shardings"), props.get("out_shardings"),
            tuple(operand_types(op)), tuple(op.result_types),
            None if body is None else tuple(a.type for a in body.arguments), returned,
            tuple(ctx.enclosing_manual_axes(op)))


def verify_manual_computation(op: Operation, ctx: Context) -> Failure | None:
    """C16-C24 (symbol-use phase)."""
    manual_attr = op.properties_view.get("manual_axes")
    manual_axes = manual_attr.axes if isinstance(manual_attr, ManualAxesAttr) else ()
    manual = set(manual_axes)
    body = _body(op)
    ins = op.properties_view.get("in_shardings")
    outs = op.properties_view.get("out_shardings")
    arg_types = [a.type for a in body.arguments] if body is not None else []
    term = _terminator(op)
    ret_types = operand_types(term) if term is not None and term.name == "sdy.return" else []
    f = _verify_mc_values(op, ctx, operand_types(op), arg_types, ins, manual, "operand") or _verify_mc_values(
        op, ctx, op.result_types, ret_types, outs, manual, "result")
    if f:
        return f
    in_s = ins.shardings if ins is not None else ()
    out_s = outs.shardings if outs is not None else ()
    if not in_s and not out_s:
        return None
    mesh = common_mesh((*in_s, *out_s), ctx)
    if mesh is None and manual_axes:
        return fail("'sdy.manual_computation' op has manual axes, so its in and out shardings must all use the same "
                    "mesh (or an empty mesh)")
    if mesh is not None:
        names = {a.name for a in mesh.axes}
        for name in manual_axes:
            if name not in names:
                return fail(f"'sdy.manual_computation' op manual axis \"{name}\" is not an axis of the mesh of its "
                            "shardings")
    return None


def verify_named_computation(op: Operation, ctx: Context) -> Failure | None:
    """C27-C30 (symbol-use phase)."""
    body = _body(op)
    args = body.arguments if body is not None else []
    ins = operand_types(op)
    if len(args) != len(ins):
        return fail(f"sdy.named_computation body has {len(args)} argument(s) but the op has {len(ins)} operand(s); "
                    "they must match")
    for i, (a, t) in enumerate(zip(args, ins, strict=False)):
        if t is not None and a.type is not None and a.type.text != t.text:
            return fail(f"sdy.named_computation body argument {i} has type {type_str(a.type)} but operand {i} has "
                        f"type {type_str(t)}; they must match")
    pre = "'sdy.named_computation' op "
    for key, types, word in (("in_shardings", ins, "in_shardings"), ("out_shardings", op.result_types,
                                                                      "out_shardings")):
        attr = op.properties_view.get(key)
        if isinstance(attr, TensorShardingPerValueAttr):
            f = verify_sharding_per_value(attr, types, ctx, op, word, ctx.enclosing_manual_axes(op))
            if f:
                return f.prefixed(pre)
    return None


def uses_value_from_outside_isolated_region(op: Operation, isolated_ops) -> bool:
    """Whether ``op`` uses a value defined outside the nearest enclosing op of ``isolated_ops`` (whose regions are
    isolated from above: MLIR cannot even parse such a use, so it judges nothing else of the op; the region rule
    reports it)."""
    isolated = op.parent.parent.parent if op.parent is not None and op.parent.parent is not None else None
    while isolated is not None and isolated.name not in isolated_ops:
        block = isolated.parent
        isolated = block.parent.parent if block is not None and block.parent is not None else None
    if isolated is None:
        return False
    for v in op.operands:
        owner = getattr(v, "owner", None)
        node = owner.parent if isinstance(owner, Operation) else owner  # the block defining v
        while node is not None:
            region = node.parent
            parent_op = region.parent if region is not None else None
            if parent_op is isolated:
                break
            node = parent_op.parent if parent_op is not None else None
        else:
            return True
    return False
