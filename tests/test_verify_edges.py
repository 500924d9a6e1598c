"""Verifier rules B49-B56, C9-C10: propagation edges."""
from __future__ import annotations

import pytest
from verify_helpers import diagnostics, errors

import shardy_py
from shardy_py.ir.attrs import OpaqueAttr
from shardy_py.syntax.parser import parse_module
from shardy_py.verify import verify

HEAD = 'sdy.mesh @mesh = <["a"=2, "b"=2]>\n'
SHARDED = 'sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>'


def add(attrs: str) -> str:
    return HEAD + ("func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
                   f"  %0 = stablehlo.add %arg0, %arg0 {{{attrs}}} : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}}")


def edges(*steps: str) -> str:
    return "sdy.propagation_edges = #sdy.propagation_edges<[" + ", ".join(steps) + "]>"


def edge_list(name: str, *steps: str) -> str:
    """``name = [#sdy.propagation_edges<[steps...]>]`` (one element)."""
    return f"{name} = [#sdy.propagation_edges<[" + ", ".join(steps) + "]>]"


GOOD_STEP = '{step-0 = [{"a" = operand-0 -> [result-0]}]}'
#: One step breaking each parse-time rule, and what is reported (in any edges attribute).
PARSE_TIME_CASES = [
    ('{step-2 = [{"a" = operand-0 -> [result-0]}]}, {step-2 = [{"a" = operand-1 -> [result-0]}]}',
     "propagation edge step index 2 appears more than once"),
    ('{step--1 = [{"a" = operand-0 -> [result-0]}]}',
     "propagation edge step index -1 is negative; step indices must be >= 0"),
    ('{step-1 = [{"a" = operand-0 -> [operand-0]}]}', "propagation edge in step 1 has operand-0 as both source and target"),  # noqa: E501
    ('{step-1 = [{"a":(1)2 = operand-0 -> [result-0, result-0]}]}',
     "propagation edge in step 1 for axis a lists target result-0 more than once"),
]


def test_valid_edges():
    assert errors(add(edges('{step-0 = [{"a" = operand-0 -> [result-0]}]}') + ", " + SHARDED)) == []
    assert errors(add("sdy.result_propagation_edges = [#sdy.propagation_edges<[{step-0 = "
                      '[{"a" = operand-9 -> [result-0]}]}]>]')) == []  # not checked against the op (C10)


@pytest.mark.parametrize("step, want", PARSE_TIME_CASES)
def test_parse_time_edge_rules(step, want):
    # Checked before anything else: the missing sharding is not reported.
    assert errors(add(edges(step))) == ["3: " + want]


@pytest.mark.parametrize("step, with_sharding, want", [
    ('{step-0 = [{"a" = operand-0 -> [result-0]}]}', False,
     "propagation edges must reference at least one value that has a sharding"),
    ('{step-0 = [{"q" = operand-0 -> [result-0]}]}', True,
     'propagation edge axis "q" is not an axis of the mesh of the referenced values'),
    ('{step-0 = [{"a" = operand-0 -> [result-0, operand-2]}]}', True,
     "propagation edge refers to operand-2, but the op has 2 operand(s) (valid indices [0, 2))"),
])
def test_edges_on_op(step, with_sharding, want):
    attrs = edges(step) + (", " + SHARDED if with_sharding else "")
    assert errors(add(attrs)) == ["3: 'stablehlo.add' op " + want]


def test_attribute_kinds():
    assert errors(add("sdy.propagation_edges = 64")) == [
        "3: 'stablehlo.add' op attribute 'sdy.propagation_edges' must be a #sdy.propagation_edges, got '64 : i64'"]
    assert errors(add("sdy.block_arg_propagation_edges = 3")) == [
        "3: 'stablehlo.add' op attribute 'sdy.block_arg_propagation_edges' must be an array of #sdy.propagation_edges"]


# -- the elements of sdy.block_arg_propagation_edges / sdy.result_propagation_edges (B49-B52, C10) --

@pytest.mark.parametrize("name", ["sdy.block_arg_propagation_edges", "sdy.result_propagation_edges"])
@pytest.mark.parametrize("step, want", PARSE_TIME_CASES)
def test_parse_time_edge_rules_inside_edge_lists(name, step, want):
    assert errors(add(edge_list(name, step))) == ["3: " + want]


def test_edge_list_elements_are_checked_one_by_one():
    good = f"#sdy.propagation_edges<[{GOOD_STEP}]>"
    bad = '#sdy.propagation_edges<[{step-4 = [{"b" = result-0 -> [result-0]}]}]>'
    assert errors(add(f"sdy.result_propagation_edges = [{good}, {good}, {bad}]")) == [
        "3: propagation edge in step 4 has result-0 as both source and target"]


def test_edge_list_error_is_at_the_failing_element():
    # Where the C++ Shardy reports it: the '<' of the element, on its own line.
    text = HEAD + ("func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
                   "  %0 = stablehlo.add %arg0, %arg0 {sdy.result_propagation_edges = [\n"
                   f"      #sdy.propagation_edges<[{GOOD_STEP}]>,\n"
                   '      #sdy.propagation_edges<[{step--3 = [{"a" = operand-0 -> [result-0]}]}]>\n'
                   "    ]} : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}")
    assert [(d.line, d.column, d.message) for d in diagnostics(text)] == [
        (5, 29, "propagation edge step index -3 is negative; step indices must be >= 0")]


