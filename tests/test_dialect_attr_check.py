"""StableHLO's and CHLO's attributes are read where MLIR reads them, also where we keep the value as written
(discardable attributes: ``module attributes {stablehlo.dot = #stablehlo.dot<...>}``, an op's or a function's
attribute dictionary): a body the dialect's parser rejects is MLIR's parse error at its token, followed for
the struct attributes by the parser's "failed parsing ... attribute" where reading stopped
(``StablehloOps.cpp``'s ``parseStruct``); each case is checked against jaxlib 0.12 when it is installed."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from jaxlib_worker import shared_worker

import shardy_py

DUPLICATED = """module attributes {
  stablehlo.dot = #stablehlo.dot<
      rhs_batching_dimensions = [1],
      rhs_batching_dimensions = [3],
      lhs_batching_dimensions = [0],
  >} {}
"""
MISSING_COMMA = """module attributes {
  stablehlo.dot = #stablehlo.dot<
      rhs_batching_dimensions = [1]
      lhs_batching_dimensions = [0]
  >} {}
"""
UNKNOWN_FIELD_ON_AN_OP = """func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.abs %a {x = [#stablehlo.gather<offset_dims = [1], foo = [0]>]} : tensor<2xf32>
  return %0 : tensor<2xf32>
}
"""
FUNCTION_ATTRIBUTE = ("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> attributes "
                      "{x = #stablehlo.scatter<index_vector_dim = 1, index_vector_dim = 1>} {\n"
                      "  return %a : tensor<2xf32>\n}\n")
CONV = """module attributes {
  stablehlo.conv = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o, b]->[b, 0, 1, f]>
} {}
"""
WRAPPED_ENUM = """module attributes {
  x = #stablehlo<comparison_direction LTE>
} {}
"""

ENUM_FAILURE = ("failed to parse StableHLO_ComparisonDirectionAttr parameter 'value' which is to be a "
                "`::mlir::stablehlo::ComparisonDirection`")
#: name -> (text, [(line, column, message) of each error])
CASES = {
    "duplicated_field": (DUPLICATED, [(4, 31, "duplicated `rhs_batching_dimensions` entry"),
                                      (4, 31, "failed parsing dot dimension numbers attribute")]),
    "missing_comma": (MISSING_COMMA, [(3, 36, "expected '>' to close the attribute body, found "
                                              "'lhs_batching_dimensions'"),
                                      (4, 7, "failed parsing dot dimension numbers attribute")]),
    "unknown_field_in_an_op_attribute": (
        UNKNOWN_FIELD_ON_AN_OP,
        [(2, 68, "expected one of: `offset_dims`, `collapsed_slice_dims`, `operand_batching_dims`, "
                 "`start_indices_batching_dims`, `start_index_map`, `index_vector_dim`"),
         (2, 68, "failed parsing gather dimension numbers attribute")]),
    "function_attribute": (FUNCTION_ATTRIBUTE, [(1, 124, "duplicated `index_vector_dim` entry"),
                                                (1, 124, "failed parsing scatter dimension numbers attribute")]),
    "conv_dimension_numbers": (CONV, [(2, 62, "Unexpected keyword b")]),
    "wrapped_enum_case": (WRAPPED_ENUM, [(2, 39, "expected ::mlir::stablehlo::ComparisonDirection to be one of: "
                                                 "EQ, NE, GE, GT, LE, LT"), (2, 42, ENUM_FAILURE)]),
    "wrapped_enum_written_dotted": ("module attributes {\n  x = #stablehlo.comparison_direction<LT>\n} {}\n",
                                    [(2, 38, "expected valid keyword or string"), (2, 38, ENUM_FAILURE)]),
    "unknown_stablehlo_mnemonic": ("module attributes {\n  x = [#stablehlo.frob<1>]\n} {}\n",
                                   [(2, 19, "unknown StableHLO attribute")]),
    "unknown_chlo_mnemonic": ("module attributes {\n  x = #chlo<dot 1>\n} {}\n", [(2, 13, "unknown chlo attribute")]),
    "struct_written_wrapped": ("module attributes {\n  x = #stablehlo<dot>\n} {}\n", [(2, 21, "expected '<'")]),
    "unknown_mnemonic_in_a_type_encoding": ("func.func @f(%a: tensor<?xf32, #stablehlo.add<bounds = [4]>>) {\n"
                                            "  return\n}\n", [(1, 43, "unknown StableHLO attribute")]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rejected_at_mlirs_token(name: str) -> None:
    text, errors = CASES[name]
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    got = [(e.value.line, e.value.column, e.value.message), *e.value.more]
    assert got == errors


@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxlib_rejects_on_the_same_lines(name: str) -> None:
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    text, errors = CASES[name]
    answer = shared_worker().call("module", text=text)
    assert not answer["ok"]
    theirs = [(int(line), int(col)) for line, col in re.findall(r'error: "-":(\d+):(\d+):', answer["error"])]
    assert theirs == [(line, col) for line, col, _ in errors]


def test_verify_reports_both_errors(tmp_path) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(MISSING_COMMA)
    out = subprocess.run([sys.executable, "-m", "shardy_py", "verify", "--format=json", str(path)],
                         capture_output=True, text=True)
    assert out.returncode == 1
    assert [(d["line"], d["message"]) for d in map(json.loads, out.stdout.splitlines())] == [
        (3, "expected '>' to close the attribute body, found 'lhs_batching_dimensions'"),
        (4, "failed parsing dot dimension numbers attribute")]


@pytest.mark.parametrize("text", [
    "module attributes {stablehlo.dot = #stablehlo.dot<lhs_batching_dimensions = [0], "
    "rhs_batching_dimensions = [1]>} {}\n",
    'module attributes {a.x = "#stablehlo.dot<foo = [0]>"} {}\n',
    "module attributes {a.x = #stablehlo<comparison_direction LT>, "
    "a.y = [#stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>]} {}\n",
])
def test_valid_attributes_and_strings_are_kept(text: str) -> None:
    module = shardy_py.parse(text)
    assert shardy_py.verify(module) == []
