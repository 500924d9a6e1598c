"""CHLO's verifiers (ragged_dot, top_k, scan, constant_like, mulhi, the broadcasting ops' element
types): MLIR's message at MLIR's line, checked against jaxlib 0.12 where it agrees."""
from __future__ import annotations

import pytest
from stablehlo_verify_cases import check, jaxlib, module, ours

_RAGGED = ("#chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
           "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [{ragged}], "
           "rhs_group_dimensions = [{group}]>")


def _ragged_dot(rhs: str = "tensor<3x8x5xf32>", groups: str = "tensor<3xi64>", ragged: str = "0",
                group: str = "0", result: str = "tensor<4x5xf32>") -> str:
    dn = _RAGGED.format(ragged=ragged, group=group)
    return module(f"%l: tensor<4x8xf32>, %r: {rhs}, %g: {groups}", result, f"""\
        %o = "chlo.ragged_dot"(%l, %r, %g) {{ragged_dot_dimension_numbers = {dn}}}
          : (tensor<4x8xf32>, {rhs}, {groups}) -> {result}
        return %o : {result}
        """)


def test_valid_ragged_dot_is_clean() -> None:
    assert ours(_ragged_dot()) == []
    assert jaxlib(_ragged_dot()) == []


@pytest.mark.parametrize(("kw", "message"), [
    ({"rhs": "tensor<3x7x5xf32>"}, "contracting dimension sizes must match for lhs/rhs"),
    ({"groups": "tensor<2xi64>"}, "rhs group dimension is expected to have size=2, got 3"),
    ({"groups": "tensor<2x3xi64>"}, "expected group_sizes to have rank 1, got 2"),
    ({"ragged": "", "group": "0"}, "There must be exactly one ragged dimension in the lhs."),
    ({"group": ""}, "There must be exactly one group dimension in the rhs when the lhs ragged dimension is "
                    "non-contracting."),
    ({"result": "tensor<4x6xf32>"}, "inferred shape '[4, 5]' is incompatible with return type of operation "
                                    "'tensor<4x6xf32>'"),
])
def test_ragged_dot_rules(kw: dict, message: str) -> None:
    check(_ragged_dot(**kw), message)


@pytest.mark.parametrize("config", ["precision_config", "precision_config = [#stablehlo<precision DEFAULT>]",
                                    "precision_config = 1 : i64"])
def test_ragged_dot_precision_config_is_an_array_of_chlo_precisions(config: str) -> None:
    """ODS ``CHLO_PrecisionConfigAttr``, checked before the op's verifier (the 10,000-mutant run at seed 8: a
    line cut to a bare ``precision_config``, a unit attribute, was accepted)."""
    text = _ragged_dot().replace("{ragged_dot_dimension_numbers", "{" + config + ", ragged_dot_dimension_numbers")
    check(text, "'chlo.ragged_dot' op attribute 'precision_config' failed to satisfy constraint: Precision Config "
                "attribute")


def test_ragged_dot_with_chlo_precisions_is_clean() -> None:
    text = _ragged_dot().replace("{ragged_dot_dimension_numbers", "{precision_config = [#chlo<precision DEFAULT>, "
                                 "#chlo<precision HIGH>], ragged_dot_dimension_numbers")
    assert ours(text) == []
    assert jaxlib(text) == []


def _top_k(operand: str, k: int) -> str:
    return module(f"%x: {operand}", "tensor<4xf32>", f"""\
        %v, %i = chlo.top_k(%x, k = {k}) : {operand} -> (tensor<4xf32>, tensor<4xi32>)
        return %v : tensor<4xf32>
        """)


def test_top_k_operand() -> None:
    assert ours(_top_k("tensor<8xf32>", 4)) == []
    check(_top_k("tensor<2xf32>", 4), "operand's last dimension must be at least 4")


def test_constant_like_value_type() -> None:
    text = module("%x: tensor<2xi32>", "tensor<2xi32>", """\
        %c = "chlo.constant_like"(%x) {value = 1.0 : f32} : (tensor<2xi32>) -> tensor<2xi32>
        return %c : tensor<2xi32>
        """)
    check(text, "'chlo.constant_like' op value's type doesn't match element return type")


def test_mulhi_takes_integers() -> None:
    text = module("%x: tensor<2xi1>", "tensor<2xi1>", """\
        %m = chlo.mulhi %x, %x : tensor<2xi1>, tensor<2xi1> -> tensor<2xi1>
        return %m : tensor<2xi1>
        """)
    check(text, "'chlo.mulhi' op operand #0 must be ranked tensor of 2/4/8/16/32/64-bit integer values, but got "
                "'tensor<2xi1>'")


