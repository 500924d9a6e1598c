"""Verifiers of StableHLO's collectives (``TypeInference.cpp``: ``verifyReplicaGroups``,
``verifyAllGatherOp``, ``verifyAllReduceOp``, ``verifyReduceScatterOp``, ``inferAllToAllOp``,
``verifyCollectiveBroadcastOp``, ``verifyCollectiveReduceOp``, ``verifyCollectivePermuteOp``; the
ODS constraints of their integer attributes and the ``PairwiseSameOperandAndResultElementType``
trait), as ``verify(op, ctx) -> Failure | None`` functions for the ops' declarations.

Replica groups written as ``#stablehlo.replica_group_mesh_axes<...>`` are not dense groups: the
group checks skip them, as the C++ does.
"""
from __future__ import annotations

import re

from shardy_py.dialects.stablehlo_verify_common import (
    check_inferred,
    dims_compatible,
    element,
    int_prop,
    op_fail,
    shape,
)
from shardy_py.dialects.stablehlo_verify_regions import verify_reducer
from shardy_py.dialects.stablehlo_verify_types import (
    block_known,
    clean_when_seen_with_regions,
    dense_ints,
    entry_block,
    is_ranked,
    known,
    nearest_symbol,
    q,
    rank,
    scalar_tensor,
    terminator_types,
)
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.types import DYNAMIC, RankedTensorType

_HANDLE = re.compile(r"handle\s*=\s*(-?\d+)")


def channel_id(op) -> int:
    """The ``handle`` of the op's ``channel_handle`` (0 without one)."""
    attr = op.properties.get("channel_handle")
    m = _HANDLE.search(str(attr)) if attr is not None else None
    return int(m.group(1)) if m else 0


def _flag(op, name: str) -> bool:
    """A ``UnitAttr`` (or a bool attribute) that is set."""
    attr = op.properties.get(name)
    return attr is not None and str(attr).strip() != "false"


def verify_int_attrs(op, positive=(), non_negative=()) -> Failure | None:
    """ODS ``ConfinedAttr<I64Attr, [IntPositive / IntNonNegative]>``."""
    for name, ok, what in [*((n, lambda v: v >= 0, "non-negative") for n in non_negative),
                           *((n, lambda v: v > 0, "positive") for n in positive)]:
        v = int_prop(op, name)
        if v is not None and not ok(v):
            return fail(f"'{op.name}' op attribute '{name}' failed to satisfy constraint: 64-bit signless integer "
                        f"attribute whose value is {what}")
    return None


def verify_pairwise_element_types(op) -> Failure | None:
    """``PairwiseSameOperandAndResultElementType``."""
    if len(op.operands) != len(op.results):
        return fail(f"'{op.name}' op requires the same number of operands and results")
    for i, (v, r) in enumerate(zip(op.operands, op.results, strict=True)):
        if element(v.type).text != element(r.type).text:
            return fail(f"'{op.name}' op requires the same element type for operand and result at index {i}")
    return None


