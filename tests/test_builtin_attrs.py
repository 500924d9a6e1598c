"""Builtin, StableHLO and CHLO attributes read by ``syntax.attr_reader`` and printed as MLIR prints them.

Expected texts are jaxlib's prints (``tests/test_attr_reader_jaxlib.py`` checks many more against it).
"""
from __future__ import annotations

import pytest

from shardy_py.errors import AttrSyntaxError
from shardy_py.ir import builtin_attrs as B
from shardy_py.ir import stablehlo_attrs as S
from shardy_py.ir.attrs import UNIT_ATTR, OpaqueAttr, TensorShardingAttr
from shardy_py.ir.types import IntegerType
from shardy_py.syntax.attr_reader import AttrReader, parse_attribute
from shardy_py.syntax.stablehlo_attr_reader import parse_body, parse_dot_pretty


@pytest.mark.parametrize(("text", "printed"), [
    ("5", "5 : i64"),
    ("5 : i32", "5 : i32"),
    ("255 : i8", "-1 : i8"),
    ("0xFF : ui8", "255 : ui8"),
    ("-5 : si8", "-5 : si8"),
    ("1 : index", "1 : index"),
    ("1 : i1", "true"),
    ("0x10", "16 : i64"),
])
def test_integer_attribute_prints_value_and_type(text, printed):
    assert str(parse_attribute(text)) == printed


@pytest.mark.parametrize(("text", "message"), [
    ("256 : i8", "integer constant out of range for attribute"),
    ("-0", "integer constant out of range for attribute"),
    ("127 : si8", None),
    ("128 : si8", "integer constant out of range for attribute"),
    ("-1 : ui8", "negative integer literal not valid for unsigned integer type"),
    ("99999999999999999999999999", "integer constant out of range for attribute"),
])
def test_integer_attribute_range_is_checked_as_mlir_does(text, message):
    if message is None:
        assert str(parse_attribute(text)) == text
    else:
        with pytest.raises(AttrSyntaxError, match=message):
            parse_attribute(text)


@pytest.mark.parametrize(("text", "printed"), [
    ("1.0", "1.000000e+00 : f64"),
    ("-0.0", "-0.000000e+00 : f64"),
    ("0.1 : f32", "1.000000e-01 : f32"),
    ("0x7F800000 : f32", "0x7F800000 : f32"),
    ("0x3C00 : f16", "1.000000e+00 : f16"),
    ("1.5e300 : f32", "0x7F800000 : f32"),
    ("1.0e400", "0x7FF0000000000000 : f64"),
    ("1.5 : f4E2M1FN", "1.500000e+00 : f4E2M1FN"),
    ("-1000.0 : f8E4M3FN", "0xFF : f8E4M3FN"),
])
def test_float_attribute_prints_mlir_spelling(text, printed):
    assert str(parse_attribute(text)) == printed


def test_float_attribute_keeps_bits_and_type():
    a = parse_attribute("2.5 : f16")
    assert (a.bits, str(a.type), a.value) == (0x4100, "f16", 2.5)


@pytest.mark.parametrize(("text", "message"), [
    ("1 : f32", "unexpected decimal integer literal for a floating point value"),
    ("1.0 : i32", "floating point value not valid for specified type"),
    ("-0x3C00 : f16", "hexadecimal float literal should not have a leading minus"),
    ("0x1FFFF : f16", "hexadecimal float constant out of range for type"),
])
def test_bad_float_literals_are_errors(text, message):
    with pytest.raises(AttrSyntaxError, match=message):
        parse_attribute(text)


def test_string_attribute_escapes_as_mlir_prints():
    assert str(parse_attribute('"a\\nb\\"c\\\\d\\01é"')) == '"a\\0Ab\\22c\\\\d\\01\\C3\\A9"'


def test_string_attribute_with_type():
    assert str(parse_attribute('"x" : tensor<2xf32>')) == '"x" : tensor<2xf32>'


def test_array_elides_i64_and_f64_types_of_its_elements():
    assert str(parse_attribute("[1, 2.0, 3 : i32, 0x7FF0000000000000, unit, true]")) == (
        "[1, 2.000000e+00, 3 : i32, 9218868437227405312, unit, true]")


def test_dictionary_sorts_keys_quotes_non_identifiers_and_prints_units_by_name():
    assert str(parse_attribute('{b = 1, a, "c d" = "x", e = unit}')) == '{a, b = 1 : i64, "c d" = "x", e}'


