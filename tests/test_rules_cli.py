"""``python -m shardy_py rules``: which ops it prints, what it prints, and its errors and exit codes."""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from test_rules_view import DOT_WITH_OP

MODULE = """func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] \
: (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  %1 = call @id(%0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.negate %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}, custom>} \
: tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
func.func private @id(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}
"""

#: The dot_general of MODULE as ``describe`` gives it (its func starts as test_rules_view's MODULE).
DOT_VIEW = DOT_WITH_OP + "\n"

NEGATE_VIEW = """\
sharding rule of stablehlo.negate at line 4
#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}, custom>
  tensor     value  type              dims
  operand 0  %1     tensor<8x16xf32>  [i, j]
  result 0   %2     tensor<8x16xf32>  [i, j]
  factor  size  kind          dimensions
  i          8  pass-through  operand 0 dim 0, result 0 dim 0
  j         16  pass-through  operand 0 dim 1, result 0 dim 1
  custom rule: yes
"""


@pytest.fixture
def module_file(tmp_path) -> Path:
    p = tmp_path / "m.mlir"
    p.write_text(MODULE)
    return p


def test_prints_every_op_with_a_rule_in_text_order(module_file, run_main):
    r = run_main("rules", str(module_file))
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == DOT_VIEW + "\n" + NEGATE_VIEW


def test_a_rule_already_on_the_op_is_kept(module_file, run_main):
    r = run_main("rules", str(module_file), "--op", "4")
    assert r.stdout == NEGATE_VIEW


def test_op_picks_the_op_on_that_line(module_file, run_main):
    r = run_main("rules", str(module_file), "--op", "2")
    assert (r.returncode, r.stdout) == (0, DOT_VIEW)


def test_op_without_a_rule_says_so(module_file, run_main):
    r = run_main("rules", str(module_file), "--op", "3")
    assert (r.returncode, r.stdout) == (0, "func.call at line 3: no sharding rule "
                                           "(the Shardy registry gives this op none)\n")


def test_op_unknown_to_the_registry_says_so(tmp_path, run_main):
    p = tmp_path / "u.mlir"
    p.write_text('func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n'
                 '  %0 = "my.op"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n'
                 '  return %0 : tensor<4xf32>\n}\n')
    r = run_main("rules", str(p), "--op", "2")
    assert (r.returncode, r.stdout) == (0, "my.op at line 2: no sharding rule "
                                           "(op 'my.op' is unknown to SDY sharding rule registry)\n")


def test_ops_unknown_to_the_registry_are_warned_once_per_message(tmp_path, run_main):
    p = tmp_path / "u.mlir"
    p.write_text('func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n'
                 '  %0 = "my.op"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n'
                 '  %1 = "my.op"(%0) : (tensor<4xf32>) -> tensor<4xf32>\n'
                 '  return %1 : tensor<4xf32>\n}\n')
    r = run_main("rules", str(p))
    assert (r.returncode, r.stdout) == (0, f"{p}: no op has a sharding rule\n")
    assert r.stderr == (f"{p}:2:3: warning: op 'my.op' is unknown to SDY sharding rule registry\n"
                        '  %0 = "my.op"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n'
                        "  ^\n")


def test_conservative_blocks_propagation_through_a_padded_dimension(tmp_path, run_main):
    p = tmp_path / "pad.mlir"
    p.write_text("func.func @f(%arg0: tensor<4x6xf32>, %arg1: tensor<f32>) -> tensor<4x8xf32> {\n"
                 "  %0 = stablehlo.pad %arg0, %arg1, low = [0, 1], high = [0, 1], interior = [0, 0] "
                 ": (tensor<4x6xf32>, tensor<f32>) -> tensor<4x8xf32>\n"
                 "  return %0 : tensor<4x8xf32>\n}\n")
    normal = run_main("rules", str(p)).stdout.splitlines()
    conservative = run_main("rules", str(p), "--conservative").stdout.splitlines()
    assert normal[1] == "#sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=6} permutation={j}>"
    assert normal[-2] == "  j          6  permutation   operand 0 dim 1, result 0 dim 1"
    assert conservative[1] == ("#sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=6} permutation={j} "
                               "blocked_propagation={j}>")
    assert conservative[-2] == "  j          6  permutation + blocked propagation  operand 0 dim 1, result 0 dim 1"


