"""Rules B34-B48, C8: ``sdy.sharding_rule`` (OpShardingRuleAttr) against the op's operands and results."""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.ir.attrs import OpShardingRuleAttr, TensorMappingAttr
from shardy_py.ir.ops import Operation
from shardy_py.ir.types import Type
from shardy_py.verify.diagnostics import Failure, fail
from shardy_py.verify.typeutil import has_static_shape, operand_types, shape_of, type_str


def factor_symbol(index: int) -> str:
    """``i``..``z`` for 0..17, then ``z_1``, ``z_2``, ..."""
    return chr(ord("i") + index) if 0 <= index <= 17 else f"z_{index - 17}"


def _verify_mappings(op: Operation, types: Sequence[Type | None], mappings: Sequence[TensorMappingAttr],
                     sizes: Sequence[int], used: set[int], kind: str) -> Failure | None:
    """B34/B35 counts, B37 static shapes, B38 ranks, B39-B42 per dim mapping."""
    pre = f"'{op.name}' op sdy.sharding_rule: "
    if len(types) != len(mappings):
        return fail(f"{pre}the op has {len(types)} {kind}(s) but the rule has {len(mappings)} {kind} mapping(s)")
    if not mappings:
        return fail(f"{pre}a sharding rule needs at least one {kind} mapping")
    n = len(sizes)
    for i, (t, m) in enumerate(zip(types, mappings, strict=False)):
        where = f"{pre}{kind} {i}" if len(types) > 1 else f"{pre}{kind}"
        if t is None:
            continue  # a type we could not read (an op we do not model): not ours to judge
        if not has_static_shape(t):
            return fail(f"{where} has type {type_str(t)}; a sharding rule needs ranked tensors with a static shape")
        shape = shape_of(t)
        if m.rank != len(shape):
            return fail(f"{where} mapping has rank {m.rank} but the tensor {type_str(t)} has rank {len(shape)}")
        mine: set[int] = set()
        for dim, dm in enumerate(m.dim_mappings):
            idx = dm.factor_indices
            if not idx:
                return fail(f"{where} dim {dim} maps to no factor; every dim mapping needs at least one factor")
            for f in idx:
                if not 0 <= f < n:
                    return fail(f"{where} dim {dim} uses factor index {f}, but the rule defines {n} factor(s) "
                                f"(valid indices 0..{n - 1})")
                if f in mine:
                    return fail(f"{where} uses factor {factor_symbol(f)} more than once; a factor may map to at "
                                "most one dim of a tensor")
                if sizes[f] == 1 and len(idx) > 1:
                    return fail(f"{where} dim {dim} combines several factors including {factor_symbol(f)} of size "
                                "1; size-1 factors must stand alone")
                mine.add(f)
                used.add(f)
    return None


def _special(op: Operation, n: int, kind: str, idx: Sequence[int]) -> Failure | None:
    """B44/B46: a special-factor list is sorted, unique and in range."""
    if not idx:
        return None
    pre = f"'{op.name}' op sdy.sharding_rule: {kind} factors"
    syms = ", ".join(factor_symbol(i) if 0 <= i < 10**6 else str(i) for i in idx)
    if list(idx) != sorted(idx):
        return fail(f"{pre} {{{syms}}} must be listed in increasing order")
    if len(set(idx)) != len(idx):
        return fail(f"{pre} {{{syms}}} list a factor more than once")
    if idx[0] < 0:
        return fail(f"{pre} contain a negative index {idx[0]}")
    if idx[-1] >= n:
        return fail(f"{pre} refer to factor index {idx[-1]}, but the rule defines only {n} factor(s)")
    return None


#: Verdicts by (op name, operand types, result types, rule): all the check reads.
_VERDICTS: dict[tuple, Failure | None] = {}


def verify_sharding_rule(op: Operation, rule: OpShardingRuleAttr) -> Failure | None:
    """B34-B47 in Shardy's order: operands, results, unused factors, special factor sets (memoised:
    a module's many ops of one shape share a rule)."""
    operands = operand_types(op)
    key = (op.name, tuple(operands), tuple(op.result_types), rule)
    try:
        return _VERDICTS[key]
    except KeyError:
        pass
    out = _VERDICTS[key] = _verify_sharding_rule(op, operands, rule)
    return out


def _verify_sharding_rule(op: Operation, operands: Sequence[Type | None], rule: OpShardingRuleAttr) -> Failure | None:
    sizes = rule.factor_sizes
    n = len(sizes)
    in_operands: set[int] = set()
    in_results: set[int] = set()
    f = _verify_mappings(op, operands, rule.operand_mappings, sizes, in_operands, "operand")
    if f:
        return f
    f = _verify_mappings(op, op.result_types, rule.result_mappings, sizes, in_results, "result")
    if f:
        return f
    for i in range(n):
        if i not in in_operands and i not in in_results:
            return fail(f"'{op.name}' op sdy.sharding_rule: factor {factor_symbol(i)}={sizes[i]} is not used by any "
                        "operand or result mapping")
    for kind, idx in (("reduction", rule.reduction_factors), ("need_replication", rule.need_replication_factors),
                      ("permutation", rule.permutation_factors)):
        f = _special(op, n, kind, idx)
        if f:
            return f
    groups = (rule.reduction_factors, rule.need_replication_factors, rule.permutation_factors)
    seen: set[int] = set()
    for g in groups:
        for i in g:
            if i in seen:
                return fail(f"'{op.name}' op sdy.sharding_rule: factor {factor_symbol(i)} is in more than one of the "
                            "reduction, need_replication and permutation sets")
            seen.add(i)
    f = _special(op, n, "blocked_propagation", rule.blocked_propagation_factors)
    if f:
        return f
    for i in rule.reduction_factors:
        if i in in_results:
            return fail(f"'{op.name}' op sdy.sharding_rule: reduction factor {factor_symbol(i)} appears in a result "
                        "mapping; reduction factors may only map operand dims")
    return None