def test_dictionary_repeated_key_is_an_error():
    with pytest.raises(AttrSyntaxError, match="duplicate key 'a'") as e:
        parse_attribute("{a = 1, a = 2}")
    assert e.value.offset == 8


def test_attribute_dict_reader_gives_entries_offsets_and_end():
    text = '  {a = 1, b, "c d" = "x"}  tail'
    entries, offsets, end = AttrReader(text).attribute_dict(0, len(text))
    assert list(entries) == ["a", "b", "c d"]
    assert entries["b"] is UNIT_ATTR
    assert offsets == {"a": 3, "b": 10, "c d": 13}
    assert text[end:] == "  tail"


@pytest.mark.parametrize(("text", "printed"), [
    ("array<i64: 1, 2>", "array<i64: 1, 2>"),
    ("array<i64>", "array<i64>"),
    ("array<i1: true, false>", "array<i1: true, false>"),
    ("array<f32: 1.0, 2.5>", "array<f32: 1.000000e+00, 2.500000e+00>"),
    ("array<i8: 255>", "array<i8: -1>"),
])
def test_dense_array(text, printed):
    assert str(parse_attribute(text)) == printed


@pytest.mark.parametrize(("text", "printed"), [
    ("dense<[1,2]> : tensor<2xi64>", "dense<[1, 2]> : tensor<2xi64>"),
    ("dense<[1, 1]> : tensor<2xi32>", "dense<1> : tensor<2xi32>"),
    ("dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>", "dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>"),
    ('dense<"0x0100000002000000"> : tensor<2xi32>', "dense<[1, 2]> : tensor<2xi32>"),
    ('dense<"0x01"> : tensor<2xi8>', "dense<1> : tensor<2xi8>"),
    ('dense<"0xFF"> : tensor<4xi1>', "dense<true> : tensor<4xi1>"),
    ("dense<[true, false]> : tensor<2xi1>", "dense<[true, false]> : tensor<2xi1>"),
    ("dense<[]> : tensor<0xf32>", "dense<> : tensor<0xf32>"),
    ("dense<0xFF> : tensor<2xi8>", "dense<-1> : tensor<2xi8>"),
    ("dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>", "dense<(1.000000e+00,2.000000e+00)> : tensor<2xcomplex<f32>>"),
    ("dense<[(1, 2), (3, 4)]> : tensor<2xcomplex<i8>>", "dense<[(1,2), (3,4)]> : tensor<2xcomplex<i8>>"),
    ('dense<["a", "a"]> : tensor<2x!foo.bar>', 'dense<"a"> : tensor<2x!foo.bar>'),
    ("dense<1> : vector<2xi32>", "dense<1> : vector<2xi32>"),
])
def test_dense_elements(text, printed):
    assert str(parse_attribute(text)) == printed


def test_dense_elements_over_100_print_as_hex():
    text = "dense<[" + ", ".join(str(i % 20 + 1) for i in range(101)) + "]> : tensor<101xi8>"
    assert str(parse_attribute(text)) == (
        'dense<"0x' + "".join(f"{i % 20 + 1:02X}" for i in range(101)) + '"> : tensor<101xi8>')


def test_dense_splat_over_100_elements_is_not_hex():
    assert str(parse_attribute("dense<1> : tensor<200xi8>")) == "dense<1> : tensor<200xi8>"


def test_same_values_written_differently_are_the_same_attribute():
    a = parse_attribute('dense<"0x0100000001000000"> : tensor<2xi32>')
    assert a == parse_attribute("dense<1> : tensor<2xi32>") == parse_attribute("dense<[1, 1]> : tensor<2xi32>")


@pytest.mark.parametrize(("text", "message"), [
    ("dense<[[1,2],[3,4]]> : tensor<4xi32>", r"inferred shape of elements literal \(\[2, 2\]\) does not match type"),
    ("dense<1.5> : tensor<2xi32>", "expected integer elements, but parsed floating-point"),
    ("dense<true> : tensor<2xi32>", "expected i1 type for 'true' or 'false' values"),
    ("dense<1> : tensor<?xi32>", "elements literal type must have static shape"),
    ('dense<"0x01020304"> : tensor<2xi8>', "elements hex data size is invalid"),
    ("dense<[1, 2> : tensor<2xi32>", "expected ']' to close the tensor literal list"),
])
def test_bad_dense_elements_are_errors(text, message):
    with pytest.raises(AttrSyntaxError, match=message):
        parse_attribute(text)