def test_reads_standard_input(run_main, monkeypatch):
    # The command reads standard input's bytes (sys.stdin.buffer), as a terminal or pipe has them.
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(MODULE.encode())))
    r = run_main("rules", "-", "--op", "2")
    assert r.stdout == DOT_VIEW


def test_no_op_with_a_rule(tmp_path, run_main):
    p = tmp_path / "e.mlir"
    p.write_text('sdy.mesh @m = <["x"=2]>\n')
    r = run_main("rules", str(p))
    assert (r.returncode, r.stdout) == (0, f"{p}: no op has a sharding rule\n")


def test_missing_file_is_exit_2(tmp_path, run_main):
    r = run_main("rules", str(tmp_path / "nope.mlir"))
    assert r.returncode == 2
    assert r.stderr.startswith(f"shardy-py rules: cannot read {tmp_path / 'nope.mlir'}: ")


def test_bad_ir_is_a_located_error_and_exit_1(tmp_path, run_main):
    p = tmp_path / "bad.mlir"
    p.write_text("func.func @f() {\n  %0 = stablehlo.add x\n}\n")
    r = run_main("rules", str(p))
    assert (r.returncode, r.stdout) == (1, "")
    # (jaxlib 0.12: "2:21: expected SSA operand", just after the text before the wrong token)
    assert r.stderr == (f"{p}:2:21: error: 'stablehlo.add': expected an SSA value like %0, found 'x'\n"
                        "  %0 = stablehlo.add x\n"
                        "                    ^\n")


def test_no_op_on_the_line_is_a_located_error_and_exit_2(module_file, run_main):
    r = run_main("rules", str(module_file), "--op", "6")
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == f"{module_file}:6:1: error: no op starts on line 6\n}}\n^\n"


def test_line_past_the_end_is_exit_2(module_file, run_main):
    r = run_main("rules", str(module_file), "--op", "40")
    assert r.returncode == 2
    assert r.stderr == f"{module_file}:40:1: error: no op starts on line 40: the file has 9 lines\n"


def test_line_zero_is_a_usage_error(module_file, run_main):
    r = run_main("rules", str(module_file), "--op", "0")
    assert (r.returncode, r.stderr) == (2, "shardy-py rules: --op takes a line number, 1 or more\n")


def test_runs_as_a_module(module_file):
    r = subprocess.run([sys.executable, "-m", "shardy_py", "rules", str(module_file), "--op", "2"],
                       capture_output=True, text=True, timeout=120)
    assert (r.returncode, r.stdout, r.stderr) == (0, DOT_VIEW, "")


REPO = Path(__file__).resolve().parent.parent


def _readme_rules_example() -> tuple[str, str]:
    """The Python example of the README's "Sharding rules" section, and the text its ``rules``
    example shows."""
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## Sharding rules\n"):]
    code = section[section.index("```python\n") + len("```python\n"):]
    command = "$ python -m shardy_py rules examples/reshape_constraint.mlir --op 5\n"
    shown = section[section.index(command) + len(command):]
    return code[:code.index("```")], shown[:shown.index("```")]


def test_readme_example_is_what_the_command_prints(run_main):
    shown = _readme_rules_example()[1]
    r = run_main("rules", str(REPO / "examples" / "reshape_constraint.mlir"), "--op", "5")
    assert r.stdout.replace(str(REPO / "examples") + "/", "examples/") == shown


def test_readme_python_example_prints_what_the_command_prints(monkeypatch, capsys):
    code, shown = _readme_rules_example()
    assert "from shardy_py.rules import RuleView, describe\n" in code
    monkeypatch.chdir(REPO)
    exec(compile(code, "README.md", "exec"), {})
    assert capsys.readouterr().out == shown
