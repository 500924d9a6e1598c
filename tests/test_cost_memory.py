# ruff: noqa: E501  (MLIR inputs are written one line per line, however long)
"""Live bytes along a function's op order (``shardy_py.cost.memory``), hand-computed: arguments
live throughout, a value from its op to its last use, an op's operands and results at once; an
op with regions holds the larger of its results and its regions' own peak; a call its callee's;
values on a maximal mesh count on their device only."""
from __future__ import annotations

import shardy_py
from shardy_py.cost import cost
from shardy_py.cost.memory import function_memory

X = '#sdy.sharding_per_value<[<@m, [{"x"}]>]>'


def _memory(text: str, collectives: int = 0):
    report = cost(shardy_py.parse(text), propagate=False)
    assert len(report.collectives) == collectives
    return {f.name: f for f in report.functions}


def test_values_live_from_their_op_to_their_last_use():
    # every tensor<16xf32> sharded 4 ways holds 16 B per device
    main = _memory(f'''sdy.mesh @m = <["x"=4]>
func.func @main(%a: tensor<16xf32> {{sdy.sharding = #sdy.sharding<@m, [{{"x"}}]>}}) -> (tensor<16xf32> {{sdy.sharding = #sdy.sharding<@m, [{{"x"}}]>}}) {{
  %0 = stablehlo.negate %a {{sdy.sharding = {X}}} : tensor<16xf32>
  %1 = stablehlo.abs %0 {{sdy.sharding = {X}}} : tensor<16xf32>
  %2 = stablehlo.add %0, %1 {{sdy.sharding = {X}}} : tensor<16xf32>
  return %2 : tensor<16xf32>
}}
''')["main"]
    # %a throughout; negate: +%0; abs: %0 still used, +%1; add: %0 and %1 read, +%2; return: %2
    assert [(p.op, p.live_bytes) for p in main.timeline] == [
        ("stablehlo.negate", 32), ("stablehlo.abs", 48), ("stablehlo.add", 64), ("func.return", 32)]
    assert (main.peak_bytes, main.peak_path, main.arguments_bytes, main.results_bytes) == (
        64, [("stablehlo.add", 5)], 16, 16)


WHILE = f'''sdy.mesh @m = <["x"=4]>
func.func @main(%a: tensor<16xf32> {{sdy.sharding = #sdy.sharding<@m, [{{"x"}}]>}}) -> (tensor<16xf32> {{sdy.sharding = #sdy.sharding<@m, [{{"x"}}]>}}) {{
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c, %v = %a) : tensor<i32>, tensor<16xf32> attributes {{sdy.sharding = #sdy.sharding_per_value<[<@m, []>, <@m, [{{"x"}}]>]>}}
   cond {{
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }} do {{
    %one = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %i, %one : tensor<i32>
    %3 = stablehlo.negate %v {{sdy.sharding = {X}}} : tensor<16xf32>
    %4 = stablehlo.multiply %3, %3 {{sdy.sharding = {X}}} : tensor<16xf32>
    stablehlo.return %2, %4 : tensor<i32>, tensor<16xf32>
  }}
  return %0#1 : tensor<16xf32>
}}
'''


def test_a_loop_holds_its_bodys_peak_and_its_block_arguments_share_the_operands_buffers():
    main = _memory(WHILE)["main"]
    # The partitioner's canonicalizer hoists the three constants to the top of @main, as the C++ does.
    # body: the add 4; the negate +16 = 20; the multiply reads %3, +16 = 36 (its peak); the block
    # arguments are the loop's operands.  main: %a 16, then each constant 4 (all read by the loop):
    # 20, 24, 28; at the while: 28 + max(results 4 + 16, body 36) = 64; then the constants and the
    # unused %0#0 die: 32.
    assert [(p.op, p.live_bytes) for p in main.timeline] == [
        ("stablehlo.constant", 20), ("stablehlo.constant", 24), ("stablehlo.constant", 28),
        ("stablehlo.while", 64), ("func.return", 32)]
    assert main.peak_path == [("stablehlo.while", 4), ("stablehlo.multiply", 13)]


