"""``shardy_py.partition`` and ``python -m shardy_py partition``: propagation, the export pipeline
with explicit collectives, ``sdy-pad-for-divisibility`` and ``sdy-convert-global-to-local`` give
the program each device runs."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import shardy_py
from shardy_py.passes.manager import PassError

EXAMPLES = Path(__file__).parent.parent / "examples"


def test_partition_gives_local_shapes_and_stablehlo_collectives():
    module = shardy_py.parse((EXAMPLES / "mlp.mlir").read_text())
    before = str(module)
    out = str(shardy_py.partition(module))
    assert str(module) == before  # the input is left as it was
    assert "%arg0: tensor<8x64xf32>" in out  # 16x64 sharded {"data"} over data=2
    assert "%arg1: tensor<64x64xf32>" in out  # 64x256 sharded {"model"} over model=4
    assert ('"stablehlo.all_reduce"(%5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, '
            'replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}>') in out
    assert "sdy." not in out


def test_partition_can_keep_the_shardings():
    module = shardy_py.parse((EXAMPLES / "mlp.mlir").read_text())
    out = str(shardy_py.partition(module, keep_shardings=True))
    assert '%arg0: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<mesh<["data"=2, "model"=4]>, [{"data"}, {}]>}' \
        in out


def test_partition_with_replicas_reads_the_replica_id():
    text = ('sdy.mesh @m = <["x"=4]>\n'
            'func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {\n'
            '  %0 = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : tensor<8xf32>\n'
            '  %1 = stablehlo.add %a, %0 : tensor<8xf32>\n'
            '  return %1 : tensor<8xf32>\n}')
    out = str(shardy_py.partition(shardy_py.parse(text), replica_count=4))
    assert "stablehlo.replica_id : tensor<ui32>" in out
    assert "stablehlo.partition_id" not in out


def test_partition_failure_is_a_pass_error():
    with pytest.raises(PassError):
        shardy_py.partition(shardy_py.parse("func.func @f() {\n  return\n}"), replica_count=2, partition_count=2)


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shardy_py", "partition", *args], input=stdin, capture_output=True,
                          text=True, timeout=300)


def test_partition_command_prints_the_per_device_program():
    r = _cli(str(EXAMPLES / "mlp.mlir"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == str(shardy_py.partition(shardy_py.parse((EXAMPLES / "mlp.mlir").read_text())))


def test_partition_command_reports_a_located_error():
    text = ('sdy.mesh @m = <["x"=2]>\n'
            'func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n'
            '  %0 = stablehlo.add %a, %b : tensor<8xf32>\n'
            '  return %0 : tensor<8xf32>\n}\n')
    r = _cli("-", stdin=text)
    assert r.returncode == 1
    assert r.stderr.startswith("<stdin>:3:"), r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("text", ["", 'sdy.mesh @mesh = <["x"=2]>\n'])
def test_partitioning_a_module_without_functions_is_a_located_error(text, tmp_path, capsys):
    """jaxlib 0.12 aborts (``Check failed: funcOp Failed to lookup function: main``); we report it
    at the module."""
    from shardy_py.cli import main

    path = tmp_path / "empty.mlir"
    path.write_text(text)
    assert main(["partition", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:1:1: error: Failed to lookup function: main"), err


def test_an_output_file_that_cannot_be_written_is_reported(tmp_path, capsys):
    from shardy_py.cli import main

    out = tmp_path / "no_such_dir" / "out.mlir"
    assert main(["partition", "-o", str(out), str(EXAMPLES / "mlp.mlir")]) == 2
    err = capsys.readouterr().err
    assert err == f"shardy-py partition: cannot write {out}: No such file or directory\n"


@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_a_device_count_below_one_is_a_usage_error(value, capsys):
    from shardy_py.cli import main

    with pytest.raises(SystemExit) as info:
        main(["partition", "--replica-count", value, str(EXAMPLES / "mlp.mlir")])
    assert info.value.code == 2
    assert "argument --replica-count: " in capsys.readouterr().err
