"""The ``sdy.reshard`` canonicalization patterns (ir/canonicalization.cc and canonicalization.td):

* ``ReshardOfReshardPattern`` (label ``sdy-reshard``): ``reshard(reshard(x, a), b)`` becomes
  ``reshard(x, b)`` when the inner reshard has one use;
* ``ReshardCommonSubexpressionEliminationPattern`` (no label): a reshard is replaced by an earlier
  reshard of the same data that already gives it.  From the reshard's input, ``stablehlo.reshape`` /
  ``transpose`` ops are followed up to the *root*; the reshard's sharding is carried back through
  the transposes (and rank-keeping reshapes) on the way.  Then, from the root and down through
  reshapes only (never transposes), an ``sdy.reshard`` other than this one, earlier in the same
  block, whose sharding places the data as the carried-back sharding does on this reshard's type
  (``isShardingEquivalentAcrossReshapes``) is the cached result; users are visited newest use first,
  as MLIR's use lists hold them.  The cached result is reshaped to the root's type right after it
  when the types differ, the reshapes and transposes between the root and this reshard are cloned
  onto it (each right after its input), and the last one replaces the reshard.
"""
from __future__ import annotations

from shardy_py.ir.attrs import TensorShardingAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import index_in_block
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.passes.export.canonicalization_collectives import defining
from shardy_py.passes.export.canonicalization_patterns import RESHARD_LABEL, CanonicalizationPattern
from shardy_py.passes.export.sharding_across_reshapes import is_sharding_equivalent_across_reshapes
from shardy_py.passes.pattern_driver import PatternRewriter
from shardy_py.rules.props import ints_prop

_METADATA_OPS = frozenset({"stablehlo.reshape", "stablehlo.transpose"})


def reshard_of_reshard(op: Operation, rw: PatternRewriter) -> bool:
    """``reshard(reshard(x, a), b)`` -> ``reshard(x, b)`` when the inner reshard has one use."""
    inner = defining(op.operands[0], "sdy.reshard")
    if inner is None or len(inner.results[0].uses) != 1:
        return False
    new = rw.create_before(op, "sdy.reshard", inner.operands[0], {"sharding": op.properties["sharding"]})
    rw.replace_op(op, [new.results[0]])
    return True


def _metadata_owner(value: Value) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, Operation) and owner.name in _METADATA_OPS else None


def unwrap_metadata_ops(value: Value) -> Value:
    """``unwrapMetadataOp``: up through reshapes and transposes to the data they come from."""
    while (op := _metadata_owner(value)) is not None:
        value = op.operands[0]
    return value


def target_sharding(sharding: TensorShardingAttr, value: Value) -> TensorShardingAttr:
    """``getTargetSharding``: ``sharding`` carried up through the transposes (and the reshapes that
    keep the rank) that make ``value``."""
    while (op := _metadata_owner(value)) is not None:
        if op.name == "stablehlo.transpose":
            permutation = ints_prop(op, "permutation")
            dims = list(sharding.dim_shardings)
            for result_dim, operand_dim in enumerate(permutation):
                dims[operand_dim] = sharding.dim_shardings[result_dim]
            sharding = TensorShardingAttr(sharding.mesh_or_ref, tuple(dims), sharding.replicated_axes,
                                          sharding.unreduced_axes)
        elif op.operands[0].type.rank != op.results[0].type.rank:
            break
        value = op.operands[0]
    return sharding


def _is_before(a: Operation, b: Operation) -> bool:
    return a.parent is b.parent and index_in_block(a) < index_in_block(b)


def find_compatible_reshard(root: Value, sharding: TensorShardingAttr, type_, block: Block, current: Operation,
                            mesh_of) -> Value | None:
    """``findCompatibleReshard``: an earlier reshard reachable from ``root`` through reshapes that gives
    ``sharding`` on ``type_`` (see the module docstring)."""
    worklist, visited = [root], set()
    while worklist:
        value = worklist.pop()
        if id(value) in visited:
            continue
        visited.add(id(value))
        for use in reversed(value.uses):
            user = use.op
            if user is current:
                continue
            if user.name == "sdy.reshard":
                if is_sharding_equivalent_across_reshapes(user.properties_view["sharding"], user.results[0].type,
                                                          sharding, type_, mesh_of) \
                        and user.parent is block and _is_before(user, current):
                    return user.results[0]
            elif user.name == "stablehlo.reshape":
                worklist.append(user.results[0])
    return None


def _after(value: Value) -> Builder:
    """``setInsertionPointAfterValue``."""
    if isinstance(value.owner, Block):
        return Builder(value.owner, 0)
    return Builder(value.owner.parent, index_in_block(value.owner) + 1)


def _clone_path(root: Value, target: Value, cached: Value, rw: PatternRewriter) -> Value:
    """``cloneTransformationPath``: the ops from ``root`` to ``target`` cloned onto ``cached``."""
    if target is root:
        return cached
    op = target.owner
    transformed = _clone_path(root, op.operands[0], cached, rw)
    clone = _after(transformed).create(op.name, [transformed], result_types=[op.results[0].type],
                                       properties=dict(op.properties), attributes=dict(op.attributes), loc=op.loc)
    clone.location_text = op.location_text
    rw.add_to_worklist(clone)
    return clone.results[0]


def reshard_common_subexpression_elimination(op: Operation, rw: PatternRewriter) -> bool:
    """``ReshardCommonSubexpressionEliminationPattern`` (module docstring)."""
    value = op.operands[0]
    root = unwrap_metadata_ops(value)
    sharding = target_sharding(op.properties_view["sharding"], value)
    cached = find_compatible_reshard(root, sharding, op.results[0].type, op.parent, op, rw.context["table"].mesh_of)
    if cached is None:
        return False
    if cached.type != root.type:
        reshape = _after(cached).create("stablehlo.reshape", [cached], result_types=[root.type], loc=op.loc)
        reshape.location_text = op.location_text
        rw.add_to_worklist(reshape)
        cached = reshape.results[0]
    rw.replace_op(op, [_clone_path(root, value, cached, rw)])
    return True


#: ``(registering op, pattern)`` as ``sdy.reshard`` adds them.
RESHARD_PATTERNS = (
    ("sdy.reshard", CanonicalizationPattern("ReshardCommonSubexpressionEliminationPattern", "sdy.reshard",
                                            reshard_common_subexpression_elimination, label=None)),
    ("sdy.reshard", CanonicalizationPattern("ReshardOfReshardPattern", "sdy.reshard", reshard_of_reshard, 2,
                                            RESHARD_LABEL)),
)