def test_dense_elements_values():
    assert parse_attribute("dense<[[1, -2], [3, 4]]> : tensor<2x2xi8>").values() == [1, -2, 3, 4]


@pytest.mark.parametrize(("text", "printed"), [
    ("sparse<[[0, 0]], 1.0> : tensor<2x2xf32>", "sparse<0, 1.000000e+00> : tensor<2x2xf32>"),
    ("sparse<[[0, 0], [1, 1]], [1.0, 2.0]> : tensor<2x2xf32>",
     "sparse<[[0, 0], [1, 1]], [1.000000e+00, 2.000000e+00]> : tensor<2x2xf32>"),
    ("sparse<> : tensor<2x2xf32>", "sparse<> : tensor<2x2xf32>"),
    ('dense_resource<"a b"> : tensor<2xf32>', 'dense_resource<"a b"> : tensor<2xf32>'),
    ("unit", "unit"),
    ("[unit]", "[unit]"),
    ("i32", "i32"),
    ("(tensor<f32>) -> (tensor<f32>)", "(tensor<f32>) -> tensor<f32>"),
    ("@a::@b", "@a::@b"),
    ('@"a b"::@c', '@"a b"::@c'),
])
def test_other_builtin_attributes(text, printed):
    a = parse_attribute(text)
    assert (str(a) if a is not UNIT_ATTR else "unit") == printed


def test_unit_is_the_shared_unit_attr():
    assert parse_attribute("unit") is UNIT_ATTR


def test_integer_attribute_is_typed():
    a = parse_attribute("7 : i16")
    assert isinstance(a, B.IntegerAttr) and a.value == 7 and a.type == IntegerType("i16", 16, "")


def test_same_text_gives_the_same_object():
    assert parse_attribute("[1, 2, {a = 3}]") is parse_attribute("[1, 2, {a = 3}]")


@pytest.mark.parametrize(("text", "cls", "printed"), [
    ("#stablehlo<comparison_direction EQ>", S.ComparisonDirectionAttr, "#stablehlo<comparison_direction EQ>"),
    ("#stablehlo<comparison_type   FLOAT>", S.ComparisonTypeAttr, "#stablehlo<comparison_type FLOAT>"),
    ("#stablehlo<precision HIGHEST>", S.PrecisionAttr, "#stablehlo<precision HIGHEST>"),
    ("#stablehlo<fft_type RFFT>", S.FftTypeAttr, "#stablehlo<fft_type RFFT>"),
    ("#stablehlo<rng_algorithm PHILOX>", S.RngAlgorithmAttr, "#stablehlo<rng_algorithm PHILOX>"),
    ("#stablehlo<rng_distribution NORMAL>", S.RngDistributionAttr, "#stablehlo<rng_distribution NORMAL>"),
    ("#stablehlo<transpose ADJOINT>", S.TransposeAttr, "#stablehlo<transpose ADJOINT>"),
    ("#stablehlo.result_accuracy_mode<HIGHEST>", S.ResultAccuracyModeAttr, "#stablehlo.result_accuracy_mode<HIGHEST>"),
    ("#chlo<comparison_direction LT>", S.ChloComparisonDirectionAttr, "#chlo<comparison_direction LT>"),
    ("#chlo<precision DEFAULT>", S.ChloPrecisionAttr, "#chlo<precision DEFAULT>"),
])
def test_enum_attributes(text, cls, printed):
    a = parse_attribute(text)
    assert type(a) is cls and str(a) == printed


def test_enum_attribute_bad_value():
    with pytest.raises(AttrSyntaxError, match="to be one of: EQ, NE, GE, GT, LE, LT") as e:
        parse_attribute("#stablehlo<comparison_direction XX>")
    assert e.value.offset == 32


def test_enum_body_is_read_and_printed_without_wrapper():
    text = "GT, %a"
    a, end = parse_body(S.ComparisonDirectionAttr, AttrReader(text), 0, len(text))
    assert (a, a.print_body(), end) == (S.ComparisonDirectionAttr("GT"), "GT", 2)


