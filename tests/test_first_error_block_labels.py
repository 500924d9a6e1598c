"""A block label cut short, or opening a region whose arguments are named, fails where MLIR's parser first
fails (issue 26, ``scanner.scan_label``, ``salvage``).

MLIR reads a label token by token (``OperationParser::parseBlock``): at a region whose arguments the op's
syntax names, the label's '^' is already the error ("invalid block name in region with named arguments"),
whatever follows it; else its name, its argument list, then the ':' ("expected ':' after block name", after the
text before the wrong token).  The salvage parse read a label without its ':' on into the next lines (an
argument's missing ':' lines below, a ')' the next op lacks) and built the label before the '^' was judged.
Each case is a cut line or a swapped line of the differential run's kind, reduced; the messages, lines and
columns are jaxlib 0.12's, and the last test asks jaxlib itself.
"""
from __future__ import annotations

import pytest
from first_error_helpers import case_table_tests, jaxlib_first_error, our_first_error

import shardy_py

#: A reduce whose body's label is ``{label}``, on a line of its own before the body's ops.
_REDUCE = ('func.func @f(%a: tensor<4xf32>) -> tensor<f32> {{\n  %c = stablehlo.constant dense<0.0> : tensor<f32>\n'
           '  %0 = "stablehlo.reduce"(%a, %c) ({{\n  {label}\n'
           '    %1 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
           '    "stablehlo.return"(%1) : (tensor<f32>) -> ()\n'
           "  }}) {{dimensions = array<i64: 0>}} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
           "  return %0 : tensor<f32>\n}}\n")

#: name -> (text, jaxlib 0.12's line, column and message, which are ours too).
CASES = {
    "label_arguments_without_the_colon_after_them": (
        _REDUCE.format(label="^bb0(%arg2: tensor<f32>, %arg3: tensor<f32> )"), 4, 48, "expected ':' after block name"),
    "label_cut_after_its_name": (_REDUCE.format(label="^bb"), 4, 6, "expected ':' after block name"),
    "label_argument_without_its_colon_before_the_missing_colon": (
        _REDUCE.format(label="^bb0(%arg2 tensor<f32>, %arg3: tensor<f32>)"), 4, 13,
        "expected ':' and type for SSA operand"),
    "label_of_a_function_body_whose_arguments_run_into_an_op": (
        "func.func @f(%a: tensor<4xf32>,\n"
        "             %b: tensor<4xf32>) -> tensor<f32> {\n"
        "       ^bb0(%a0: tensor<f32>, %a1: tensor<i32>,\n"
        '  %0 = "stablehlo.reduce"(%a, %c) ({\n'
        "             %b0: tensor<f32>, %b1: tensor<i32>):\n"
        '    "stablehlo.return"(%b0) : (tensor<f32>) -> ()\n'
        "  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
        "  return %0 : tensor<f32>\n"
        "}",
        3, 8, "invalid block name in region with named arguments"),
    "label_of_a_function_body_cut_after_an_argument": (
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  ^bb0(%x: tensor<4xf32>\n"
        "  return %a : tensor<4xf32>\n"
        "}\n",
        2, 3, "invalid block name in region with named arguments"),
}


(test_first_error_is_where_mlir_stops, test_fast_paths_off_give_the_same_first_error,
 test_jaxlib_stops_at_the_same_place) = case_table_tests(CASES)


# -- text before an argument's name (the 30-minute atheris run: `^bb(0r1g%a: ...)` was read as `^bb(%a: ...)`,
#    the junk dropped; jaxlib 0.12: "expected SSA operand" just after the '(' or ',')
_JUNK_LABEL = ('func.func @f(%arg0: tensor<f32>) -> tensor<f32> {{\n  %0 = "foo.op"(%arg0) ({{\n  ^bb0({args}):\n'
               '    "foo.ret"(%a) : (tensor<f32>) -> ()\n  }}) : (tensor<f32>) -> tensor<f32>\n'
               '  return %0 : tensor<f32>\n}}\n')


@pytest.mark.parametrize(("args", "column"), [("0r1g%a: tensor<f32>", 8),
                                               ("%a: tensor<f32>, x %b: tensor<f32>", 24)])
def test_text_before_a_label_argument_is_no_argument(args: str, column: int) -> None:
    text = _JUNK_LABEL.format(args=args)
    assert our_first_error(text) == (3, column, "expected SSA operand")
    assert our_first_error(text, fast_paths=False) == (3, column, "expected SSA operand")
    assert jaxlib_first_error(text) == (3, column, "expected SSA operand")


def test_label_arguments_across_lines_with_locations_are_read() -> None:
    text = _JUNK_LABEL.format(args='%a: tensor<f32> loc("x"),\n       %b: tensor<f32>')
    assert shardy_py.verify(shardy_py.parse(text)) == []


def test_a_block_name_defined_twice_in_a_region_is_a_redefinition() -> None:
    """The 100k differential's stablehlo_select_and_scatter.mlir cut (two regions run into one): MLIR's parser
    meets the second '^bb0' of the region (it was accepted, two blocks of one name)."""
    text = ('func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n  %0 = "foo.op"(%arg0) ({\n'
            '  ^bb0(%a: tensor<f32>):\n    "foo.ret"(%a) : (tensor<f32>) -> ()\n'
            '  ^bb0(%b: tensor<f32>):\n    "foo.ret"(%b) : (tensor<f32>) -> ()\n'
            '  }) : (tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n')
    expected = (5, 3, "redefinition of block '^bb0'")
    assert our_first_error(text) == expected
    assert our_first_error(text, fast_paths=False) == expected
    assert jaxlib_first_error(text) == expected


def test_the_same_block_name_in_two_regions_is_no_redefinition() -> None:
    text = ('func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n  %0 = "foo.op"(%arg0) ({\n'
            '  ^bb0(%a: tensor<f32>):\n    "foo.ret"(%a) : (tensor<f32>) -> ()\n  }, {\n'
            '  ^bb0(%b: tensor<f32>):\n    "foo.ret"(%b) : (tensor<f32>) -> ()\n'
            '  }) : (tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n')
    assert shardy_py.verify(shardy_py.parse(text)) == []