def _scan(body_arg: str) -> str:
    return module("%x: tensor<4x3xf32>, %c: tensor<3xf32>", "tensor<3xf32>", f"""\
        %o, %r = chlo.scan (%x) inits (%c) dimension=0 {{
        ^bb0(%in: {body_arg}, %carry: tensor<3xf32>):
          stablehlo.return %carry, %carry : tensor<3xf32>, tensor<3xf32>
        }} : (tensor<4x3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
        return %r : tensor<3xf32>
        """)


def test_scan_body_arguments() -> None:
    assert ours(_scan("tensor<3xf32>")) == []
    assert jaxlib(_scan("tensor<3xf32>")) == []
    assert ours(_scan("tensor<4xf32>")) == [(2, "'chlo.scan' op operand and body argument 0 are incompatible")]


def test_broadcast_add_quantized_elements_must_be_compatible() -> None:
    """The trait's message as StableHLO's test (ops_chlo.mlir) expects it.  jaxlib's Python MLIR has no quant
    dialect (``!quant.uniform`` does not parse there), so it cannot be the oracle of this rule."""
    q8, q16 = "tensor<2x!quant.uniform<i8:f32, 2.0:15>>", "tensor<2x!quant.uniform<i16:f32, 2.0:15>>"
    text = module(f"%a: {q8}, %b: {q8}", q16, f"""\
        %r = "chlo.broadcast_add"(%a, %b) : ({q8}, {q8}) -> {q16}
        return %r : {q16}
        """)
    assert ours(text) == [(2, "'chlo.broadcast_add' op requires compatible element types for all operands and "
                              "results")]


def test_scan_results_are_inferred_from_the_body() -> None:
    text = _scan("tensor<3xf32>").replace("-> (tensor<4x3xf32>, tensor<3xf32>)", "-> (tensor<5x3xf32>, tensor<3xf32>)")
    check(text, "'chlo.scan' op inferred type(s) 'tensor<4x3xf32>', 'tensor<3xf32>' are incompatible with return "
                "type(s) of operation 'tensor<5x3xf32>', 'tensor<3xf32>'")


def test_mulhi_operands_and_result_are_compatible() -> None:
    text = module("%x: tensor<2xi32>, %y: tensor<3xi32>", "tensor<2xi32>", """\
        %m = chlo.mulhi %x, %y : tensor<2xi32>, tensor<3xi32> -> tensor<2xi32>
        return %m : tensor<2xi32>
        """)
    check(text, "'chlo.mulhi' op requires compatible types for all operands and results")


@pytest.mark.parametrize(("lhs", "rhs", "dims", "result", "message"), [
    ("tensor<2x3xf32>", "tensor<3xf32>", "", "tensor<2x3xf32>", None),
    ("tensor<2x3xf32>", "tensor<2xf32>", ", broadcast_dimensions = array<i64: 0>", "tensor<2x3xf32>", None),
    ("tensor<2x3xf32>", "tensor<3xf32>", "", "tensor<3x3xf32>",
     "'chlo.broadcast_add' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation "
     "'tensor<3x3xf32>'"),
])
def test_broadcast_result_shape(lhs: str, rhs: str, dims: str, result: str, message: str | None) -> None:
    text = module(f"%a: {lhs}, %b: {rhs}", result, f"""\
        %r = "chlo.broadcast_add"(%a, %b) {{{dims.lstrip(', ')}}} : ({lhs}, {rhs}) -> {result}
        return %r : {result}
        """)
    if message is None:
        assert ours(text) == []
        assert jaxlib(text) == []
    else:
        check(text, message)


def test_scan_results_are_compared_by_shape_only() -> None:
    """``ScanOp::isCompatibleReturnTypes`` is ``verifyCompatibleShapes``: a carry of another element type than the
    body returns is accepted (jaxlib 0.12 accepts it; found by the differential mutant run)."""
    text = _scan("tensor<3xf32>").replace("-> (tensor<4x3xf32>, tensor<3xf32>)", "-> (tensor<4x3xf32>, tensor<3xbf16>)")
    text = text.replace("return %r : tensor<3xf32>", "return %c : tensor<3xf32>")
    assert ours(text) == []
    assert jaxlib(text) == []


def test_top_k_of_an_unranked_operand_infers_unranked_results() -> None:
    text = module("%x: tensor<*xf32>", "tensor<*xi32>", """\
        %v, %i = chlo.top_k(%x, k=8) : tensor<*xf32> -> (tensor<*xi32>, tensor<*xi32>)
        return %i : tensor<*xi32>
        """)
    check(text, "'chlo.top_k' op inferred type(s) 'tensor<*xf32>', 'tensor<*xi32>' are incompatible with return "
                "type(s) of operation 'tensor<*xi32>', 'tensor<*xi32>'")
    assert ours(text.replace("-> (tensor<*xi32>, tensor<*xi32>)", "-> (tensor<*xf32>, tensor<*xi32>)")) == []
