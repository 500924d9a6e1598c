"""benchmarks/compare_trees.py: two checkouts timed on one text, alternating fresh processes."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "compare_trees.py"


def test_a_tree_compared_with_itself_prints_each_phase_and_the_ratio():
    done = subprocess.run([sys.executable, str(SCRIPT), str(ROOT), str(ROOT), "--sizes", "40", "--rounds", "1",
                           "--no-cpp"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "synthetic 40 ops: CPU seconds, min / median of 1 fresh processes each" in done.stdout
    assert "new / base (parse+verify+print):" in done.stdout
    assert [line.split()[0] for line in done.stdout.splitlines() if line.startswith("  base ") or
            line.startswith("  new ")][:2] == ["base", "new"]


def test_a_file_that_does_not_verify_clean_fails_the_run(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text('sdy.mesh @mesh = <["x"=2]>\n'
                   'func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) '
                   '-> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n')
    done = subprocess.run([sys.executable, str(SCRIPT), str(ROOT), str(ROOT), "--file", str(bad), "--rounds", "1",
                           "--no-cpp"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 1
    assert "did not verify clean or print the text back" in done.stderr


def test_a_directory_that_is_not_a_checkout_is_a_usage_error(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), str(ROOT)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert "is not a shardy_py checkout" in done.stderr