def test_a_call_holds_its_callees_peak():
    functions = _memory(f'''sdy.mesh @m = <["x"=4]>
func.func @main(%a: tensor<16xf32> {{sdy.sharding = #sdy.sharding<@m, [{{"x"}}]>}}) -> (tensor<16xf32> {{sdy.sharding = #sdy.sharding<@m, [{{"x"}}]>}}) {{
  %0 = func.call @f(%a) {{sdy.sharding = {X}}} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}}
func.func private @f(%b: tensor<16xf32> {{sdy.sharding = #sdy.sharding<@m, [{{"x"}}]>}}) -> (tensor<16xf32> {{sdy.sharding = #sdy.sharding<@m, [{{"x"}}]>}}) {{
  %0 = stablehlo.negate %b {{sdy.sharding = {X}}} : tensor<16xf32>
  %1 = stablehlo.abs %0 {{sdy.sharding = {X}}} : tensor<16xf32>
  return %1 : tensor<16xf32>
}}
''')
    # @f's own values peak at 32 (abs: %0 read, %1 made); @main: %a 16 + max(%0 16, 32) = 48
    assert [p.live_bytes for p in functions["main"].timeline] == [48, 32]
    assert functions["f"].peak_bytes == 48   # @f alone, with its argument
    assert functions["main"].peak_path == [("func.call", 3), ("stablehlo.abs", 8)]


def test_values_on_a_maximal_mesh_count_on_their_device_only():
    main = _memory('''sdy.mesh @m = <["x"=4]>
sdy.mesh @one = <[], device_ids=[2]>
func.func @main(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {
  %0 = stablehlo.custom_call @host(%a) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@one, []>]>} : (tensor<16xf32>) -> tensor<16xf32>
  return %a : tensor<16xf32>
}
''', collectives=1)["main"]
    # the reshard to @one and the call's result, 64 B each, are on device 2 only: every device holds
    # %a (16 B); device 2 also the reshard's result (80 B), then the call's too (144 B)
    assert [(p.op, p.live_bytes) for p in main.timeline] == [
        ("sdy.reshard", 80), ("stablehlo.custom_call", 144), ("func.return", 16)]


def test_functions_without_a_body_are_left_out():
    module = shardy_py.parse("func.func private @decl(tensor<4xf32>) -> tensor<4xf32>\n")
    assert function_memory(module) == []


def test_a_case_holds_its_largest_branch():
    main = _memory(f'''sdy.mesh @m = <["x"=4]>
func.func @main(%i: tensor<i32>, %a: tensor<16xf32> {{sdy.sharding = #sdy.sharding<@m, [{{"x"}}]>}}) -> (tensor<16xf32> {{sdy.sharding = #sdy.sharding<@m, [{{"x"}}]>}}) {{
  %0 = "stablehlo.case"(%i) ({{
    %1 = stablehlo.negate %a {{sdy.sharding = {X}}} : tensor<16xf32>
    stablehlo.return %1 : tensor<16xf32>
  }}, {{
    %2 = stablehlo.negate %a {{sdy.sharding = {X}}} : tensor<16xf32>
    %3 = stablehlo.abs %2 {{sdy.sharding = {X}}} : tensor<16xf32>
    %4 = stablehlo.add %2, %3 {{sdy.sharding = {X}}} : tensor<16xf32>
    stablehlo.return %4 : tensor<16xf32>
  }}) {{sdy.sharding = {X}}} : (tensor<i32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}}
''')["main"]
    # arguments 4 + 16; the first branch peaks at 16, the second at 48 (%2, %3 and %4 at the add);
    # the case holds 20 + max(16, 48) = 68; then its result: 36
    assert [(p.op, p.live_bytes) for p in main.timeline] == [("stablehlo.case", 68), ("func.return", 36)]
    assert main.peak_path == [("stablehlo.case", 3), ("stablehlo.add", 9)]
