# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""Shardy's call-graph import passes in Python: -sdy-flatten-call-graph, -sdy-pre-order-funcs,
-sdy-propagate-sharding-from-func-to-call, -sdy-import-func-calls, -symbol-dce and the
-sdy-import-pipeline's pass list.  Expected texts are jaxlib's C++ Shardy output on the same input
(the differential tests below re-check them against jaxlib when it is installed)."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py import passes
from shardy_py.passes.manager import PassContext, PassManager

CALL_CHAIN = '''func.func @main(%arg0: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>) {
  %0 = call @foo(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
  %1 = call @foo(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
  return %0, %1 : tensor<8xi32>, tensor<8xi32>
}
func.func private @foo(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  %0 = call @bar(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
func.func private @bar(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  return %arg0 : tensor<8xi32>
}
'''

FLATTENED = '''module {
  func.func @main(%arg0: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>) {
    %0 = call @foo(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
    %1 = call @foo_1(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
    return %0, %1 : tensor<8xi32>, tensor<8xi32>
  }
  func.func private @foo(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    %0 = call @bar(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
  func.func private @bar(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    return %arg0 : tensor<8xi32>
  }
  func.func private @bar_0(%arg0: tensor<8xi32>) -> tensor<8xi32> attributes {sdy.original_func_name = "bar"} {
    return %arg0 : tensor<8xi32>
  }
  func.func private @foo_1(%arg0: tensor<8xi32>) -> tensor<8xi32> attributes {sdy.original_func_name = "foo"} {
    %0 = call @bar_0(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
}
'''

SHARDED_CALL = '''sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, z = 1 : i64} : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}
func.func private @foo(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x2xi32> attributes {execution_thread = "host"} {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}
'''

IMPORTED = '''module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
    %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] (%arg1: tensor<8x2xi32>) {
      %2 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"x"}, {}]> : tensor<8x2xi32>
      %3 = stablehlo.add %2, %2 : tensor<8x2xi32>
      sdy.return %3 : tensor<8x2xi32>
    } {execution_thread = "host", z = 1 : i64} : (tensor<8x2xi32>) -> tensor<8x2xi32>
    %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x2xi32>
    return %1 : tensor<8x2xi32>
  }
}
'''

IMPORTED_NO_EDGES = '''module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
    %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] (%arg1: tensor<8x2xi32>) {
      %1 = stablehlo.add %arg1, %arg1 : tensor<8x2xi32>
      sdy.return %1 : tensor<8x2xi32>
    } {execution_thread = "host", z = 1 : i64} : (tensor<8x2xi32>) -> tensor<8x2xi32>
    return %0 : tensor<8x2xi32>
  }
}
'''

PROPAGATE = '''sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x2xi32>, %arg1: tensor<4xi32>) -> (tensor<8x2xi32>, tensor<4xi32>) {
  %0:2 = call @foo(%arg0, %arg1) : (tensor<8x2xi32>, tensor<4xi32>) -> (tensor<8x2xi32>, tensor<4xi32>)
  return %0#0, %0#1 : tensor<8x2xi32>, tensor<4xi32>
}
func.func private @foo(%arg0: tensor<8x2xi32>, %arg1: tensor<4xi32>) -> (tensor<8x2xi32>, tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  return %arg0, %arg1 : tensor<8x2xi32>, tensor<4xi32>
}
'''


def _run(text: str, flags: str) -> str:
    module = shardy_py.parse(text)
    PassManager.parse(flags).run(module)
    return str(module)


def test_flatten_call_graph_clones_each_further_call_with_one_renaming_counter():
    assert _run(CALL_CHAIN, "-sdy-flatten-call-graph") == FLATTENED


def test_flatten_call_graph_keeps_a_flat_graph():
    once = _run(CALL_CHAIN, "-sdy-flatten-call-graph")
    assert _run(once, "-sdy-flatten-call-graph") == once


