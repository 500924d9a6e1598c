"""The type helpers of the verifiers: ``shardy_py.ir.typeutil`` (and ``value_name``, MLIR's name of a
value for messages, from ``shardy_py.syntax.names``)."""
from shardy_py.ir.typeutil import (
    has_static_shape,
    is_ranked,
    is_ranked_tensor,
    is_shaped,
    operand_types,
    same_type,
    shape_of,
    split_top_level,
    tuple_elements,
    type_str,
)
from shardy_py.syntax.names import value_name

__all__ = ["has_static_shape", "is_ranked", "is_ranked_tensor", "is_shaped", "operand_types", "same_type",
           "shape_of", "split_top_level", "tuple_elements", "type_str", "value_name"]
