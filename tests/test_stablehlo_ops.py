# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""StableHLO's ops without regions (``dialects.stablehlo_ops``): each case's op lines printed
pretty and generic exactly as jaxlib 0.10.2's MLIR prints them (the expected lines are its prints
of the source), the generic print read back, MLIR's parse errors at MLIR's positions, result types
inferred for the builder, and a differential run of more texts through jaxlib."""
from __future__ import annotations

import re
from typing import NamedTuple

import pytest

import shardy_py
from shardy_py import OpaqueAttr
from shardy_py.ir.builder import Builder

_OP_LINE = re.compile(r'^(?:%[^=]+= )?"?stablehlo\.')


class Case(NamedTuple):
    """A func ``@f`` with signature ``sig``, op lines ``body`` and a return of ``ret``; jaxlib's
    print of its StableHLO op lines, pretty and generic."""

    sig: str
    body: list[str]
    ret: str
    pretty: list[str]
    generic: list[str]

    def text(self) -> str:
        lines = "".join(f"  {line}\n" for line in self.body)
        return f"func.func @f{self.sig} {{\n{lines}  return {self.ret}\n}}\n"


def op_lines(text: str) -> list[str]:
    """The StableHLO op lines of a printed module, without their indentation."""
    return [line.strip() for line in text.splitlines() if _OP_LINE.match(line.strip())]


CASES = {
    "constant": Case(
        "() -> tensor<2xf32>",
        [
            "%0 = stablehlo.constant {attr = 1 : i32} dense<[1.0, 2.5]> : tensor<2xf32>",
        ],
        "%0 : tensor<2xf32>",
        [
            "%cst = stablehlo.constant {attr = 1 : i32} dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>",
        ],
        [
            '%0 = "stablehlo.constant"() <{value = dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>}> {attr = 1 : i32} : () -> tensor<2xf32>',
        ],
    ),
    "constant_int": Case(
        "() -> tensor<i32>",
        [
            "%0 = stablehlo.constant dense<3> : tensor<i32>",
        ],
        "%0 : tensor<i32>",
        [
            "%c = stablehlo.constant dense<3> : tensor<i32>",
        ],
        [
            '%0 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>',
        ],
    ),
    "iota": Case(
        "() -> tensor<4x5xi32>",
        [
            "%0 = stablehlo.iota dim = 1 : tensor<4x5xi32>",
        ],
        "%0 : tensor<4x5xi32>",
        [
            "%0 = stablehlo.iota dim = 1 : tensor<4x5xi32>",
        ],
        [
            '%0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x5xi32>',
        ],
    ),
    "compare": Case(
        "(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1>",
        [
            "%0 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>",
        ],
        "%0 : tensor<2xi1>",
        [
            "%0 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>",
        ],
        [
            '%0 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>',
        ],
    ),
    "slice": Case(
        "(%a: tensor<3x4xi32>) -> tensor<1x2xi32>",
        [
            "%0 = stablehlo.slice %a [1:2, 0:4:2] : (tensor<3x4xi32>) -> tensor<1x2xi32>",
        ],
        "%0 : tensor<1x2xi32>",
        [
            "%0 = stablehlo.slice %arg0 [1:2, 0:4:2] : (tensor<3x4xi32>) -> tensor<1x2xi32>",
        ],
        [
            '%0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 2, 4>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 2>}> : (tensor<3x4xi32>) -> tensor<1x2xi32>',
        ],
    ),
    "dynamic_slice": Case(
        "(%a: tensor<3x4xi32>, %i: tensor<i64>) -> tensor<2x2xi32>",
        [
            "%0 = stablehlo.dynamic_slice %a, %i, %i, sizes = [2, 2] : (tensor<3x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>",
        ],
        "%0 : tensor<2x2xi32>",
        [
            "%0 = stablehlo.dynamic_slice %arg0, %arg1, %arg1, sizes = [2, 2] : (tensor<3x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>",
        ],
        [
            '%0 = "stablehlo.dynamic_slice"(%arg0, %arg1, %arg1) <{slice_sizes = array<i64: 2, 2>}> : (tensor<3x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>',
        ],
    ),
    "select_fn": Case(
        "(%p: tensor<2xi1>, %a: tensor<2xf32>) -> tensor<?xf32>",
        [
            "%0 = stablehlo.select %p, %a, %a : tensor<2xi1>, tensor<2xf32>",
            "%1 = stablehlo.select %p, %a, %0 : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<?xf32>",
        ],
        "%1 : tensor<?xf32>",
        [
            "%0 = stablehlo.select %arg0, %arg1, %arg1 : tensor<2xi1>, tensor<2xf32>",
            "%1 = stablehlo.select %arg0, %arg1, %0 : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<?xf32>",
        ],
        [
            '%0 = "stablehlo.select"(%arg0, %arg1, %arg1) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>',
            '%1 = "stablehlo.select"(%arg0, %arg1, %0) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<?xf32>',
        ],
    ),
    "complex": Case(
        "(%a: tensor<2xf32>) -> tensor<2xcomplex<f32>>",
        [
            "%0 = stablehlo.complex %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f32>>",
        ],
        "%0 : tensor<2xcomplex<f32>>",
        [
            "%0 = stablehlo.complex %arg0, %arg0 : tensor<2xcomplex<f32>>",
        ],
        [
            '%0 = "stablehlo.complex"(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f32>>',
        ],
    ),
    "tuple": Case(
        "(%a: tensor<f32>, %b: tensor<2xi32>) -> tensor<2xi32>",
        [
            "%0 = stablehlo.tuple %a, %b : tuple<tensor<f32>, tensor<2xi32>>",
            "%1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<f32>, tensor<2xi32>>) -> tensor<2xi32>",
        ],
        "%1 : tensor<2xi32>",
        [
            "%0 = stablehlo.tuple %arg0, %arg1 : tuple<tensor<f32>, tensor<2xi32>>",
            "%1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<f32>, tensor<2xi32>>) -> tensor<2xi32>",
        ],
        [
            '%0 = "stablehlo.tuple"(%arg0, %arg1) : (tensor<f32>, tensor<2xi32>) -> tuple<tensor<f32>, tensor<2xi32>>',
            '%1 = "stablehlo.get_tuple_element"(%0) <{index = 1 : i32}> : (tuple<tensor<f32>, tensor<2xi32>>) -> tensor<2xi32>',
        ],
    ),
    "after_all": Case(
        "(%t: !stablehlo.token) -> !stablehlo.token",
        [
            "%0 = stablehlo.create_token : !stablehlo.token",
            "%1 = stablehlo.after_all %0, %t : !stablehlo.token",
        ],
        "%1 : !stablehlo.token",
        [
            "%0 = stablehlo.create_token : !stablehlo.token",
            "%1 = stablehlo.after_all %0, %arg0 : !stablehlo.token",
        ],
        [
            '%0 = "stablehlo.create_token"() : () -> !stablehlo.token',
            '%1 = "stablehlo.after_all"(%0, %arg0) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token',
        ],
    ),
    "reduce_precision": Case(
        "(%a: tensor<2xf32>) -> tensor<2xf32>",
        [
            "%0 = stablehlo.reduce_precision %a, format = e5m10 : tensor<2xf32>",
        ],
        "%0 : tensor<2xf32>",
        [
            "%0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<2xf32>",
        ],
        [
            '%0 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<2xf32>) -> tensor<2xf32>',
        ],
    ),
    "custom_call": Case(
        "(%a: tensor<2xf32>) -> tensor<2xf32>",
        [
            '%0 = stablehlo.custom_call @"foo bar"(%a) {backend_config = "cfg", has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>',
        ],
        "%0 : tensor<2xf32>",
        [
            '%0 = stablehlo.custom_call @"foo bar"(%arg0) {backend_config = "cfg", has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>',
        ],
        [
            '%0 = "stablehlo.custom_call"(%arg0) <{backend_config = "cfg", call_target_name = "foo bar", has_side_effect = true}> : (tensor<2xf32>) -> tensor<2xf32>',
        ],
    ),
    "dot_general": Case(
        "(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32>",
        [
            "%0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>",
        ],
        "%0 : tensor<5x2x4xf32>",
        [
            "%0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>",
        ],
        [
            '%0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}> : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>',
        ],
    ),
    "dot_algorithm": Case(
        "(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32>",
        [
            "%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>",
        ],
        "%0 : tensor<2x4xf32>",
        [
            "%0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>",
        ],
        [
            '%0 = "stablehlo.dot_general"(%arg0, %arg1) <{algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>, dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>',
        ],
    ),
    "dot": Case(
        "(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32>",
        [
            "%0 = stablehlo.dot %a, %b, precision = [HIGH, HIGH] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>",
        ],
        "%0 : tensor<2x4xf32>",
        [
            "%0 = stablehlo.dot %arg0, %arg1, precision = [HIGH, HIGH] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>",
        ],
        [
            '%0 = "stablehlo.dot"(%arg0, %arg1) <{precision_config = [#stablehlo<precision HIGH>, #stablehlo<precision HIGH>]}> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>',
        ],
    ),
    "rng_bit_generator": Case(
        "(%s: tensor<2xui64>) -> tensor<4xui32>",
        [
            "%0:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)",
        ],
        "%0#1 : tensor<4xui32>",
        [
            "%output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)",
        ],
        [
            '%0:2 = "stablehlo.rng_bit_generator"(%arg0) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)',
        ],
    ),
    "batch_norm_training": Case(
        "(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<3xf32>",
        [
            '%0:3 = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)',
        ],
        "%0#1 : tensor<3xf32>",
        [
            '%output, %batch_mean, %batch_var = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg1) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)',
        ],
        [
            '%0:3 = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg1) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)',
        ],
    ),
    "optimization_barrier": Case(
        "(%a: tensor<2xf32>, %b: tensor<i32>) -> tensor<2xf32>",
        [
            "%0:2 = stablehlo.optimization_barrier %a, %b : tensor<2xf32>, tensor<i32>",
            "stablehlo.optimization_barrier()",
        ],
        "%0#0 : tensor<2xf32>",
        [
            "%0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<2xf32>, tensor<i32>",
            "stablehlo.optimization_barrier()",
        ],
        [
            '%0:2 = "stablehlo.optimization_barrier"(%arg0, %arg1) : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>)',
            '"stablehlo.optimization_barrier"() : () -> ()',
        ],
    ),
    "cholesky": Case(
        "(%a: tensor<2x2xf32>) -> tensor<2x2xf32>",
        [
            "%0 = stablehlo.cholesky %a, lower = true : tensor<2x2xf32>",
        ],
        "%0 : tensor<2x2xf32>",
        [
            "%0 = stablehlo.cholesky %arg0, lower = true : tensor<2x2xf32>",
        ],
        [
            '%0 = "stablehlo.cholesky"(%arg0) <{lower = true}> : (tensor<2x2xf32>) -> tensor<2x2xf32>',
        ],
    ),
    "concatenate": Case(
        "(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<5xf32>",
        [
            "%0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>",
        ],
        "%0 : tensor<5xf32>",
        [
            "%0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>",
        ],
        [
            '%0 = "stablehlo.concatenate"(%arg0, %arg1) <{dimension = 0 : i64}> : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>',
        ],
    ),
    "pad": Case(
        "(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<3x4xf32>",
        [
            "%0 = stablehlo.pad %a, %z, low = [0, 1], high = [1, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>",
        ],
        "%0 : tensor<3x4xf32>",
        [
            "%0 = stablehlo.pad %arg0, %arg1, low = [0, 1], high = [1, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>",
        ],
        [
            '%0 = "stablehlo.pad"(%arg0, %arg1) <{edge_padding_high = array<i64: 1, 0>, edge_padding_low = array<i64: 0, 1>, interior_padding = array<i64: 0, 0>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>',
        ],
    ),
    "fft": Case(
        "(%z: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>",
        [
            "%0 = stablehlo.fft %z, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>",
        ],
        "%0 : tensor<4xcomplex<f32>>",
        [
            "%0 = stablehlo.fft %arg0, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>",
        ],
        [
            '%0 = "stablehlo.fft"(%arg0) <{fft_length = array<i64: 4>, fft_type = #stablehlo<fft_type IFFT>}> : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>',
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pretty_print(name: str) -> None:
    case = CASES[name]
    assert op_lines(str(shardy_py.parse(case.text()))) == case.pretty


@pytest.mark.parametrize("name", sorted(CASES))
def test_generic_print(name: str) -> None:
    case = CASES[name]
    assert op_lines(shardy_py.print_module(shardy_py.parse(case.text()), generic=True)) == case.generic


@pytest.mark.parametrize("name", sorted(CASES))
def test_generic_print_read_back_pretty(name: str) -> None:
    case = CASES[name]
    generic = shardy_py.print_module(shardy_py.parse(case.text()), generic=True)
    assert op_lines(str(shardy_py.parse(generic))) == case.pretty


def test_compare_prints_one_space_before_its_direction() -> None:
    """jaxlib 0.10.2 writes ``stablehlo.compare LT,`` (one space), not the two of older MLIRs."""
    printed = str(shardy_py.parse(CASES["compare"].text()))
    assert "stablehlo.compare LT, " in printed and "compare  " not in printed


def test_constant_value_and_type_respaced() -> None:
    text = "func.func @f() -> tensor<2xi32> {\n  %0 = stablehlo.constant dense<[1, 2]>   :   tensor<2xi32>\n  return %0 : tensor<2xi32>\n}\n"
    assert op_lines(str(shardy_py.parse(text))) == ["%c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>"]


def test_dot_algorithm_written_without_spaces_prints_canonically() -> None:
    case = CASES["dot_algorithm"]
    tight = ("%0 = stablehlo.dot_general %a,%b,contracting_dims=[1]x[0],algorithm=<lhs_precision_type=tf32,"
             "rhs_precision_type=tf32,accumulation_type=f32,lhs_component_count=1,rhs_component_count=1,"
             "num_primitive_operations=1,allow_imprecise_accumulation=false> : "
             "(tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>")
    text = Case(case.sig, [tight], case.ret, [], []).text()
    assert op_lines(str(shardy_py.parse(text))) == case.pretty


def test_slice_stride_one_left_out() -> None:
    text = "func.func @f(%a: tensor<4xi32>) -> tensor<2xi32> {\n  %0 = stablehlo.slice %a [0:2:1] : (tensor<4xi32>) -> tensor<2xi32>\n  return %0 : tensor<2xi32>\n}\n"
    assert op_lines(str(shardy_py.parse(text))) == ["%0 = stablehlo.slice %arg0 [0:2] : (tensor<4xi32>) -> tensor<2xi32>"]


# -- parse errors: MLIR's messages at MLIR's positions (line:column as jaxlib reports them) ----------

ERRORS = [
    ("%0 = stablehlo.select %p, %a, %a : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>", "2:38",
     "expected functional type or list of two types"),
    ("%0 = stablehlo.complex %a, %a : tensor<2xf32>", "2:35", "expected tensor with complex element type"),
    ("%0 = stablehlo.reduce_precision %a, format = x5m10 : tensor<2xf32>", "2:48",
     "expected exponent mantissa in format e#m#, saw x5m10"),
    ("%0 = stablehlo.clamp %a, %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>", "2:37",
     "3 operands present, but expected 2"),
    ("%0 = stablehlo.tuple %a : tensor<2xf32>", "2:29", "expected tuple type"),
    ("%0 = stablehlo.abs %a : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)", "2:27", "expected single output"),
]


@pytest.mark.parametrize(("line", "where", "message"), ERRORS, ids=[e[2] for e in ERRORS])
def test_parse_error(line: str, where: str, message: str) -> None:
    text = f"func.func @f(%p: tensor<2xi1>, %a: tensor<2xf32>) -> () {{\n  {line}\n  return\n}}\n"
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert str(e.value).startswith(f"{where}: ") and str(e.value).endswith(message)


# -- result types the builder infers ---------------------------------------------------------------


def _builder_and_args(sig: str):
    module = shardy_py.parse(f"func.func @f{sig} {{\n  return\n}}\n")
    func = module.funcs["f"]
    block = func.regions[0].block
    return module, Builder.before(block.ops[-1]), block.arguments


def test_builder_infers_compare_result() -> None:
    module, b, (x, y) = _builder_and_args("(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>)")
    from shardy_py.dialects.stablehlo_ops import COMPARISON_DIRECTION

    op = b.create("stablehlo.compare", [x, y], properties={"comparison_direction": COMPARISON_DIRECTION.make("GE")})
    assert str(op.results[0].type) == "tensor<2x3xi1>"
    assert op_lines(str(module)) == ["%0 = stablehlo.compare GE, %arg0, %arg1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>"]


def test_builder_infers_tuple_and_element() -> None:
    _, b, (x, y) = _builder_and_args("(%a: tensor<f32>, %b: tensor<2xi32>)")
    t = b.create("stablehlo.tuple", [x, y])
    e = b.create("stablehlo.get_tuple_element", [t.results[0]], properties={"index": OpaqueAttr("1 : i32")})
    assert str(t.results[0].type) == "tuple<tensor<f32>, tensor<2xi32>>"
    assert str(e.results[0].type) == "tensor<2xi32>"


def test_builder_infers_token_ops() -> None:
    _, b, (t,) = _builder_and_args("(%t: !stablehlo.token)")
    token = b.create("stablehlo.create_token", [])
    joined = b.create("stablehlo.after_all", [token.results[0], t])
    assert str(joined.results[0].type) == "!stablehlo.token"


# -- differential: more texts through jaxlib's MLIR and through shardy_py ---------------------------

DIFFERENTIAL = [
    "func.func @f(%a: tensor<3x4xi32>, %i: tensor<i64>, %u: tensor<1x2xi32>) -> tensor<3x4xi32> {\n"
    "  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %i : (tensor<3x4xi32>, tensor<1x2xi32>, tensor<i64>, tensor<i64>) -> tensor<3x4xi32>\n"
    '  %1 = "stablehlo.slice"(%a) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 3, 4>, strides = array<i64: 1, 1>} : (tensor<3x4xi32>) -> tensor<3x4xi32>\n'
    "  return %0 : tensor<3x4xi32>\n}\n",
    "func.func @f(%a: tensor<3xf32>, %s: tensor<2xindex>) -> tensor<?x?xf32> {\n"
    "  %0 = stablehlo.broadcast %a, sizes = [2] : (tensor<3xf32>) -> tensor<2x3xf32>\n"
    "  %1 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<3xf32>) -> tensor<3x2xf32>\n"
    "  %2 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [1] {known_expanding_dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<2xindex>) -> tensor<?x?xf32>\n"
    "  return %2 : tensor<?x?xf32>\n}\n",
    "func.func @f(%a: tensor<2x3xf32>, %n: tensor<i32>, %s: tensor<2xi64>, %z: tensor<f32>) -> tensor<i32> {\n"
    "  %0 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>\n"
    "  %1 = stablehlo.set_dimension_size %a, %n, dim = 1 : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x?xf32, #stablehlo.bounds<?, 3>>\n"
    "  %2 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
    "  %3 = stablehlo.dynamic_reshape %a, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>\n"
    "  %4 = stablehlo.reverse %a, dims = [0, 1] : tensor<2x3xf32>\n"
    "  %5 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
    "  %6 = stablehlo.dynamic_pad %a, %z, %s, %s, %s : (tensor<2x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>\n"
    "  %7 = stablehlo.real_dynamic_slice %a, %s, %s, %s : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>\n"
    "  return %0 : tensor<i32>\n}\n",
    "func.func @f(%a: tensor<3x3xf32>, %b: tensor<3x4xf32>, %i: tensor<2xi32>) -> tensor<3x4xf32> {\n"
    '  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<3x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>\n'
    '  %1 = "stablehlo.torch_index_select"(%a, %i) {batch_dims = 0 : i64, dim = 0 : i64} : (tensor<3x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>\n'
    "  %2 = stablehlo.einsum %a, %b, config = \"ab,bc->ac\" : (tensor<3x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>\n"
    "  %3 = stablehlo.unary_einsum %a, config = \"ab->a\" : (tensor<3x3xf32>) -> tensor<3xf32>\n"
    "  return %0 : tensor<3x4xf32>\n}\n",
    "func.func @f(%a: tensor<2xf32>, %lo: tensor<f32>, %s: tensor<1xi64>) -> tensor<2xf32> {\n"
    "  %0 = stablehlo.custom_call @foo(%a) {api_version = 4 : i32, backend_config = {a = 1 : i32}, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<2xf32>) -> tensor<2xf32>\n"
    "  %1:2 = stablehlo.custom_call @two() : () -> (tensor<f32>, tensor<i32>)\n"
    "  stablehlo.custom_call @none(%a) {has_side_effect = true} : (tensor<2xf32>) -> ()\n"
    "  %2 = stablehlo.rng %lo, %lo, %s, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<2xf32>\n"
    "  %3 = stablehlo.clamp %lo, %a, %lo : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>\n"
    "  %4 = stablehlo.bitcast_convert %a : (tensor<2xf32>) -> tensor<2x4xi8>\n"
    "  %5 = stablehlo.is_finite %a : (tensor<2xf32>) -> tensor<2xi1>\n"
    "  %6 = stablehlo.replica_id : tensor<ui32>\n"
    "  %7 = stablehlo.partition_id : tensor<ui32>\n"
    "  return %0 : tensor<2xf32>\n}\n",
    "func.func @impl(%arg0: tensor<i64>) -> tensor<i64> {\n  return %arg0 : tensor<i64>\n}\n"
    "func.func @f(%a: tensor<i64>) -> tensor<i64> {\n"
    '  %0 = stablehlo.composite "my.op" %a {composite_attributes = {s = "x", n = 2 : i64}, decomposition = @impl, version = 1 : i32} : (tensor<i64>) -> tensor<i64>\n'
    "  return %0 : tensor<i64>\n}\n",
    "func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {\n"
    '  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n'
    '  %1:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %x) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)\n'
    "  return %1#0 : tensor<2x3xf32>\n}\n",
]


@pytest.fixture(scope="module")
def jaxlib_context():
    """jaxlib's MLIR context (StableHLO, CHLO and Shardy registered)."""
    pytest.importorskip("jax", reason="jax is not installed: the differential test needs jaxlib's MLIR")
    from jax._src.interpreters import mlir

    ctx = mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    return ctx


@pytest.mark.parametrize("text", DIFFERENTIAL, ids=[f"text{i}" for i in range(len(DIFFERENTIAL))])
def test_differential_against_jaxlib(jaxlib_context, text: str) -> None:
    from jax._src.lib.mlir import ir

    m = ir.Module.parse(text, context=jaxlib_context)
    pretty = m.operation.get_asm()
    generic = m.operation.get_asm(print_generic_op_form=True)
    assert str(shardy_py.parse(text)) == pretty
    assert shardy_py.print_module(shardy_py.parse(text), generic=True) == generic
    assert str(shardy_py.parse(generic)) == pretty
