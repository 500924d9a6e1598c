"""``-sdy-constant-or-scalar-splitter`` (import/constant_or_scalar_splitter.cc): turn every
``stablehlo.constant`` into an ``sdy.constant``, then give every non-constant user of a constant
sub-computation (constants, iotas and the pure broadcasts, reshapes, slices, elementwise ops, named
computations and calls over them) or of a broadcast of a scalar its own copy of it, and erase the
originals left without users (but sharding groups, which are copied along and erased with them)."""
from __future__ import annotations

from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import clone, erase, insert_before, replace_op_with
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.ir.types import RankedTensorType
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes.func_calls import (
    SymbolTable,
    callee_of,
    clone_func_recursively,
    funcs_in_call_graph_order,
    original_func_name,
    set_callee,
)
from shardy_py.passes.op_traits import is_elementwise, is_pure
from shardy_py.passes.registry import Pass, register

CONSTANT_PRESERVING_SHAPE_OPS = ("stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.slice")
TERMINATORS = frozenset({"func.return", "sdy.return", "stablehlo.return"})


def to_sdy_constant(op: Operation) -> Value:
    """Replace ``stablehlo.constant`` ``op`` by an ``sdy.constant`` with its value and attributes;
    return the new constant's result."""
    value = op.properties["value"]
    result_type = op.results[0].type
    suffix = f" : {result_type}"
    text = getattr(value, "text", None)
    if text is not None and text.endswith(suffix):
        value = type(value)(text[: -len(suffix)])
    new = Builder().create("sdy.constant", [], result_types=[result_type], properties={"value": value},
                           attributes=dict(sorted(op.attributes.items())), loc=op.loc)
    replace_op_with(op, new)  # the uses move in MLIR's use-list order (see Value.replace_all_uses_with)
    return new.results[0]


def is_scalar(value: Value) -> bool:
    """``isScalar``: a ranked tensor of rank 0."""
    return isinstance(value.type, RankedTensorType) and value.type.rank == 0


class Splitter:
    """The state of one pass run: the symbol table and the named computations and functions
    (by name) found not constant-preserving so far."""

    def __init__(self, module):
        self.table = SymbolTable(module)
        self.non_const_named: set[str] = set()
        self.non_const_funcs: set[str] = set()
        #: Whether the pass changed the module (a copy made, an original erased).
        self.changed = False

    def is_constant_preserving(self, op: Operation) -> bool:
        """Pure broadcasts, reshapes, slices and elementwise ops; named computations and calls not
        found non-constant."""
        if op.name == "func.call":
            return original_func_name(self.table.lookup_func(callee_of(op))) not in self.non_const_funcs
        if op.name == "sdy.named_computation":
            return op.properties["name"] not in self.non_const_named
        if not is_pure(op):
            return False
        return op.name in CONSTANT_PRESERVING_SHAPE_OPS or is_elementwise(op)

    def is_constant_expression(self, op: Operation, constants: dict[Operation, None]) -> bool:
        if op.name in ("sdy.constant", "stablehlo.iota"):
            return True
        return self.is_constant_preserving(op) and all(
            not isinstance(v.owner, Block) and v.owner in constants for v in op.operands)

    def clone_into(self, result: Value, mapping: dict[Value, Value]) -> None:
        """Clone the sub-computation of ``result`` (scalars excepted) right before each op."""
        if is_scalar(result) or result in mapping:
            return
        op = result.owner
        for operand in op.operands:
            if not isinstance(operand.owner, Block):
                self.clone_into(operand, mapping)
        copy = insert_before(op, clone(op, mapping))
        if copy.name == "func.call":
            callee = self.table.lookup_func(callee_of(copy))
            set_callee(copy, self.table.insert(clone_func_recursively(callee, self.table)))
        for use in reversed(result.uses):  # MLIR's use-list order (see ``Value.replace_all_uses_with``)
            if use.op.name == "sdy.sharding_group":
                insert_before(op, clone(use.op, mapping))

    def clone_sub_computation(self, result: Value) -> Value:
        if is_scalar(result):
            return result
        mapping: dict[Value, Value] = {}
        self.clone_into(result, mapping)
        return mapping[result]

    def process(self, op: Operation, func: Operation, constants: dict, expansions: dict) -> None:
        """``processOp`` (``isConstantExpression`` inlined: whether ``op`` is constant-preserving is
        asked once)."""
        name = op.name
        if name in ("func.func", "sdy.sharding_group"):
            return
        if name in ("sdy.constant", "stablehlo.iota"):
            constants[op] = None
            return
        operands = op.operands
        preserving = self.is_constant_preserving(op)
        if preserving and all(not isinstance(v.owner, Block) and v.owner in constants for v in operands):
            constants[op] = None
            return
        if not preserving and name not in TERMINATORS:
            named = op.parent_op
            while named is not None and named.name != "sdy.named_computation":
                named = named.parent_op
            if named is not None:
                self.non_const_named.add(named.properties["name"])
            self.non_const_funcs.add(original_func_name(func))
        if name == "stablehlo.broadcast_in_dim" and is_scalar(operands[0]):
            expansions[op] = None
            return
        if not constants and not expansions:
            return
        for index, operand in enumerate(operands):
            owner = operand.owner
            if not isinstance(owner, Block) and (owner in constants or owner in expansions):
                op.set_operand(index, self.clone_sub_computation(operand))
                self.changed = True

    def walk_region(self, ops: list[Operation], func: Operation) -> None:
        """``walkOnRegion`` over ``ops`` (the region's ops in pre-order, named computation bodies
        left out), then erase the originals left with sharding-group users only."""
        constants: dict[Operation, None] = {}
        expansions: dict[Operation, None] = {}
        for op in ops:
            self.process(op, func, constants, expansions)
        for op in list(expansions) + list(reversed(constants)):
            users = [u.op for r in op.results for u in r.uses]
            if all(user.name == "sdy.sharding_group" for user in users):
                for user in dict.fromkeys(users):
                    erase(user)
                erase(op)
                self.changed = True


def region_ops(region) -> list[Operation]:
    """The ops of ``region`` in pre-order, not entering named computations."""
    out: list[Operation] = []

    def visit(op: Operation) -> None:
        out.append(op)
        if op.name == "sdy.named_computation":
            return
        for inner in op.regions:
            for block in inner.blocks:
                for nested in block.ops:
                    visit(nested)

    for block in region.blocks:
        for op in block.ops:
            visit(op)
    return out


def named_computations_post_order(func: Operation) -> list[Operation]:
    """The named computations under ``func``, inner ones first (MLIR's post-order walk)."""
    return [op for op in walk_post_order(func) if op.name == "sdy.named_computation"]


@register
class ConstantOrScalarSplitterPass(Pass):
    name = "sdy-constant-or-scalar-splitter"
    summary = "Splits constant and scalar expansions so each has a single use."

    def run(self, module, ctx) -> None:
        """Convert the constants, then split per function, callees first."""
        constants = [op for op in module.walk() if op.name == "stablehlo.constant"]
        converted = [to_sdy_constant(op) for op in constants]
        splitter = Splitter(module)
        for func in funcs_in_call_graph_order(module):
            for named in named_computations_post_order(func):
                splitter.walk_region(region_ops(named.regions[0]), func)
            splitter.walk_region(region_ops(func.regions[0]), func)
        if not converted and not splitter.changed:
            ctx.mark_all_preserved()
