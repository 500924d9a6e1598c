"""``shardy_py.simulate`` and ``python -m shardy_py simulate``: a sharded program partitioned and run on
simulated devices, its results put together and compared with the unpartitioned run."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import shardy_py
from shardy_py.cli import main
from shardy_py.simulation.simulate import SimulationError, random_inputs

EXAMPLES = Path(__file__).parent.parent / "examples"

ROWS_BY_DEVICE = """sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[3, 1, 0, 2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
      : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
"""

SUB_AXES = """sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%arg0: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"y"}]>})
    -> (tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x":(2)2}]>}) {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x4xi32>
  return %0 : tensor<8x4xi32>
}
"""

UNREDUCED = """sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
      : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
"""

PADDED = """sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<5x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.negate %arg0 : tensor<5x3xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {}]> : tensor<5x3xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [1]
      : (tensor<5x3xf32>, tensor<f32>) -> tensor<5xf32>
  return %2 : tensor<5xf32>
}
"""

RANDOM_BITS = """sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<2xui64>) -> (tensor<8xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0:2 = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>)
  return %0#1 : tensor<8xui32>
}
"""

CUSTOM_CALL = """sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @my_kernel(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_the_mlp_example_runs_on_eight_devices_and_matches_the_unpartitioned_run():
    r = shardy_py.simulate(shardy_py.parse((EXAMPLES / "mlp.mlir").read_text()))
    assert r.ok
    assert len(r.devices) == 8
    assert r.outputs[0].actual.shape == (16, 64)
    assert r.outputs[0].difference < 1e-3


def test_each_device_holds_its_local_pieces_and_runs_the_all_reduce_of_the_second_matmul():
    r = shardy_py.simulate((EXAMPLES / "mlp.mlir").read_text())
    d = r.devices[5]
    assert d.position == {"data": 1, "model": 1}
    assert [p.shape for p in d.inputs] == [(8, 64), (64, 64), (64,), (64, 64), (64,)]
    assert d.input_bytes == 4 * (8 * 64 + 64 * 64 + 64 + 64 * 64 + 64)
    assert d.result_bytes == 4 * 8 * 64
    assert d.collective_counts == {"all_reduce": 1}
    assert d.sent_bytes == d.received_bytes == 4 * 8 * 64


def test_given_inputs_give_the_exact_product_on_a_mesh_with_device_ids():
    a = np.arange(32, dtype=np.float32).reshape(8, 4)
    b = np.arange(24, dtype=np.float32).reshape(4, 6) - 10
    r = shardy_py.simulate(ROWS_BY_DEVICE, a, b)
    assert r.ok and r.seed is None
    assert np.array_equal(r.outputs[0].actual, a @ b)
    assert np.array_equal(r.outputs[0].expected, a @ b)
    first_rows = next(d for d in r.devices if d.device == 3)
    assert first_rows.position == {"x": 0, "y": 0}
    assert np.array_equal(first_rows.inputs[0], a[:4, :2])


def test_sub_axes_are_bit_exact_for_integers():
    x = np.arange(32, dtype=np.int32).reshape(8, 4) - 7
    r = shardy_py.simulate(SUB_AXES, x)
    assert r.ok
    assert np.array_equal(r.outputs[0].actual, x * x)
    assert r.outputs[0].difference == 0


def test_an_unreduced_output_is_the_sum_of_the_devices_partial_values():
    r = shardy_py.simulate(UNREDUCED, seed=3)
    assert r.ok
    assert r.devices[0].collective_counts == {}
    partial = r.devices[0].results[0]
    assert not np.allclose(partial, r.outputs[0].expected[:4])
    total = sum(d.results[0] for d in r.devices if d.position["x"] == 0)
    assert np.allclose(total, r.outputs[0].expected[:4], rtol=1e-5)


def test_sizes_the_shards_do_not_divide_are_padded_inside_the_program():
    """The partitioner hands such arguments and results over whole (update-non-divisible-input-output-
    shardings) and pads the sharded values inside (pad-for-divisibility): 5 rows on 2 devices."""
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    r = shardy_py.simulate(PADDED, x)
    assert r.ok
    assert [d.inputs[0].shape for d in r.devices] == [(5, 3), (5, 3)]
    assert "stablehlo.pad" in str(r.partitioned) and "tensor<3x3xf32>" in str(r.partitioned)
    assert r.outputs[0].actual.tolist() == [-3.0, -12.0, -21.0, -30.0, -39.0]


def test_replica_groups_as_mesh_axes_compute_the_same():
    plain = shardy_py.simulate((EXAMPLES / "mlp.mlir").read_text(), seed=1)
    rgv3 = shardy_py.simulate((EXAMPLES / "mlp.mlir").read_text(), seed=1, enable_rgv3=True)
    assert "replica_group_mesh_axes" in str(rgv3.partitioned)
    assert rgv3.ok
    assert np.array_equal(plain.outputs[0].actual, rgv3.outputs[0].actual)


def test_random_inputs_follow_the_seed_and_the_element_types():
    f = shardy_py.parse(ROWS_BY_DEVICE.replace("tensor<4x6xf32>", "tensor<4x6xf32>")).funcs["main"]
    a = random_inputs(f, 7)
    assert [x.dtype for x in a] == [np.float32, np.float32]
    assert all(np.array_equal(x, y) for x, y in zip(a, random_inputs(f, 7), strict=True))
    assert not np.array_equal(a[0], random_inputs(f, 8)[0])
    ints = random_inputs(shardy_py.parse(SUB_AXES).funcs["main"], 0)[0]
    assert ints.dtype == np.int32 and ints.min() >= 1 and ints.max() <= 4


def test_a_sharded_random_bit_generator_is_reported_different():
    """Each device draws its piece from the same state: not the numbers of the unpartitioned run."""
    r = shardy_py.simulate(RANDOM_BITS, np.array([1, 2], np.uint64))
    assert not r.ok
    assert not r.outputs[0].equal
    assert "1 of 1 outputs DIFFER from the unpartitioned run: result 0" in r.report()
    assert "note: a stablehlo.rng_bit_generator whose output is sharded generates each device's piece" in r.report()


def test_a_random_bit_generator_generated_whole_gives_the_unpartitioned_numbers():
    """rng-bit-generator-unsafe=false (jaxlib 0.12's option): each device generates the whole output
    and keeps its piece."""
    r = shardy_py.simulate(RANDOM_BITS, np.array([1, 2], np.uint64), rng_bit_generator_unsafe=False)
    assert r.ok, r.report()
    assert r.notes == []
    assert "tensor<8xui32>" in str(r.partitioned) and "tensor<4xui32>" in str(r.partitioned)


def test_an_op_the_interpreter_cannot_run_is_a_located_error():
    with pytest.raises(SimulationError) as e:
        shardy_py.simulate(CUSTOM_CALL)
    (loc, message), = e.value.diagnostics
    assert (loc.line, loc.column) == (3, 3)
    assert message == "the unpartitioned program: Unsupported custom call: my_kernel"


def test_arguments_of_the_wrong_shape_are_a_located_error():
    with pytest.raises(SimulationError) as e:
        shardy_py.simulate(SUB_AXES, np.zeros((4, 4), np.int32))
    (loc, message), = e.value.diagnostics
    assert loc.line == 2
    assert "argument 0 has shape (4, 4), expected tensor<8x4xi32>" in message


def test_the_report_lists_outputs_and_devices():
    text = shardy_py.simulate(SUB_AXES, seed=0).report("sub.mlir")
    lines = text.splitlines()
    assert lines[0] == 'simulate sub.mlir: 8 devices, mesh @mesh <["x"=4, "y"=2]>, random inputs (seed 0)'
    assert "  0  tensor<8x4xi32>  #sdy.sharding<@mesh, [{\"y\"}, {\"x\":(2)2}]>" in text
    assert any(line.split()[:4] == ["0-7", "32", "B", "32"] for line in lines)
    assert lines[-1] == "all 1 outputs equal to the unpartitioned run (integers bit-exact, floats within 1e-4)"


def test_the_report_shows_each_device_and_its_position_when_asked():
    lines = shardy_py.simulate(SUB_AXES, seed=0).report(each_device=True).splitlines()
    assert [line.split()[:3] for line in lines if line.startswith("       ")][:2] == [["0", "x=0,", "y=0"],
                                                                                 ["1", "x=0,", "y=1"]]


def test_command_prints_the_report_and_exits_0(tmp_path, capsys):
    path = tmp_path / "sub.mlir"
    path.write_text(SUB_AXES)
    assert main(["simulate", str(path), "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "random inputs (seed 2)" in out and "collective_permute x1" in out


def test_command_takes_the_inputs_from_args(tmp_path, capsys):
    path = tmp_path / "padded.mlir"
    path.write_text(PADDED)
    assert main(["simulate", str(path), "--args=[dense<1.0> : tensor<5x3xf32>]"]) == 0
    assert "the given inputs" in capsys.readouterr().out


def test_command_exits_1_on_a_difference(tmp_path, capsys):
    path = tmp_path / "bits.mlir"
    path.write_text(RANDOM_BITS)
    assert main(["simulate", str(path)]) == 1
    assert "DIFFERENT" in capsys.readouterr().out


def test_command_reports_an_unsupported_op_at_its_line(tmp_path, capsys):
    path = tmp_path / "call.mlir"
    path.write_text(CUSTOM_CALL)
    assert main(["simulate", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:3:3: error: the unpartitioned program: Unsupported custom call: my_kernel")


def test_command_reports_a_step_of_the_partitioner_that_fails(tmp_path, capsys):
    path = tmp_path / "bad.mlir"
    path.write_text('sdy.mesh @mesh = <["x"=2]>\nfunc.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n'
                    '  %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<4xf32>\n'
                    '  return %0 : tensor<4xf32>\n}\n')
    assert main(["simulate", str(path)]) == 1
    assert f"{path}:3:" in capsys.readouterr().err


def test_command_exits_2_on_an_unreadable_file(tmp_path, capsys):
    assert main(["simulate", str(tmp_path / "missing.mlir")]) == 2


def test_the_benchmark_table_covers_the_examples():
    import subprocess
    import sys

    script = Path(__file__).parent.parent / "benchmarks" / "simulate_jax_programs.py"
    done = subprocess.run([sys.executable, str(script), "--examples-only", "--no-jax", "--programs", "mlp",
                           "shard_map"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].split()[:4] == ["examples/mlp", "8", "1", "all_reduce"] and lines[1].endswith("equal")
    assert lines[-1] == "2 of 2 programs ran; 0 differ"


PAD_SEVEN = """sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<11xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %c = stablehlo.constant dense<7> : tensor<i32>
  %0 = stablehlo.pad %arg0, %c, low = [3], high = [0], interior = [0] : (tensor<8xi32>, tensor<i32>) -> tensor<11xi32>
  return %0 : tensor<11xi32>
}
"""


@pytest.mark.parametrize("halo", [True, False])
def test_a_halo_exchanged_pad_puts_its_padding_value_at_the_edge_device(halo):
    """The first device has no left neighbour: jaxlib 0.12's mask gives it the padding value (the
    test files' halo exchange gave it the zeros the collective permute left)."""
    x = np.arange(1, 9, dtype=np.int32)
    r = shardy_py.simulate(PAD_SEVEN, x, enable_halo_exchange=halo)
    assert r.ok, r.report()
    assert r.outputs[0].actual.tolist() == [7, 7, 7, 1, 2, 3, 4, 5, 6, 7, 8]
    local = str(shardy_py.partition(shardy_py.parse(PAD_SEVEN), enable_halo_exchange=halo))
    assert ("stablehlo.collective_permute" in local) == halo


NO_MAIN = """sdy.mesh @mesh = <["x"=2]>
func.func @helper(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @entry(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = func.call @helper(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


def test_a_module_of_several_functions_without_main_is_a_located_error(tmp_path, capsys):
    """Shardy's propagation starts at @main (jaxlib 0.12 aborts without one): --function names what runs,
    not where propagation starts."""
    path = tmp_path / "no_main.mlir"
    path.write_text(NO_MAIN)
    assert main(["simulate", str(path), "--function", "entry"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:1:1: error: partition: Failed to lookup function: main")
    assert "internal error" not in err
