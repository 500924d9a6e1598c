"""sdy's computations (``sdy.manual_computation``, ``sdy.named_computation``) whose lines were swapped fail where
MLIR's parser first fails (issue 26).

Their format ends ``: functional-type(operands, results)``: ODS's parser resolves the operands against the
function type's inputs once the op is read, and a count that differs is a parse error at the operand list
("number of operands and types do not match"), before any verifier error of the module (a ``sdy.return`` that
is not last, a region argument reused).  A computation nested in another one closes first, so its error is
the first.  Each case is a small module of the differential run's kind, with jaxlib 0.12's line, column and
message; the last test asks jaxlib itself.
"""
from __future__ import annotations

import pytest
from first_error_helpers import jaxlib_first_error, our_first_error

_FUNC = "func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) {{\n{body}  return\n}}\n"
#: name -> (text, line, column, jaxlib 0.12's message, our message).
CASES = {
    "manual_computation_given_the_type_of_a_computation_without_operands": (
        _FUNC.format(body="  sdy.named_computation<\"a\">() () {\n    sdy.return\n"
                          "  sdy.manual_computation(%arg1) in_shardings=[] out_shardings=[] manual_axes={}"
                          " (%arg2: tensor<8xf32>) {\n  } : () -> ()\n    sdy.return\n"
                          "  } : (tensor<8xf32>) -> ()\n"),
        4, 26, "custom op 'sdy.manual_computation' number of operands and types do not match: got 1 operands "
               "and 0 types",
        "'sdy.manual_computation': number of operands and types do not match: got 1 operands and 0 types"),
    "named_computation_nested_in_a_manual_one_fails_first": (
        _FUNC.format(body="  sdy.manual_computation(%arg0, %arg1) in_shardings=[] out_shardings=[] manual_axes={}"
                          " (%arg2: tensor<8xf32>, %arg3: tensor<8xf32>) {\n    sdy.return\n"
                          "  sdy.named_computation<\"b\">() () {\n  } : (tensor<8xf32>, tensor<8xf32>) -> ()\n"
                          "    sdy.return\n  } : () -> ()\n"),
        4, 30, "custom op 'sdy.named_computation' number of operands and types do not match: got 0 operands "
               "and 2 types",
        "'sdy.named_computation': number of operands and types do not match: got 0 operands and 2 types"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_error_is_the_computations_operand_count(name: str) -> None:
    text, line, column, _, message = CASES[name]
    assert our_first_error(text) == (line, column, message)


@pytest.mark.parametrize("name", sorted(CASES))
def test_fast_paths_off_give_the_same_first_error(name: str) -> None:
    text, line, column, _, message = CASES[name]
    assert our_first_error(text, fast_paths=False) == (line, column, message)


@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxlib_stops_at_the_same_place(name: str) -> None:
    text, line, column, mlir_message, _ = CASES[name]
    assert jaxlib_first_error(text) == (line, column, mlir_message)
