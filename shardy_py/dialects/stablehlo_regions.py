"""StableHLO's ops with regions, and those with dimension-number syntax (``StablehloOps.td``).

``while`` and ``reduce`` have hand-written syntax and ``convolution`` an assembly format with
custom directives (``dialects.stablehlo_region_directives``, ``dialects.stablehlo_conv_directives``);
the others have no assembly format, so MLIR prints them in generic form and their declaration
lists their parts only (which is all the generic form needs).
"""
from __future__ import annotations

from shardy_py.dialects import stablehlo_conv_directives  # noqa: F401  (registers the directives)
from shardy_py.dialects import stablehlo_verify_conv as conv
from shardy_py.dialects import stablehlo_verify_gather_scatter as gather_scatter
from shardy_py.dialects.attr_codecs import I64Array
from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.dialects.stablehlo_region_directives import parse_reduce, parse_while, print_reduce, print_while
from shardy_py.dialects.stablehlo_verify_regions import (
    verify_case,
    verify_if,
    verify_map,
    verify_reduce,
    verify_sort,
    verify_while,
)
from shardy_py.dialects.stablehlo_verify_windows import verify_reduce_window, verify_select_and_scatter
from shardy_py.ir import attrs as A

_IMPLICIT_RETURN = "SingleBlockImplicitTerminator"


def _opt(name: str) -> AttrDef:
    return AttrDef(name, optional=True)


def _defaulted(name: str, default: str) -> AttrDef:
    """A ``DefaultValuedOptionalAttr``: absent unless written; ``default`` stands for it."""
    return AttrDef(name, optional=True, default=A.OpaqueAttr(default))


declare("stablehlo.return", operands=("results*",), format="$results attr-dict (`:` type($results)^)?")

declare("stablehlo.while", operands=("operand*",), results=("results*",), regions=("cond", "body"),
        parse=parse_while, print=print_while, traits=(_IMPLICIT_RETURN,), verify=verify_while)
declare("stablehlo.if", operands=("pred",), results=("results*",), regions=("true_branch", "false_branch"),
        traits=(_IMPLICIT_RETURN,), verify_regions=verify_if)
declare("stablehlo.case", operands=("index",), results=("results*",), regions=("branches*",),
        traits=(_IMPLICIT_RETURN,), verify_regions=verify_case)

declare("stablehlo.reduce", operands=("inputs*", "init_values*"),
        attributes=(AttrDef("dimensions", codec=I64Array),), results=("results*",), regions=("body",),
        parse=parse_reduce, print=print_reduce, traits=("SameVariadicOperandSize", _IMPLICIT_RETURN),
        verify=verify_reduce)
declare("stablehlo.reduce_window", operands=("inputs*", "init_values*"),
        attributes=(AttrDef("window_dimensions"), _opt("window_strides"), _opt("base_dilations"),
                    _opt("window_dilations"), _opt("padding")),
        results=("results*",), regions=("body",), traits=("SameVariadicOperandSize", _IMPLICIT_RETURN),
        verify=verify_reduce_window)
declare("stablehlo.select_and_scatter", operands=("operand", "source", "init_value"),
        attributes=(_opt("window_dimensions"), _opt("window_strides"), _opt("padding")),
        results=("result",), regions=("select", "scatter"), verify=verify_select_and_scatter)
declare("stablehlo.map", operands=("inputs*",), attributes=(AttrDef("dimensions"),), results=("result",),
        regions=("computation",), traits=(_IMPLICIT_RETURN,), verify_regions=verify_map)
declare("stablehlo.sort", operands=("inputs*",),
        attributes=(_defaulted("dimension", "-1 : i64"), _defaulted("is_stable", "false")),
        results=("results*",), regions=("comparator",), verify=verify_sort)

declare("stablehlo.scatter", operands=("inputs*", "scatter_indices", "updates*"),
        attributes=(AttrDef("scatter_dimension_numbers"), _defaulted("indices_are_sorted", "false"),
                    _defaulted("unique_indices", "false")),
        results=("results*",), regions=("update_computation",), traits=("SameVariadicOperandSize",),
        verify=gather_scatter.verify_scatter)
declare("stablehlo.gather", operands=("operand", "start_indices"),
        attributes=(AttrDef("dimension_numbers"), AttrDef("slice_sizes"), _defaulted("indices_are_sorted", "false")),
        results=("result",), verify=gather_scatter.verify_gather)
declare("stablehlo.dynamic_gather", operands=("operand", "start_indices", "slice_sizes"),
        attributes=(AttrDef("dimension_numbers"), _defaulted("indices_are_sorted", "false")), results=("result",),
        verify=gather_scatter.verify_dynamic_gather)

_CONV_WINDOW = ("window_strides", "lhs_dilation", "rhs_dilation", "window_reversal")
_CONV_REST = (AttrDef("dimension_numbers"), AttrDef("feature_group_count"), AttrDef("batch_group_count"),
              _opt("precision_config"))

declare("stablehlo.convolution", operands=("lhs", "rhs"),
        attributes=(_opt("window_strides"), _opt("padding"), *(_opt(n) for n in _CONV_WINDOW[1:]), *_CONV_REST),
        results=("result",),
        format="`(`operands`)` `dim_numbers` `=` custom<ConvolutionDimensions>($dimension_numbers) `,` "
               "`window` `=` `{` custom<WindowAttributes>($window_strides, $padding, $lhs_dilation, "
               "$rhs_dilation, $window_reversal) `}` attr-dict `:` functional-type(operands, results)",
        verify=conv.verify_convolution)
declare("stablehlo.dynamic_conv", operands=("lhs", "rhs", "padding"),
        attributes=(*(_opt(n) for n in _CONV_WINDOW), *_CONV_REST), results=("result",),
        verify=conv.verify_dynamic_conv)