POST_ORDER = '''func.func private @bar() {
  return
}
func.func private @foo() {
  call @bar() : () -> ()
  return
}
func.func @main() {
  call @foo() : () -> ()
  return
}
'''


def test_pre_order_funcs_puts_callers_first():
    out = _run(POST_ORDER, "-sdy-pre-order-funcs")
    names = [line.split("@")[1].split("(")[0] for line in out.splitlines() if "func.func" in line]
    assert names == ["main", "foo", "bar"]


def test_propagate_sharding_from_func_to_call_fills_open_shardings():
    out = _run(PROPAGATE, "-sdy-propagate-sharding-from-func-to-call")
    assert ('%0:2 = call @foo(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>, '
            '<@mesh, [{"y"}]>]>} : (tensor<8x2xi32>, tensor<4xi32>) -> (tensor<8x2xi32>, tensor<4xi32>)') in out


def test_propagate_sharding_from_func_to_call_keeps_a_call_sharding():
    text = SHARDED_CALL.replace('attributes {execution_thread = "host"} ', "").replace(
        "-> tensor<8x2xi32> {\n  %0 = stablehlo", '-> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) '
        "{\n  %0 = stablehlo")
    out = _run(text, "-sdy-propagate-sharding-from-func-to-call")
    assert '{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, z = 1 : i64}' in out


def test_import_func_calls_makes_a_named_computation_with_edges():
    assert _run(SHARDED_CALL, "-sdy-import-func-calls") == IMPORTED


def test_import_func_calls_without_edges():
    assert _run(SHARDED_CALL, "-sdy-import-func-calls=add-data-flow-edges-on-named-computations=false") == \
        IMPORTED_NO_EDGES


def test_import_func_calls_warns_once_per_process_about_cloned_bodies(monkeypatch):
    from shardy_py.passes.import_ import import_func_calls

    monkeypatch.setattr(import_func_calls, "_warned_multiple_calls", False)
    module = shardy_py.parse(CALL_CHAIN)
    ctx = PassManager.parse("-sdy-import-func-calls").run(module)
    assert [(d.severity, d.message) for d in ctx.diagnostics] == [
        ("warning", "function @foo has multiple call ops, we need to clone the function body for each call")]
    assert "func.func private" not in str(module)
    again = PassManager.parse("-sdy-import-func-calls").run(shardy_py.parse(CALL_CHAIN))
    assert again.diagnostics == []


def test_symbol_dce_erases_uncalled_private_funcs():
    text = CALL_CHAIN + "func.func private @dead() {\n  return\n}\n"
    out = _run(text, "-symbol-dce")
    assert "@dead" not in out and "@bar" in out


def test_import_pipeline_pass_list_follows_import_pipeline_cc():
    from shardy_py.passes.import_.import_pipeline import import_pipeline_passes

    assert [n for n, _ in import_pipeline_passes(dedup_functions_fully=True)] == [
        "symbol-dce", "sdy-lift-inlined-meshes", "sdy-remove-size-one-axes",
        "sdy-propagate-sharding-from-func-to-call", "sdy-constant-or-scalar-splitter", "symbol-dce",
        "sdy-manual-axes-cleanup", "sdy-add-data-flow-edges", "sdy-apply-sharding-constraints",
        "sdy-sharding-group-import"]
    assert [n for n, _ in import_pipeline_passes()][-1] == "sdy-add-data-flow-edges"


def test_import_pipeline_names_a_pass_not_implemented_yet(monkeypatch):
    from shardy_py.passes import registry

    registry.load_all()
    monkeypatch.delitem(registry.PASSES, "symbol-dce")
    with pytest.raises(passes.PassError) as e:
        PassManager.parse("-sdy-import-pipeline").run(shardy_py.parse(CALL_CHAIN), PassContext())
    assert e.value.diagnostics[-1].message == "sdy-import-pipeline: pass 'symbol-dce' is not implemented in shardy_py yet"