@pytest.mark.parametrize("first_line", [1, 7])
def test_edge_list_error_position_in_an_explicit_module(first_line):
    # As in a chunk of a --split-input-file run starting at line `first_line`.
    text = ("// a comment\n\n  module {\n" + HEAD + "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
            "  %0 = stablehlo.add %arg0, %arg0 {sdy.result_propagation_edges = [\n"
            '      #sdy.propagation_edges<[{step--3 = [{"a" = operand-0 -> [result-0]}]}]>\n'
            "    ]} : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n}")
    diags = verify(parse_module(text, first_line=first_line))
    assert [(d.line, d.column) for d in diags] == [(first_line + 6, 29)]


def test_edges_attribute_error_is_at_the_attribute_value():
    text = HEAD + ("func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
                   f"  %0 = stablehlo.add %arg0, %arg0 {{{SHARDED}, sdy.propagation_edges =\n"
                   '      #sdy.propagation_edges<[{step--1 = [{"a" = operand-0 -> [result-0]}]}]>\n'
                   "    } : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}")
    assert [(d.line, d.column) for d in diagnostics(text)] == [(4, 29)]


def test_edges_inside_any_attribute_are_checked():
    # The C++ Shardy checks every #sdy.propagation_edges it parses, wherever it is written.
    step = '{step-0 = [{"a" = operand-0 -> [operand-0]}]}'
    assert errors(add(f"foo = {{k = [1, #sdy.propagation_edges<[{step}]>]}}")) == [
        "3: propagation edge in step 0 has operand-0 as both source and target"]


def test_meshes_inside_any_attribute_are_checked():
    assert errors(add('foo = [#sdy.mesh<["x"=0]>]')) == ['3: mesh axis "x" has size 0; axis sizes must be at least 1']


def test_edge_list_contents_are_not_checked_against_the_op():
    # B53-B56 are for sdy.propagation_edges only: unknown axes and values out of range pass (C10).
    assert errors(add(edge_list("sdy.result_propagation_edges", '{step-0 = [{"q" = operand-7 -> [result-5]}]}'))) == []


def test_empty_edge_list():
    assert errors(add("sdy.block_arg_propagation_edges = []")) == []


@pytest.mark.parametrize("value", [
    f"[#sdy.propagation_edges<[{GOOD_STEP}]>, 3]",
    f"[[#sdy.propagation_edges<[{GOOD_STEP}]>]]",
    f"[#sdy.propagation_edges<[{GOOD_STEP}]>, #sdy.mesh<[]>]",
    f"#sdy.propagation_edges<[{GOOD_STEP}]>",
])
def test_edge_list_must_hold_only_propagation_edges(value):
    assert errors(add(f"sdy.result_propagation_edges = {value}")) == [
        "3: 'stablehlo.add' op attribute 'sdy.result_propagation_edges' must be an array of #sdy.propagation_edges"]


def test_malformed_edge_list_element_is_a_located_parse_error():
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(add("sdy.result_propagation_edges = [#sdy.propagation_edges<[]>]"))
    assert (e.value.line, e.value.column, e.value.message) == (3, 92, "expected '{', got ']'")


def test_edge_list_elements_are_modelled():
    element = f"#sdy.propagation_edges<[{GOOD_STEP}]>"
    m = shardy_py.parse(add(f"sdy.result_propagation_edges = [{element}, {element}]"))
    value = m.funcs["f"].regions[0].blocks[0].ops[0].attributes["sdy.result_propagation_edges"]
    assert isinstance(value, OpaqueAttr)
    assert value.sdy_array == (shardy_py.parse_attribute(element),) * 2


def test_respaced_edge_list_prints_canonically():
    element = '#sdy.propagation_edges< [ {step-0 = [{"a" = operand-0 -> [result-0]}]}]>'
    m = shardy_py.parse(add(f"sdy.result_propagation_edges = [\n      {element}  ,{element}\n    ]"))
    canonical = f"#sdy.propagation_edges<[{GOOD_STEP}]>"
    assert f"{{sdy.result_propagation_edges = [{canonical}, {canonical}]}}" in str(m)


@pytest.mark.parametrize("ref", ["operand-0", "operand-1", "operand-2", "result-1"])
def test_edge_indices_on_a_data_flow_edge_are_not_checked(ref):
    # operand-N of an sdy.data_flow_edge is its owner's N-th data-flow source (jaxlib 0.12's propagation
    # writes operand-1 on a while result's edge); jaxlib 0.12's verifier checks no index there, as it
    # checks none on sdy.func_data_flow_edge
    text = HEAD + ('func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})'
                   ' -> tensor<8xf32> {\n'
                   "  %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>\n"
                   '  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a", ?}]> {sdy.propagation_edges = '
                   f'#sdy.propagation_edges<[{{step-2 = [{{"a" = {ref} -> [result-0]}}]}}]>}} : tensor<8xf32>\n'
                   "  return %1 : tensor<8xf32>\n}")
    assert diagnostics(text) == []
