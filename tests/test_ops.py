# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""Each op and the module skeleton: input text -> exact canonical output (the IR model: test_ops_model.py)."""
from __future__ import annotations

import textwrap

import pytest

import shardy_py
from shardy_py import (
    TensorShardingAttr,
    parse_attribute,
)


def d(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def fmt(text: str) -> str:
    return str(shardy_py.parse(d(text)))


def in_func(body: str, sig: str = "(%arg0: tensor<8xf32>) -> tensor<8xf32>", mesh: str = '<["a"=2, "b"=2]>') -> str:
    """A module with mesh @m and one func @f whose body is ``body`` (canonical indentation)."""
    lines = "".join(f"    {ln}\n" for ln in d(body).splitlines())
    return f"module {{\n  sdy.mesh @m = {mesh}\n  func.func @f{sig} {{\n{lines}  }}\n}}\n"


def assert_canonical(body: str, **kw) -> None:
    """``body`` inside a func is already canonical: printing reproduces it byte for byte."""
    text = in_func(body, **kw)
    assert str(shardy_py.parse(text)) == text


def sharding(text: str) -> TensorShardingAttr:
    return parse_attribute(f"#sdy.sharding{text}")


def func_ops(module, name: str = "f"):
    return module.funcs[name].regions[0].block.ops


# ---- sdy ops: canonical text round-trips ------------------------------------------------------------------


def test_mesh_op():
    assert fmt('sdy.mesh @m = < [ "a" = 2 , "b"=4 ] >') == 'module {\n  sdy.mesh @m = <["a"=2, "b"=4]>\n}\n'


def test_mesh_op_quoted_name_and_device_ids():
    assert fmt('sdy.mesh @"m-1" = <["x"=2], device_ids=[1,0]>') == \
        'module {\n  sdy.mesh @"m-1" = <["x"=2], device_ids=[1, 0]>\n}\n'


def test_mesh_op_iota_device_ids_dropped():
    assert fmt('sdy.mesh @m = <["x"=2], device_ids=[0, 1]>') == 'module {\n  sdy.mesh @m = <["x"=2]>\n}\n'


def test_mesh_op_maximal_and_empty():
    assert fmt("sdy.mesh @a = <[], device_ids=[3]>\nsdy.mesh @b = <[]>") == \
        "module {\n  sdy.mesh @a = <[], device_ids=[3]>\n  sdy.mesh @b = <[]>\n}\n"


def test_mesh_op_full_attribute_form_and_attr_dict():
    assert fmt('sdy.mesh @n = #sdy.mesh<["a"=2]> {b = 1, a}') == \
        'module {\n  sdy.mesh @n = <["a"=2]> {a, b = 1 : i64}\n}\n'


def test_sharding_constraint():
    assert_canonical('%0 = sdy.sharding_constraint %arg0 <@m, [{"a", ?}p1]> : tensor<8xf32>\nreturn %0 : tensor<8xf32>')


def test_sharding_constraint_respaced():
    text = in_func('%0 = sdy.sharding_constraint %arg0 <@m,[{ "a" ,?}p1]> : tensor<8xf32>\nreturn %0 : tensor<8xf32>')
    assert str(shardy_py.parse(text)) == in_func(
        '%0 = sdy.sharding_constraint %arg0 <@m, [{"a", ?}p1]> : tensor<8xf32>\nreturn %0 : tensor<8xf32>')


def test_sharding_constraint_inline_mesh():
    assert_canonical('%0 = sdy.sharding_constraint %arg0 <mesh<["a"=2]>, [{?}]> : tensor<8xf32>\n'
                     'return %0 : tensor<8xf32>')


def test_reshard_with_replicated():
    assert_canonical('%0 = sdy.reshard %arg0 <@m, [{}], replicated={"a"}> : tensor<8xf32>\nreturn %0 : tensor<8xf32>')


def test_reshard_unreduced_before_replicated_is_reordered():
    src = in_func('%0 = sdy.reshard %arg0 <@m, [{}], unreduced={"b"}, replicated={"a"}> : tensor<8xf32>\n'
                  'return %0 : tensor<8xf32>')
    assert str(shardy_py.parse(src)) == in_func(
        '%0 = sdy.reshard %arg0 <@m, [{}], replicated={"a"}, unreduced={"b"}> : tensor<8xf32>\n'
        'return %0 : tensor<8xf32>')


def test_manual_computation():
    assert_canonical('''\
        %0 = sdy.manual_computation(%arg0) in_shardings=[<@m, [{"a", ?}]>] out_shardings=[<@m, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
          %1 = stablehlo.add %arg1, %arg1 : tensor<4xf32>
          sdy.return %1 : tensor<4xf32>
        } : (tensor<8xf32>) -> tensor<8xf32>
        return %0 : tensor<8xf32>''')


def test_manual_computation_empty():
    assert_canonical('''\
        sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
          sdy.return
        } : () -> ()
        return''', sig="()")


def test_manual_computation_attr_dict_after_region():
    assert_canonical('''\
        %0 = sdy.manual_computation(%arg0) in_shardings=[<@m, [{"a"}]>] out_shardings=[<@m, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
          sdy.return %arg1 : tensor<4xf32>
        } {xyz} : (tensor<8xf32>) -> tensor<8xf32>
        return %0 : tensor<8xf32>''')


def test_named_computation_with_shardings():
    assert_canonical('''\
        %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@m, [{"a"}]>] out_shardings=[<@m, [{}]>] (%arg1: tensor<8xf32>) {
          sdy.return %arg1 : tensor<8xf32>
        } : (tensor<8xf32>) -> tensor<8xf32>
        return %0 : tensor<8xf32>''')


def test_named_computation_escaped_name_without_shardings():
    assert_canonical('''\
        %0 = sdy.named_computation<"a\\22b c">(%arg0) (%arg1: tensor<8xf32>) {
          sdy.return %arg1 : tensor<8xf32>
        } : (tensor<8xf32>) -> tensor<8xf32>
        return %0 : tensor<8xf32>''')


def test_data_flow_edge():
    assert_canonical('%0 = sdy.data_flow_edge %arg0 sharding=<@m, [{"a"}]> : tensor<8xf32>\nreturn %0 : tensor<8xf32>')


def test_data_flow_edge_without_sharding():
    assert_canonical("%0 = sdy.data_flow_edge %arg0 : tensor<8xf32>\nreturn %0 : tensor<8xf32>")


def test_func_data_flow_edge():
    assert_canonical("%0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>\nreturn %0 : tensor<8xf32>")


def test_func_data_flow_edge_with_propagation_edges():
    assert_canonical(
        '%0 = sdy.func_data_flow_edge %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-22 = '
        '[{"a" = result-0 -> [operand-3]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a", ?}]>]>} '
        ': tensor<8xf32>\nreturn %0 : tensor<8xf32>')


@pytest.mark.parametrize("direction", ["NONE", "FORWARD", "BACKWARD", "BOTH"])
def test_propagation_barrier(direction):
    assert_canonical(f"%0 = sdy.propagation_barrier %arg0 allowed_direction={direction} : tensor<8xf32>\n"
                     "return %0 : tensor<8xf32>")


def test_propagation_barrier_with_attr_dict():
    assert_canonical("%0 = sdy.propagation_barrier %arg0 allowed_direction=NONE {foo} : tensor<8xf32>\n"
                     "return %0 : tensor<8xf32>")


def test_sharding_group():
    assert_canonical("sdy.sharding_group %arg0 group_id=21 : tensor<8xf32>\nreturn %arg0 : tensor<8xf32>")


def test_constant():
    assert_canonical("%0 = sdy.constant dense<1.000000e+00> : tensor<8xf32>\nreturn %0 : tensor<8xf32>")


def test_constant_with_attr_dict():
    src = in_func("%0 = sdy.constant {foo = 1} dense<[1, 2]> : tensor<2xi32>\nreturn %arg0 : tensor<8xf32>")
    assert str(shardy_py.parse(src)) == in_func(
        "%0 = sdy.constant {foo = 1 : i64} dense<[1, 2]> : tensor<2xi32>\nreturn %arg0 : tensor<8xf32>")


def test_constant_float_is_printed_canonically():
    src = in_func("%0 = sdy.constant dense<1.0> : tensor<8xf32>\nreturn %0 : tensor<8xf32>")
    assert str(shardy_py.parse(src)) == in_func(
        "%0 = sdy.constant dense<1.000000e+00> : tensor<8xf32>\nreturn %0 : tensor<8xf32>")


def test_all_gather():
    assert_canonical('%0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@m, [{}]> : tensor<8xf32>\n'
                     "return %0 : tensor<8xf32>")


def test_all_reduce():
    assert_canonical('%0 = sdy.all_reduce {"a"} %arg0 out_sharding=<@m, [{"b"}]> : tensor<8xf32>\n'
                     "return %0 : tensor<8xf32>")


def test_all_reduce_max():
    assert_canonical('%0 = sdy.all_reduce max {"a"} %arg0 out_sharding=<@m, [{"b"}]> : tensor<8xf32>\n'
                     "return %0 : tensor<8xf32>")


def test_all_reduce_explicit_sum_is_dropped():
    src = in_func('%0 = sdy.all_reduce sum {"a"} %arg0 out_sharding=<@m, [{}]> :  tensor<8xf32>\n'
                  "return %0 : tensor<8xf32>")
    assert str(shardy_py.parse(src)) == in_func(
        '%0 = sdy.all_reduce {"a"} %arg0 out_sharding=<@m, [{}]> : tensor<8xf32>\nreturn %0 : tensor<8xf32>')


def test_all_slice():
    assert_canonical('%0 = sdy.all_slice [{"a"}] %arg0 out_sharding=<@m, [{"a"}]> : tensor<8xf32>\n'
                     "return %0 : tensor<8xf32>")


def test_all_to_all():
    assert_canonical('%0 = sdy.all_to_all [{"a"}: 0->1] %arg0 out_sharding=<@m, [{}, {"a"}]> : tensor<8x8xf32>\n'
                     "return %0 : tensor<8x8xf32>", sig="(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32>")


def test_all_to_all_respaced():
    src = in_func('%0 = sdy.all_to_all [{"a"}:0 -> 1, {"b"} : 1->0] %arg0 out_sharding=<@m, [{"b"}, {"a"}]> '
                  ': tensor<8x8xf32>\nreturn %0 : tensor<8x8xf32>', sig="(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32>")
    assert str(shardy_py.parse(src)) == in_func(
        '%0 = sdy.all_to_all [{"a"}: 0->1, {"b"}: 1->0] %arg0 out_sharding=<@m, [{"b"}, {"a"}]> : tensor<8x8xf32>\n'
        "return %0 : tensor<8x8xf32>", sig="(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32>")


def test_collective_permute():
    assert_canonical('%0 = sdy.collective_permute %arg0 out_sharding=<@m, [{"b"}]> : tensor<8xf32>\n'
                     "return %0 : tensor<8xf32>")


def test_reduce_scatter():
    assert_canonical('%0 = sdy.reduce_scatter [{"a"}] %arg0 out_sharding=<@m, [{"a"}]> : tensor<8xf32>\n'
                     "return %0 : tensor<8xf32>")


def test_reduce_scatter_max():
    assert_canonical('%0 = sdy.reduce_scatter max [{"a"}] %arg0 out_sharding=<@m, [{"a"}]> : tensor<8xf32>\n'
                     "return %0 : tensor<8xf32>")


def test_replicated_to_unreduced():
    assert_canonical('%0 = sdy.replicated_to_unreduced {"a"} %arg0 out_sharding=<@m, [{"b"}], unreduced={"a"}> '
                     ": tensor<8xf32>\nreturn %0 : tensor<8xf32>")


def test_replicated_to_unreduced_sub_axes():
    assert_canonical('%0 = sdy.replicated_to_unreduced {"a":(1)2, "b"} %arg0 out_sharding=<@m, [{}], '
                     'unreduced={"a", "b"}> : tensor<8xf32>\nreturn %0 : tensor<8xf32>', mesh='<["a"=4, "b"=2]>')


def test_sharded_to_unreduced():
    assert_canonical('%0 = sdy.sharded_to_unreduced [{"b"}] %arg0 out_sharding=<@m, [{}], unreduced={"b"}> '
                     ": tensor<8xf32>\nreturn %0 : tensor<8xf32>")


def test_sdy_return_without_operands():
    assert_canonical("""\
        sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
          sdy.return
        } : () -> ()
        return""", sig="()")


def test_generic_sdy_op_prints_custom_form():
    src = in_func('%0 = "sdy.all_gather"(%arg0) <{gathering_axes = #sdy<list_of_axis_ref_lists[{"a"}]>, '
                  'out_sharding = #sdy.sharding<@m, [{}]>}> : (tensor<8xf32>) -> tensor<8xf32>\n'
                  "return %0 : tensor<8xf32>")
    assert str(shardy_py.parse(src)) == in_func(
        '%0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@m, [{}]> : tensor<8xf32>\nreturn %0 : tensor<8xf32>')


def test_generic_sdy_op_properties_are_modelled():
    m = shardy_py.parse(in_func(
        '%0 = "sdy.all_gather"(%arg0) <{gathering_axes = #sdy<list_of_axis_ref_lists[{"a"}]>, '
        'out_sharding = #sdy.sharding<@m, [{}]>}> : (tensor<8xf32>) -> tensor<8xf32>\nreturn %0 : tensor<8xf32>'))
    op = func_ops(m)[0]
    assert op.properties["out_sharding"] == sharding("<@m, [{}]>")
    assert m.sharding_of(op.results[0]) == sharding("<@m, [{}]>")


# ---- module skeleton --------------------------------------------------------------------------------------


def test_bare_ops_are_wrapped_in_module():
    assert fmt("func.func private @f()") == "module {\n  func.func private @f()\n}\n"


def test_module_name_and_sorted_attributes():
    assert fmt("""
        module @jit_f attributes {mhlo.num_partitions = 8 : i32, jax.uses_shape_polymorphism = false, a.b} {
        }""") == "module @jit_f attributes {a.b, jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32} {\n}\n"


def test_module_attribute_string_escape_kept():
    assert fmt('module attributes {m.s = "x\\22y"} {\n}') == 'module attributes {m.s = "x\\22y"} {\n}\n'


def test_func_visibility_and_declarations():
    assert fmt("""
        func.func public @a() {
          return
        }
        func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
        func.func nested @n()""") == (
        "module {\n  func.func public @a() {\n    return\n  }\n"
        "  func.func private @decl(tensor<4xf32>) -> tensor<4xf32>\n"
        "  func.func nested @n()\n}\n")


def test_func_arg_and_result_attributes_sorted():
    src = ('sdy.mesh @m = <["a"=2]>\n'
           'func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a",?}]>, '
           'jax.result_info = "x"}, %arg1: tensor<4xf32>) -> (tensor<8xf32> {jax.result_info = ""}, tensor<4xf32>) {\n'
           '  func.return %arg0, %arg1 : tensor<8xf32>, tensor<4xf32>\n}')
    assert str(shardy_py.parse(src)) == (
        'module {\n  sdy.mesh @m = <["a"=2]>\n'
        '  func.func public @main(%arg0: tensor<8xf32> {jax.result_info = "x", sdy.sharding = '
        '#sdy.sharding<@m, [{"a", ?}]>}, %arg1: tensor<4xf32>) -> (tensor<8xf32> {jax.result_info = ""}, '
        'tensor<4xf32>) {\n    return %arg0, %arg1 : tensor<8xf32>, tensor<4xf32>\n  }\n}\n')


def test_func_attributes_sorted():
    assert fmt("func.func @f() attributes {b = 1, a} {\n  return\n}") == \
        "module {\n  func.func @f() attributes {a, b = 1 : i64} {\n    return\n  }\n}\n"


def test_func_return_prints_as_return():
    assert fmt("func.func @f() {\n  func.return\n}") == "module {\n  func.func @f() {\n    return\n  }\n}\n"


def test_func_call_short_inside_func_full_inside_manual_computation():
    src = d('''
        sdy.mesh @m = <["a"=2]>
        func.func @g(%arg0: tensor<4xf32>) -> tensor<4xf32> {
          %0 = func.call @h(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
          %1 = sdy.manual_computation(%0) in_shardings=[<@m, [{"a"}]>] out_shardings=[<@m, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<2xf32>) {
            %2 = func.call @h2(%arg1) : (tensor<2xf32>) -> tensor<2xf32>
            sdy.return %2 : tensor<2xf32>
          } : (tensor<4xf32>) -> tensor<4xf32>
          return %1 : tensor<4xf32>
        }''')
    out = str(shardy_py.parse(src))
    assert "    %0 = call @h(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n" in out
    assert "      %2 = func.call @h2(%arg1) : (tensor<2xf32>) -> tensor<2xf32>\n" in out


def test_generic_form_with_regions():
    assert fmt('''
        func.func @f(%arg0: tensor<i32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
          %0 = "stablehlo.case"(%arg0) ({
            stablehlo.return %arg1 : tensor<4xf32>
          }, {
            stablehlo.return %arg1 : tensor<4xf32>
          }) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{ "a" }]>]>} : (tensor<i32>) -> tensor<4xf32>
          return %0 : tensor<4xf32>
        }''') == d('''
        module {
          func.func @f(%arg0: tensor<i32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
            %0 = "stablehlo.case"(%arg0) ({
              stablehlo.return %arg1 : tensor<4xf32>
            }, {
              stablehlo.return %arg1 : tensor<4xf32>
            }) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a"}]>]>} : (tensor<i32>) -> tensor<4xf32>
            return %0 : tensor<4xf32>
          }
        }
        ''')


def test_generic_form_properties_and_sorted_attributes():
    src = in_func('%0 = "foo.bar"(%arg0) <{a = "x", b = 1 : i64}> {z = unit, y = 1} : (tensor<8xf32>) -> tensor<8xf32>\n'
                  "return %0 : tensor<8xf32>")
    assert str(shardy_py.parse(src)) == in_func(
        '%0 = "foo.bar"(%arg0) <{a = "x", b = 1 : i64}> {y = 1 : i64, z = unit} : (tensor<8xf32>) -> tensor<8xf32>\n'
        "return %0 : tensor<8xf32>")


def test_generic_form_properties_sorted():
    src = in_func('%0 = "foo.bar"(%arg0) <{b = 1 : i64, a = "x"}> : (tensor<8xf32>) -> tensor<8xf32>\n'
                  "return %0 : tensor<8xf32>")
    assert str(shardy_py.parse(src)) == in_func(
        '%0 = "foo.bar"(%arg0) <{a = "x", b = 1 : i64}> : (tensor<8xf32>) -> tensor<8xf32>\n'
        "return %0 : tensor<8xf32>")


def test_unit_attribute_and_i64_default_type():
    src = in_func('"test.op"() {x = 1, a, v = [1, 2], u = array<i64: 1, 2>, t = dense<[1, 2]> : tensor<2xi32>} '
                  ": () -> ()\nreturn %arg0 : tensor<8xf32>")
    assert str(shardy_py.parse(src)) == in_func(
        '"test.op"() {a, t = dense<[1, 2]> : tensor<2xi32>, u = array<i64: 1, 2>, v = [1, 2], x = 1 : i64} '
        ": () -> ()\nreturn %arg0 : tensor<8xf32>")


def test_float_attribute_printed_canonically():
    src = in_func('"test.op"() {w = 2.0 : f32} : () -> ()\nreturn %arg0 : tensor<8xf32>')
    assert str(shardy_py.parse(src)) == in_func('"test.op"() {w = 2.000000e+00 : f32} : () -> ()\n'
                                                "return %arg0 : tensor<8xf32>")


# MLIR numbers sibling regions from the same count (the do region's first value is %1 again) and
# prints `cond` at the op's indentation: this text is jaxlib's print of the module, byte for byte.
def test_stablehlo_while_continuation_lines():
    text = d('''
        module {
          sdy.mesh @m = <["a"=2]>
          func.func @w(%arg0: tensor<4xi64>) -> tensor<4xi64> {
            %0 = stablehlo.while(%iterArg = %arg0) : tensor<4xi64>
            cond {
              %c = stablehlo.constant dense<true> : tensor<i1>
              stablehlo.return %c : tensor<i1>
            } do {
              %1 = sdy.data_flow_edge %iterArg sharding=<@m, [{"a", ?}]> : tensor<4xi64>
              stablehlo.return %1 : tensor<4xi64>
            }
            return %0 : tensor<4xi64>
          }
        }
        ''')
    assert str(shardy_py.parse(text)) == text


def test_stablehlo_while_nested_sdy_op_is_modelled_and_respaced():
    text = d('''
        func.func @w(%arg0: tensor<i64>) -> tensor<i64> {
          %0 = stablehlo.while(%iterArg = %arg0) : tensor<i64>
           cond {
            %1 = stablehlo.compare  LT, %iterArg, %iterArg : (tensor<i64>, tensor<i64>) -> tensor<i1>
            stablehlo.return %1 : tensor<i1>
          } do {
            %1 = sdy.data_flow_edge %iterArg sharding=<@m,[{"a",?}]> : tensor<i64>
            stablehlo.return %1 : tensor<i64>
          }
          return %0 : tensor<i64>
        }''')
    m = shardy_py.parse(text)
    edge = next(op for op in m.walk() if op.name == "sdy.data_flow_edge")
    assert edge.properties["sharding"] == sharding('<@m, [{"a", ?}]>')
    assert '%1 = sdy.data_flow_edge %iterArg sharding=<@m, [{"a", ?}]> : tensor<i64>\n' in str(m)


def test_stablehlo_reduce_reducer_continuation():
    # a reducer that is not `applies` material (operands swapped): jaxlib prints it so, byte for byte
    text = d('''
        module {
          sdy.mesh @m = <["a"=2]>
          func.func @r(%arg0: tensor<8xf32>, %arg1: tensor<f32>) -> tensor<f32> {
            %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, []>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
             reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {
              %1 = stablehlo.add %arg3, %arg2 : tensor<f32>
              stablehlo.return %1 : tensor<f32>
            }
            return %0 : tensor<f32>
          }
        }
        ''')
    assert str(shardy_py.parse(text)) == text


def test_stablehlo_reduce_applies_form():
    text = in_func("%cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
                   "%0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] "
                   ": (tensor<8xf32>, tensor<f32>) -> tensor<f32>\nreturn %0 : tensor<f32>",
                   sig="(%arg0: tensor<8xf32>) -> tensor<f32>")
    assert str(shardy_py.parse(text)) == text


def test_builtin_types():
    text = ("module {\n  func.func private @t(tensor<*xf32>, tensor<?x4xf32>, !stablehlo.token, "
            "tuple<tensor<f32>, tensor<i32>>, tensor<complex<f32>>, tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>, "
            "index, i1, ui8, bf16, f8E4M3FN) -> tensor<4xf32, #foo.enc>\n}\n")
    assert str(shardy_py.parse(text)) == text


def test_func_arg_types_are_modelled():
    m = shardy_py.parse("func.func @t(%arg0: tensor<?x4xf32>, %arg1: tensor<*xf32>) {\n  return\n}")
    a0, a1 = m.funcs["t"].regions[0].block.arguments
    assert isinstance(a0.type, shardy_py.RankedTensorType)
    assert isinstance(a1.type, shardy_py.UnrankedTensorType)


def test_locations_dropped_by_default():
    text = d('''
        #loc1 = loc("a.py":1:2)
        module {
          func.func @f(%arg0: tensor<4xf32> loc("x")) -> tensor<4xf32> {
            %0 = stablehlo.abs %arg0 : tensor<4xf32> loc(#loc1)
            return %0 : tensor<4xf32> loc(unknown)
          } loc(#loc1)
        } loc(#loc1)
        ''')
    assert str(shardy_py.parse(text)) == d('''
        module {
          func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
            %0 = stablehlo.abs %arg0 : tensor<4xf32>
            return %0 : tensor<4xf32>
          }
        }
        ''')


def test_locations_kept_with_debug_info():
    from shardy_py.syntax.printer import print_module

    text = d('''
        #loc1 = loc("a.py":1:2)
        module {
          func.func @f(%arg0: tensor<4xf32> loc("x")) -> tensor<4xf32> {
            %0 = stablehlo.abs %arg0 : tensor<4xf32> loc(#loc1)
            return %0 : tensor<4xf32> loc(unknown)
          } loc(#loc1)
        } loc(#loc1)
        ''')
    assert print_module(shardy_py.parse(text), debug_info=True) == text


def test_unknown_dialect_op_text_kept_and_sdy_sharding_respaced():
    src = in_func('%0 = mydialect.frob   %arg0 ,  %arg0 [weird  syntax]  {sdy.sharding = '
                  '#sdy.sharding_per_value<[<@m,   [{"a",?}p2]>]>, other = 3} : tensor<8xf32>\nreturn %0 : tensor<8xf32>')
    assert str(shardy_py.parse(src)) == in_func(
        '%0 = mydialect.frob   %arg0 ,  %arg0 [weird  syntax]  {other = 3 : i64, sdy.sharding = '
        '#sdy.sharding_per_value<[<@m, [{"a", ?}p2]>]>} : tensor<8xf32>\nreturn %0 : tensor<8xf32>')


def test_unknown_dialect_op_sharding_is_modelled():
    m = shardy_py.parse(in_func('%0 = mydialect.frob %arg0 [weird] {sdy.sharding = #sdy.sharding_per_value<[<@m, '
                                '[{"a", ?}p2]>]>} : tensor<8xf32>\nreturn %0 : tensor<8xf32>'))
    op = func_ops(m)[0]
    assert op.name == "mydialect.frob"
    assert op.operands[0] is m.funcs["f"].regions[0].block.arguments[0]
    assert m.sharding_of(op.results[0]) == sharding('<@m, [{"a", ?}p2]>')


def test_multi_result_op():
    text = in_func('%0:2 = "test.two"(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}]>, <@m, [{"a"}]>]>} '
                   ": (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)\nreturn %0#1 : tensor<8xf32>")
    m = shardy_py.parse(text)
    assert str(m) == text
    op, ret = func_ops(m)
    assert [r.name for r in op.results] == ["%0#0", "%0#1"]
    assert ret.operands[0] is op.results[1]
    assert m.sharding_of(op.results[1]) == sharding('<@m, [{"a"}]>')


def test_value_names_are_renumbered():
    src = "func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {\n  %5 = stablehlo.abs %x : tensor<8xf32>\n  return %5 : tensor<8xf32>\n}"
    assert str(shardy_py.parse(src)) == (
        "module {\n  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        "    %0 = stablehlo.abs %arg0 : tensor<8xf32>\n    return %0 : tensor<8xf32>\n  }\n}\n")
