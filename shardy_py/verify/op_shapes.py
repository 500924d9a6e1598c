"""What the verification driver decides once per op name (``OpPlan``), and the keys by which ops of one
shape share a verdict: the parse recipe an unchanged op was built from (``unchanged_recipe``), or its name,
types, properties and constant operands (``op_key``)."""
from __future__ import annotations

from collections.abc import Mapping

from shardy_py.dialects.registry import OPS
from shardy_py.ir.ops import Operation
from shardy_py.verify import structure

#: Ops whose value some verifiers read through their results (``constant_ints``: a dynamic op's shape operand).
CONSTANT_OPS = frozenset({"stablehlo.constant", "arith.constant"})


def constant_value(v):
    """The ``value`` of the constant op that defines ``v`` (None when another op or a block argument does)."""
    owner = getattr(v, "owner", None)
    return owner.properties_view.get("value") if type(owner) is Operation and owner.name in CONSTANT_OPS else None


def op_key(op: Operation) -> tuple | None:
    """An op's name, operand (value and written) and result types, properties and the values of the constants
    among its operands; None when unhashable."""
    props = op.properties_view
    key = (op.name, tuple([v.type if v is not None else None for v in op.operands]), tuple(op.operand_types_view),
           tuple([r.type for r in op.results]), tuple(props.items()) if props else (),
           tuple([constant_value(v) for v in op.operands]))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def unchanged_recipe(op: Operation):
    """The recipe ``op`` was built from (``syntax.op_recipes``), when the op still holds its shared properties
    and written types and its values have those types; None otherwise.  Ops of one recipe read alike to their
    own checks."""
    recipe = op._deferred
    if recipe is None or op._property_map is not recipe.shared_props or op._attribute_map is not \
            recipe.shared_attributes or op.regions:
        return None
    types = op._operand_type_seq
    operands = op._operand_tuple
    if types is not recipe.shared_operand_types or len(types) != len(operands):
        return None
    # (index loops, not ``zip``: this runs for most ops of a big module, and a zip costs more than the loop)
    i = 0
    for v in operands:
        if v is None or v.type is not types[i]:
            return None  # (a value of another type object)
        owner = v.owner
        if owner.__class__ is Operation and owner.name in CONSTANT_OPS and \
                owner._property_map.get("value") is not None:
            return None  # (a constant's, which some verifiers read)
        i += 1
    result_types = recipe.result_types
    i = 0
    for r in op.results:
        if i < len(result_types) and r.type is not result_types[i]:
            return None
        i += 1
    return recipe


class OpPlan:
    """What the driver's ``_verify_op`` runs for the ops of one name, decided once per name and run."""

    __slots__ = ("decl", "rules", "terminator", "by_recipe", "by_key", "structural", "single_block", "sized_regions",
                 "verify_regions", "sdy_single_block")

    def __init__(self, name: str, op_rules: Mapping[str, list]) -> None:
        decl = self.decl = OPS.get(name)
        self.rules = op_rules.get(name)
        self.terminator = name in structure.TERMINATORS
        #: Ops of one recipe (``unchanged_recipe``) may share a verdict; ops of other shapes too (``op_key``).
        self.by_recipe = name not in op_rules and not self.terminator
        self.by_key = decl is not None and self.by_recipe
        self.structural = decl is not None and decl.as_attrs is None
        self.single_block = name in structure.SINGLE_BLOCK_OPS
        self.sdy_single_block = name in structure.SDY_SINGLE_BLOCK_OPS  # (no structural decl: checked alone)
        self.sized_regions = name in structure.SIZED_REGION_OPS
        self.verify_regions = decl is not None and decl.verify_regions is not None


__all__ = ["CONSTANT_OPS", "OpPlan", "constant_value", "op_key", "unchanged_recipe"]
