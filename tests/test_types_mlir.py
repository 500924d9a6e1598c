"""MLIR types read by ``syntax.attr_reader`` into ``ir.types`` values, printed in MLIR's canonical spelling."""
from __future__ import annotations

import pytest

from shardy_py.errors import AttrSyntaxError
from shardy_py.ir import types as T
from shardy_py.syntax.attr_reader import AttrReader, parse_mlir_type


@pytest.mark.parametrize(("text", "cls", "printed"), [
    ("i1", T.IntegerType, "i1"),
    ("ui8", T.IntegerType, "ui8"),
    ("si32", T.IntegerType, "si32"),
    ("bf16", T.FloatType, "bf16"),
    ("f8E4M3FN", T.FloatType, "f8E4M3FN"),
    ("index", T.IndexType, "index"),
    ("none", T.NoneType, "none"),
    ("complex<f32>", T.ComplexType, "complex<f32>"),
    ("tuple<tensor<f32>,tensor<i32>>", T.TupleType, "tuple<tensor<f32>, tensor<i32>>"),
    ("tuple<>", T.TupleType, "tuple<>"),
    ("(tensor<f32>) -> (tensor<f32>)", T.FunctionType, "(tensor<f32>) -> tensor<f32>"),
    ("(i32, i32) -> (i32, i32)", T.FunctionType, "(i32, i32) -> (i32, i32)"),
    ("(i32) -> ((i32) -> i32)", T.FunctionType, "(i32) -> ((i32) -> i32)"),
    ("tensor<4 x f32>", T.RankedTensorType, "tensor<4xf32>"),
    ("tensor<? x 4 x f32>", T.RankedTensorType, "tensor<?x4xf32>"),
    ("tensor<*xf32>", T.UnrankedTensorType, "tensor<*xf32>"),
    ("tensor<4x4xf32,#foo.enc>", T.RankedTensorType, "tensor<4x4xf32, #foo.enc>"),
    # (the encoding is an optional attribute after the comma: jaxlib 0.12 reads `tensor<f32,>` as `tensor<f32>`;
    # found by CI's atheris session with MLIR's verdict, where we had rejected it)
    ("tensor<f32,>", T.RankedTensorType, "tensor<f32>"),
    ("tensor<4xf32, >", T.RankedTensorType, "tensor<4xf32>"),
    ("tensor<4x?xf32, #stablehlo.type_extensions<bounds = [?, 4]>>", T.RankedTensorType,
     "tensor<4x?xf32, #stablehlo.bounds<?, 4>>"),
    ("vector<4x[8]xf32>", T.VectorType, "vector<4x[8]xf32>"),
    ("memref<4xf32, 1>", T.MemRefType, "memref<4xf32, 1>"),
    ("!stablehlo.token", T.TokenType, "!stablehlo.token"),
    ("!stablehlo.future<tensor<f32> >", T.FutureType, "!stablehlo.future<tensor<f32>>"),
    ("!foo<\"a\">", T.Type, "!foo<\"a\">"),
])
def test_types_print_canonically(text, cls, printed):
    t = parse_mlir_type(text)
    assert type(t) is cls and str(t) == printed


def test_ranked_tensor_fields():
    t = parse_mlir_type("tensor<8x?x4xcomplex<f32>>")
    assert (t.shape, t.rank, t.element_type, t.encoding) == ((8, T.DYNAMIC, 4), 3, "complex<f32>", None)
    assert isinstance(t.element, T.ComplexType)


def test_tensor_encoding_is_an_attribute():
    t = parse_mlir_type("tensor<?xf32, #stablehlo.bounds<4>>")
    assert t.encoding == "#stablehlo.bounds<4>" and t.encoding_attr.bounds == (4,)


def test_function_type_members():
    t = parse_mlir_type("(tensor<f32>, i32) -> tensor<f32>")
    assert [str(x) for x in t.inputs] == ["tensor<f32>", "i32"] and [str(x) for x in t.results] == ["tensor<f32>"]


def test_parse_type_is_memoised_and_typed():
    assert T.parse_type("tensor<2xf32>") is T.parse_type("tensor<2xf32>")
    assert isinstance(T.parse_type("tuple<i32>"), T.TupleType)


def test_parse_type_keeps_text_that_is_no_type():
    assert T.parse_type("4x8") == T.Type("4x8")


@pytest.mark.parametrize(("text", "printed"), [
    ("!quant.uniform<i8:f32, 1.0:17>", "!quant.uniform<i8:f32, 1.000000e+00:17>"),
    ("!quant.uniform<i8:f32, 0.1>", "!quant.uniform<i8:f32, 1.000000e-01>"),
    ("!quant.uniform<i8<-127:127>:f32, 1.0e-2:-3>", "!quant.uniform<i8<-127:127>:f32, 1.000000e-02:-3>"),
    ("!quant.uniform<i8<-128:127>:f32, 2.0>", "!quant.uniform<i8:f32, 2.000000e+00>"),
    ("!quant.uniform<u8:f32, 2.0:10>", "!quant.uniform<u8:f32, 2.000000e+00:10>"),
    ("!quant.uniform<si8:f32, 1.0>", "!quant.uniform<si8:f32, 1.000000e+00>"),
    ("!quant.uniform<i8:f32:1, {1.0:17, 2.0}>", "!quant.uniform<i8:f32:1, {1.000000e+00:17,2.000000e+00}>"),
])
def test_quantized_types_print_as_the_quant_dialect_does(text, printed):
    t = parse_mlir_type(text)
    assert isinstance(t, T.QuantizedType) and str(t) == printed


def test_quantized_type_fields():
    t = parse_mlir_type("!quant.uniform<i8<-127:127>:f32:0, {0.5:3, 0.25}>")
    assert (t.signed, t.storage_width, t.storage_min, t.storage_max) == (True, 8, -127, 127)
    assert (t.storage_type, str(t.expressed_type)) == ("i8", "f32")
    assert (t.quantized_dimension, t.zero_points, len(t.scales)) == (0, (3, 0), 2)


@pytest.mark.parametrize(("text", "message"), [
    ("tensor<4xf32", "expected '>' to close the tensor type"),
    ("tensor<?xf32>x", "unexpected 'x' after the value"),
    ("foo", "expected non-function type"),
    ("!stablehlo.future<f32>", "future element type must be a ranked tensor"),
    ("tensor<3xf32, #stablehlo.bounds<3>>", "Static dimension 0 cannot have a bound"),
    ("tensor<" * 3000 + "f32" + ">" * 3000, "nesting deeper than"),
])
def test_bad_types_are_errors(text, message):
    with pytest.raises(AttrSyntaxError, match=message):
        parse_mlir_type(text)


def test_type_reader_stops_right_after_the_type():
    text = "  tensor<2xf32> loc(#x)"
    t, end = AttrReader(text).type(0, len(text))
    assert str(t) == "tensor<2xf32>" and text[end:] == " loc(#x)"
