# ruff: noqa: E501  (MLIR inputs are written one line per line, however long)
"""What each collective moves (``shardy_py.cost.collectives``) and how long it takes
(``shardy_py.cost.topologies``), on hand-computed cases: every Shardy collective kind, padding,
sub-axes, unreduced values, manual computations with StableHLO collectives, several meshes, loops."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py.cost import cost
from shardy_py.cost.collectives import collectives, groups_to_axes
from shardy_py.cost.topologies import (
    PRESETS,
    Link,
    Stage,
    TopologyError,
    all_to_all_time,
    gather_time,
    permute_time,
    reduce_time,
    topology,
)


def _one(body: str, mesh: str = '"x"=2, "y"=4', arg: str = "tensor<8x16xf32>",
         sharding: str = '[{"x"}, {"y"}]', result: str = "tensor<8x16xf32>"):
    text = (f"sdy.mesh @m = <[{mesh}]>\n"
            f"func.func @main(%a: {arg} {{sdy.sharding = #sdy.sharding<@m, {sharding}>}}) -> {result} {{\n"
            f"  {body}\n  return %0 : {result}\n}}\n")
    module = shardy_py.parse(text)
    assert [d for d in shardy_py.verify(module) if d.severity == "error"] == []
    (c,) = collectives(module)
    return c


def _moved(c):
    return (c.kind, c.axes, c.group_size, c.input_bytes, c.output_bytes, c.bytes_sent, c.bytes_received)


def test_an_all_gather_sends_its_shard_to_every_other_device_of_the_group():
    # local 4x4 f32 = 64 B; gathered over "y" (4 devices): 3 x 64 B each way
    c = _one('%0 = sdy.all_gather [{}, {"y"}] %a out_sharding=<@m, [{"x"}, {}]> : tensor<8x16xf32>')
    assert _moved(c) == ("all_gather", ("y",), 4, 64, 256, 192, 192)
    assert c.stages == (Stage("gather", "y", 4, 256),)


def test_an_all_gather_over_two_axes_runs_a_stage_per_axis_growing_the_data():
    c = _one('%0 = sdy.all_gather [{"x"}, {"y"}] %a out_sharding=<@m, [{}, {}]> : tensor<8x16xf32>')
    assert _moved(c) == ("all_gather", ("x", "y"), 8, 64, 512, 448, 448)
    assert c.stages == (Stage("gather", "x", 2, 128), Stage("gather", "y", 4, 512))


def test_an_all_slice_moves_nothing():
    c = _one('%0 = sdy.all_slice [{}, {"y"}] %a out_sharding=<@m, [{"x"}, {"y"}]> : tensor<8x16xf32>',
             sharding='[{"x"}, {}]')
    assert _moved(c) == ("all_slice", ("y",), 4, 256, 64, 0, 0)


def test_an_all_reduce_sends_twice_n_minus_one_chunks():
    # local 4x16 f32 = 256 B over "y" (4): reduce-scatter then all-gather, 2 x 3 x 64 B
    c = _one('%0 = sdy.all_reduce {"y"} %a out_sharding=<@m, [{"x"}, {}]> : tensor<8x16xf32>',
             sharding='[{"x"}, {}]')
    assert _moved(c) == ("all_reduce", ("y",), 4, 256, 256, 384, 384)


def test_a_reduce_scatter_sends_n_minus_one_output_shards():
    c = _one('%0 = sdy.reduce_scatter [{}, {"y"}] %a out_sharding=<@m, [{"x"}, {"y"}]> : tensor<8x16xf32>',
             sharding='[{"x"}, {}]')
    assert _moved(c) == ("reduce_scatter", ("y",), 4, 256, 64, 192, 192)


def test_an_all_to_all_keeps_one_nth_and_sends_the_rest():
    c = _one('%0 = sdy.all_to_all [{"y"}: 1->0] %a out_sharding=<@m, [{"x", "y"}, {}]> : tensor<8x16xf32>')
    assert _moved(c) == ("all_to_all", ("y",), 4, 64, 64, 48, 48)


def test_a_collective_permute_moves_the_whole_shard_when_devices_change_place():
    c = _one('%0 = sdy.collective_permute %a out_sharding=<@m, [{"y", "x"}, {}]> : tensor<8x8xf32>',
             mesh='"x"=2, "y"=2', arg="tensor<8x8xf32>", sharding='[{"x", "y"}, {}]', result="tensor<8x8xf32>")
    assert _moved(c)[3:] == (64, 64, 64, 64)


@pytest.mark.parametrize("body", [
    '%0 = sdy.sharded_to_unreduced [{}, {"y"}] %a out_sharding=<@m, [{"x"}, {}], unreduced={"y"}> : tensor<8x16xf32>',
    '%0 = sdy.replicated_to_unreduced {"y"} %a out_sharding=<@m, [{"x"}, {}], unreduced={"y"}> : tensor<8x16xf32>',
])
def test_unreduced_conversions_move_nothing(body):
    c = _one(body, sharding='[{"x"}, {"y"}]' if "sharded" in body else '[{"x"}, {}]')
    assert (c.bytes_sent, c.bytes_received) == (0, 0)


def test_padding_counts_in_the_bytes_moved():
    # 10 rows over "x"=4: shards of ceil(10/4) = 3 rows (the last one padded), 3 x 8 x 4 = 96 B each
    c = _one('%0 = sdy.all_gather [{"x"}, {}] %a out_sharding=<@m, [{}, {}]> : tensor<10x8xf32>',
             mesh='"x"=4', arg="tensor<10x8xf32>", sharding='[{"x"}, {}]', result="tensor<10x8xf32>")
    assert _moved(c) == ("all_gather", ("x",), 4, 96, 320, 288, 288)


def test_a_sub_axis_is_a_group_of_its_own_size():
    c = _one('%0 = sdy.all_gather [{}, {"y":(2)2}] %a out_sharding=<@m, [{"x"}, {"y":(1)2}]> : tensor<8x16xf32>',
             sharding='[{"x"}, {"y"}]')
    assert _moved(c) == ("all_gather", ("y:(2)2",), 2, 64, 128, 64, 64)


def test_an_unreduced_value_is_reduced_over_its_unreduced_axis():
    c = _one('%0 = sdy.all_reduce {"y"} %a out_sharding=<@m, [{"x"}, {}]> : tensor<8x16xf32>',
             sharding='[{"x"}, {}], unreduced={"y"}')
    assert _moved(c) == ("all_reduce", ("y",), 4, 256, 256, 384, 384)


def test_a_collective_on_a_second_mesh_reads_that_meshs_axes():
    module = shardy_py.parse('''sdy.mesh @m = <["x"=2]>
sdy.mesh @n = <["z"=8]>
func.func @main(%a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@n, [{"z"}]>}) -> tensor<16xf32> {
  %0 = sdy.all_gather [{"z"}] %a out_sharding=<@n, [{}]> : tensor<16xf32>
  return %0 : tensor<16xf32>
}
''')
    (c,) = collectives(module)
    assert (c.mesh, c.group_size, c.input_bytes, c.bytes_sent) == ("n", 8, 8, 56)


SHARD_MAP = '''sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%b: tensor<8x8xf32>) {
    %1 = "stablehlo.all_reduce"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = REPLICAS, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %2 = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}
'''


@pytest.mark.parametrize("replicas", [
    '#stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">]>',
    "dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>",   # the groups of "y": its axes are found
])
def test_a_stablehlo_collective_in_a_manual_computation_is_read_from_its_replica_groups(replicas):
    (c,) = collectives(shardy_py.parse(SHARD_MAP.replace("REPLICAS", replicas)))
    assert _moved(c) == ("all_reduce", ("y",), 4, 256, 256, 384, 384)
    assert c.op_name == "stablehlo.all_reduce"


def test_device_groups_name_their_mesh_axes():
    mesh = shardy_py.parse_attribute('#sdy.mesh<["x"=2, "y"=4]>')
    assert groups_to_axes([[0, 4], [1, 5], [2, 6], [3, 7]], mesh) == ("x",)
    assert groups_to_axes([list(range(8))], mesh) == ("x", "y")
    assert groups_to_axes([[0, 1], [2, 3], [4, 5], [6, 7]], mesh) is None   # a sub-axis: no whole axes


def test_a_collective_in_a_counted_loop_runs_once_per_iteration():
    module = shardy_py.parse('''sdy.mesh @m = <["x"=4]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c, %v = %a) : tensor<i32>, tensor<8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@m, []>, <@m, [{"x"}]>]>}
   cond {
    %c5 = stablehlo.constant dense<5> : tensor<i32>
    %1 = stablehlo.compare LT, %i, %c5 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %i, %one : tensor<i32>
    %3 = sdy.all_gather [{"x"}] %v out_sharding=<@m, [{}]> : tensor<8xf32>
    %4 = stablehlo.negate %3 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}]>]>} : tensor<8xf32>
    %5 = sdy.all_slice [{"x"}] %4 out_sharding=<@m, [{"x"}]> : tensor<8xf32>
    stablehlo.return %2, %5 : tensor<i32>, tensor<8xf32>
  }
  return %0#1 : tensor<8xf32>
}
''')
    report = cost(module, propagate=False)
    gather = next(c for c in report.collectives if c.kind == "all_gather")
    assert (gather.executions, gather.executions_known, gather.bytes_sent, gather.total_bytes) == (5, True, 24, 120)
    assert report.bytes_sent == 120


# -- the time model ----------------------------------------------------------------------------------

RING, BIDI, SWITCH = Link(100.0, 1.0, "ring"), Link(100.0, 1.0, "bidirectional-ring"), Link(100.0, 1.0, "switch")


@pytest.mark.parametrize(("formula", "link", "seconds"), [
    # n = 4, S = 400 B, B = 100 B/s, a = 1 s
    (lambda link: gather_time(4, 400, link), RING, 3 + 0.75 * 4),          # (n-1)a + (n-1)/n S/B
    (lambda link: gather_time(4, 400, link), BIDI, 2 + 0.75 * 2),          # ceil((n-1)/2)a + (n-1)/n S/2B
    (lambda link: gather_time(4, 400, link), SWITCH, 3 + 0.75 * 4),
    (lambda link: reduce_time(4, 400, link), RING, 2 * (3 + 3)),
    (lambda link: reduce_time(4, 400, link), BIDI, 2 * (2 + 1.5)),
    (lambda link: all_to_all_time(4, 400, link), RING, 3 + 1.5 * 4),      # (n-1)a + (n-1)/2 S/B
    (lambda link: all_to_all_time(4, 400, link), BIDI, 2 + 4 / 8 * 4),    # floor(n/2)a + floor(n²/4)/2n S/B
    (lambda link: all_to_all_time(4, 400, link), SWITCH, 1 + 0.75 * 4),   # a + (n-1)/n S/B
    (lambda link: permute_time(400, link), RING, 1 + 4),
    (lambda link: gather_time(1, 400, link), RING, 0.0),
])
def test_alpha_beta_formulas(formula, link, seconds):
    assert formula(link) == pytest.approx(seconds)


def test_a_collectives_time_is_the_sum_of_its_stages_on_each_axiss_link():
    topo = topology("uniform", bandwidth={"x": 100.0, "y": 200.0}, latency={"x": 1.0, "y": 2.0},
                    kind={"x": "ring", "y": "ring"})
    c = _one('%0 = sdy.all_gather [{"x"}, {"y"}] %a out_sharding=<@m, [{}, {}]> : tensor<8x16xf32>')
    # x: n=2, 128 B after: 1 + 64/100; y: n=4, 512 B after: 3*2 + 384/200
    assert sum(s.time(topo) for s in c.stages) == pytest.approx(1 + 0.64 + 6 + 1.92)


def test_presets_say_where_their_figures_come_from():
    for name, preset in PRESETS.items():
        assert preset.name == name and preset.source and preset.description
    assert PRESETS["tpu-v5e"].default == Link(50e9, 1e-6, "bidirectional-ring")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"name": "tpu-v9"}, "unknown topology 'tpu-v9' (presets: uniform, tpu-v5e, gpu-nvlink, gpu-pcie)"),
    ({"kind": {"x": "mesh"}}, "unknown link kind 'mesh' (one of ring, bidirectional-ring, switch)"),
    ({"bandwidth": {"x": 0.0}}, "bandwidth must be a positive number of bytes per second, not 0.0"),
    ({"latency": {"x": -1.0}}, "latency must be a non-negative number of seconds, not -1.0"),
])
def test_bad_topologies_are_clear_errors(kwargs, message):
    name = kwargs.pop("name", None)
    with pytest.raises(TopologyError) as e:
        topology(name, **kwargs)
    assert str(e.value) == message