@pytest.mark.parametrize(("text", "printed"), [
    ("#stablehlo.gather<offset_dims = [1], index_vector_dim = 1, collapsed_slice_dims = [0],>",
     "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], index_vector_dim = 1>"),
    ("#stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0]>",
     "#stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0]>"),
    ("#stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], "
     "lhs_batching_dimensions = []>",
     "#stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>"),
    ("#stablehlo.channel_handle<type = 0, handle = 1>", "#stablehlo.channel_handle<handle = 1, type = 0>"),
    ("#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>",
     "#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>"),
    ("#stablehlo.type_extensions<bounds = [4, ?]>", "#stablehlo.bounds<4, ?>"),
    ("#stablehlo.type_extensions<bounds = [3, -1]>", "#stablehlo.bounds<3, -1>"),
    ("#stablehlo.result_accuracy<atol = 1.0e-5, ulps = 3, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>",
     "#stablehlo.result_accuracy<atol = 1.000000e-05, ulps = 3, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>"),
    ("#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>",
     "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>"),
    ("#stablehlo.conv<raw input_batch_dimension = 0>", "#stablehlo.conv<[f, 0]x[o, 0]->[f, 0]>"),
    ("#chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_group_dimensions = [0]>",
     "#chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_group_dimensions = [0]>"),
])
def test_struct_attributes(text, printed):
    assert str(parse_attribute(text)) == printed


def test_dot_algorithm_prints_every_field():
    text = ("#stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, "
            "lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, "
            "allow_imprecise_accumulation = false>")
    a = parse_attribute(text)
    assert isinstance(a, S.DotAlgorithmAttr) and str(a) == text


@pytest.mark.parametrize(("text", "message"), [
    ("#stablehlo.dot_algorithm<lhs_precision_type = f32, rhs_precision_type = i8, accumulation_type = f32, "
     "lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, "
     "allow_imprecise_accumulation = false>", "dot algorithm not known to be supported on any hardware"),
    ("#stablehlo.result_accuracy<atol = 1.0, mode = #stablehlo.result_accuracy_mode<HIGHEST>>",
     "Invalid tolerances for ResultAccuracyAttr with mode HIGHEST, must be all zero."),
    ("#stablehlo.gather<offset_dims = [1], offset_dims = [2]>", "duplicated `offset_dims` entry"),
    ("#stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 2, f]>", "Expected spatial dimensions 0, 1 not specified"),
])
def test_invalid_stablehlo_attributes_are_errors(text, message):
    with pytest.raises(AttrSyntaxError, match=message):
        parse_attribute(text)


def test_conv_body_round_trips_through_the_pretty_form():
    text = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window"
    a, end = parse_body(S.ConvDimensionNumbersAttr, AttrReader(text), 0, len(text))
    assert a.input_spatial_dimensions == (1, 2) and a.kernel_input_feature_dimension == 2
    assert (a.print_body(), text[end:]) == ("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", ", window")


@pytest.mark.parametrize(("text", "pretty"), [
    ("contracting_dims = [1] x [0]", "contracting_dims = [1] x [0]"),
    ("batching_dims = [0] x [0],contracting_dims=[2]x[1]", "batching_dims = [0] x [0], contracting_dims = [2] x [1]"),
])
def test_dot_dimension_numbers_pretty_form(text, pretty):
    a, end = parse_dot_pretty(AttrReader(text), 0, len(text))
    assert a.print_pretty() == pretty and end == len(text)


def test_sdy_attributes_use_the_sdy_parser():
    a = parse_attribute('{s = #sdy.sharding<@mesh, [{"a"}, {}]>}')
    assert isinstance(a.get("s"), TensorShardingAttr)
    assert str(a) == '{s = #sdy.sharding<@mesh, [{"a"}, {}]>}'


def test_other_dialect_attributes_are_kept_as_written():
    a = parse_attribute('#foo.bar<x  =   "a>b">')
    assert a == OpaqueAttr('#foo.bar<x  =   "a>b">') and str(a) == '#foo.bar<x  =   "a>b">'


@pytest.mark.parametrize(("text", "message", "offset"), [
    ("[1, 2", "expected ']' to close the array, found end of text", 5),
    ("{a = }", "expected an attribute, found '}'", 5),
    ("#foo<", "expected '>' to close the body opened here", 4),
    ('"abc', "unterminated string literal", 0),
    ("[" * 10000 + "]" * 10000, "nesting deeper than 200 levels", 200),
])
def test_junk_gives_located_errors(text, message, offset):
    with pytest.raises(AttrSyntaxError) as e:
        parse_attribute(text)
    assert message in e.value.message and e.value.offset == offset