def verify_replica_groups(op, same_size: bool, use_global_device_ids: bool,
                          expected_group_size: int | None = None) -> Failure | None:
    """``verifyReplicaGroups``: a rank-2 group table, each id once (-1 pads non-uniform groups when
    allowed), the ids 0..n-1 all present, and the expected group size."""
    dense = dense_ints(op.properties.get("replica_groups"))
    if dense is None:
        return None
    s, ids = dense
    if len(s) != 2:
        return fail("replica groups should be a rank 2 tensor")
    if use_global_device_ids and s[0] * s[1] == 0:
        return fail("if `use_global_device_ids` is set, the replica groups cannot be empty")
    seen = set()
    for i in ids:
        if i == -1:
            if not same_size:
                continue
            return fail("Invalid replica id -1")
        if i in seen:
            return fail(f"replica id #{i} seen more than once")
        seen.add(i)
    for i in range(len(seen)):
        if i not in seen:
            return fail(f"replica id #{i} not seen in replica groups")
    if same_size and expected_group_size is not None and (s[0] == 0 or len(ids) // s[0] != expected_group_size):
        return fail(f"group size of replica_groups must be {expected_group_size}")
    return None


def _reducer_per_operand(block, operand_types) -> Failure | None:
    for t in operand_types:
        f = verify_reducer(block, [t], [scalar_tensor(element(t))], [])
        if f is not None:
            return f
    return None


_MESH_SYMBOL = re.compile(r"#stablehlo\.replica_group_mesh_axes<\s*mesh\s*=\s*@([\w.$-]+|\"[^\"]*\")")


def verify_mesh_symbol(op, ctx) -> Failure | None:
    """``ReplicaGroupMeshAxesAttr::verifySymbolUses``: the mesh of mesh-axes replica groups exists."""
    m = _MESH_SYMBOL.match(str(op.properties_view.get("replica_groups") or ""))
    if m is None:
        return None
    name = m.group(1).strip('"')
    if nearest_symbol(op, name) is None:
        return op_fail(op, f"replica_groups: mesh symbol '{name}' not found")
    return None


@clean_when_seen_with_regions
def verify_all_gather(op, ctx) -> Failure | None:
    """``AllGatherOp::verify`` (``verifyAllGatherOp``) after its ODS constraints and traits."""
    if not known(op):
        return None
    f = verify_int_attrs(op, non_negative=("all_gather_dim",)) or verify_pairwise_element_types(op)
    if f is not None:
        return f
    f = verify_mesh_symbol(op, ctx)
    if f is not None:
        return f
    use_global = _flag(op, "use_global_device_ids")
    f = verify_replica_groups(op, True, use_global)
    if f is not None:
        return f
    if use_global and channel_id(op) < 0:
        return fail("channel_id cannot be negative when useGlobalDeviceIds is set")
    dim = int_prop(op, "all_gather_dim")
    if dim is None:
        return None
    for v, r in zip(op.operands, op.results, strict=True):
        a, b = v.type, r.type
        if not (is_ranked(a) and is_ranked(b)):
            continue
        if dim >= rank(a):
            return fail("all_gather_dim must be a valid index of operand")
        if shape(a)[dim] == 0:
            return fail("dimension size of operand at 'all_gather_dim' cannot be zero")
        if rank(a) != rank(b):
            return fail("operand and result must have the same rank")
        for i in range(rank(a)):
            if i != dim and not dims_compatible(shape(b)[i], shape(a)[i]):
                return fail("operand and result should have the same shape except for the dimension size at "
                            "'all_gather_dim'")
        if shape(a)[dim] == DYNAMIC or shape(b)[dim] == DYNAMIC:
            return None
        if shape(b)[dim] % shape(a)[dim]:
            return fail(f"result gather dimension has size {shape(b)[dim]}, expected to be a multiple of operand "
                        f"gather dimension size {shape(a)[dim]}")
    return None


def _computation(op):
    block = entry_block(op.regions[0]) if op.regions else None
    return block if block is not None and block_known(block) else None


def _groups_and_channel(op) -> Failure | None:
    """The replica groups (non-uniform allowed) and channel id of all_reduce and collective_reduce."""
    use_global = _flag(op, "use_global_device_ids")
    f = verify_replica_groups(op, False, use_global) or verify_mesh_symbol(op, None)
    if f is None and use_global and channel_id(op) <= 0:
        return fail(f"channel_id must be positive when useGlobalDeviceIds is set but got: {channel_id(op)}")
    return f


def _reduction_results(op, data) -> Failure | None:
    """The computation applied to each data operand, and the results inferred from its accumulator."""
    block = _computation(op)
    if block is None:
        return None
    f = _reducer_per_operand(block, data)
    if f is not None:
        return f
    acc = terminator_types(block)[0]
    return check_inferred(op, [_with_element(t, acc) for t in data])


@clean_when_seen_with_regions
def verify_all_reduce(op, ctx) -> Failure | None:
    """``AllReduceOp::verify`` (``verifyAllReduceOp``) and ``inferAllReduceOp``."""
    if not known(op):
        return None
    return _groups_and_channel(op) or _reduction_results(op, [v.type for v in op.operands])


def _with_element(t, like):
    """``getSameShapeTensorType``: ``t``'s shape with the element type of ``like``."""
    if is_ranked(t):
        return RankedTensorType.get(shape(t), element(like), t.encoding)
    return t


@clean_when_seen_with_regions
def verify_reduce_scatter(op, ctx) -> Failure | None:
    """``ReduceScatterOp::verify`` (``verifyReduceScatterOp``) after its ODS constraints."""
    if not known(op) or len(op.operands) != 1 or len(op.results) != 1:
        return None
    f = verify_int_attrs(op, non_negative=("scatter_dimension",)) or verify_mesh_symbol(op, ctx)
    if f is not None:
        return f
    use_global = _flag(op, "use_global_device_ids")
    f = verify_replica_groups(op, True, use_global)
    if f is not None:
        return f
    block = _computation(op)
    a, b = op.operands[0].type, op.results[0].type
    if block is None or not (is_ranked(a) and is_ranked(b)):
        return None
    f = _reducer_per_operand(block, [a])
    if f is not None:
        return f
    if rank(a) != rank(b):
        return fail("operand and result should have same rank")
    dim = int_prop(op, "scatter_dimension")
    if dim is None:
        return None
    if dim >= rank(a):
        return fail("scatter dim should be less than operand/result rank")
    if use_global and channel_id(op) <= 0:
        return fail(f"channel_id must be positive when useGlobalDeviceIds is set but got: {channel_id(op)}")
    sa, sb = shape(a), shape(b)
    if sa[dim] == DYNAMIC or sb[dim] == DYNAMIC:
        return None
    if sb[dim] == 0:
        return fail("result dimension size at scatter_dimension cannot be zero")
    if sa[dim] == 0:
        return fail("operand dimension size at scatter_dimension cannot be zero")
    if sa[dim] % sb[dim]:
        return fail(f"operand scatter dimension has size {sa[dim]}, expected to be a multiple of result scatter "
                    f"dimension size {sb[dim]}")
    for i in range(rank(a)):
        if i != dim and not dims_compatible(sa[i], sb[i]):
            return fail(f"non scatter dimensions should be same for operand ({sa[i]}) and result ({sb[i]})")
    acc = element(terminator_types(block)[0])
    if element(b).text != acc.text:
        return fail(f"result element-type is expected to be {q(acc)}, but got {q(element(b))}")
    return None


@clean_when_seen_with_regions
def verify_all_to_all(op, ctx) -> Failure | None:
    """``AllToAllOp``: its ODS constraints and traits, then ``inferAllToAllOp``."""
    if not known(op):
        return None
    f = verify_int_attrs(op, non_negative=("split_dimension", "concat_dimension"), positive=("split_count",)) \
        or verify_pairwise_element_types(op)
    if f is not None:
        return f
    split = int_prop(op, "split_dimension")
    concat = int_prop(op, "concat_dimension")
    count = int_prop(op, "split_count")
    if split is None or concat is None or count is None:
        return None
    f = verify_replica_groups(op, True, False, count) or verify_mesh_symbol(op, ctx)
    if f is not None:
        return f
    inferred = []
    for v in op.operands:
        t = v.type
        if not is_ranked(t):
            return None
        r = rank(t)
        if split >= r:
            return fail(f"AllToAll split_dimension {split} is out-of-bounds for input rank {r}")
        if concat >= r:
            return fail(f"AllToAll concat_dimension {concat} is out-of-bounds for input rank {r}")
        s = list(shape(t))
        if s[split] != DYNAMIC and s[split] % count:
            return fail(f"split dimension has size {s[split]}, expected to be a multiple of split_count {count}")
        if s[split] != DYNAMIC:
            s[split] //= count
        if s[concat] != DYNAMIC:
            s[concat] *= count
        inferred.append(RankedTensorType.get(s, element(t)))
    return check_inferred(op, inferred)


def _dynamic_root(op, what: str, operands) -> Failure | None:
    """The root operand of a ``has_dynamic_root`` collective: a rank-1 i32 tensor, one per data operand."""
    if not _flag(op, "has_dynamic_root"):
        if not operands:
            return fail(f"{what} requires at least one data operand")
        return None
    if len(operands) < 2:
        return fail(f"{what} with has_dynamic_root=true requires at least two operands (data + root)")
    root = operands[-1]
    if not (root.is_shaped and element(root).text == "i32" and rank(root) == 1):
        return fail(f"last operand of {what} with has_dynamic_root=true must be a rank-1 i32 tensor, but got {q(root)}")
    if shape(root)[0] != len(operands) - 1:
        return fail(f"last operand of {what} with has_dynamic_root=true must have the same number of elements as "
                    f"data operands ({len(operands) - 1}), but got {shape(root)[0]}")
    return None


@clean_when_seen_with_regions
def verify_collective_broadcast(op, ctx) -> Failure | None:
    """``CollectiveBroadcastOp::verify`` (``verifyCollectiveBroadcastOp``)."""
    if not known(op):
        return None
    f = verify_mesh_symbol(op, ctx)
    if f is not None:
        return f
    dense = dense_ints(op.properties.get("replica_groups"))
    if dense is not None:
        s, ids = dense
        if len(s) != 2:
            return fail(f"replica groups should be a rank 2 tensor,but instead it is of rank {len(s)}")
        seen = set()
        for i in ids:
            if i < 0:
                return fail(f"replica_groups values must be positive, but was given {i}")
            if i in seen:
                return fail(f"replica id #{i} seen more than once")
            seen.add(i)
    operands = [v.type for v in op.operands]
    f = _dynamic_root(op, "collective_broadcast", operands)
    if f is not None:
        return f
    data = operands[:-1] if _flag(op, "has_dynamic_root") else operands
    return check_inferred(op, data)


@clean_when_seen_with_regions
def verify_collective_reduce(op, ctx) -> Failure | None:
    """``CollectiveReduceOp::verify`` (``verifyCollectiveReduceOp``) and ``inferCollectiveReduceOp``."""
    if not known(op):
        return None
    operands = [v.type for v in op.operands]
    f = _groups_and_channel(op) or _dynamic_root(op, "collective_reduce", operands)
    if f is not None:
        return f
    return _reduction_results(op, operands[:-1] if _flag(op, "has_dynamic_root") else operands)


@clean_when_seen_with_regions
def verify_collective_permute(op, ctx) -> Failure | None:
    """``CollectivePermuteOp::verify`` (``verifyCollectivePermuteOp``) after ``SameOperandsAndResultElementType``."""
    if not known(op):
        return None
    types = [v.type for v in op.operands] + [r.type for r in op.results]
    if types and any(element(t).text != element(types[0]).text for t in types):
        return fail("'stablehlo.collective_permute' op requires the same element type for all operands and results")
    dense = dense_ints(op.properties.get("source_target_pairs"))
    if dense is None:
        return None
    s, vals = dense
    if len(s) != 2:
        return fail(f"expect source_target_pairs attribute to be of rank 2, but got rank {len(s)}")
    if s[1] != 2:
        return fail(f"expect source_target_pairs attribute of shape (N, 2), but got ({s[0]}, {s[1]})")
    sources, targets = set(), set()
    for i, v in enumerate(vals):
        if v < 0:
            return fail("replica ids in source_target_pairs must be >= 0.")
        seen = targets if i % 2 else sources
        if v in seen:
            return fail(f"duplicate {'targets' if i % 2 else 'sources'} not allowed.")
        seen.add(v)
    return check_inferred(op, [v.type for v in op.operands])
