"""``python -m shardy_py verify``: formats, exit codes, --split-input-file, --verify-diagnostics."""
from __future__ import annotations

import json
import subprocess
import sys

from shardy_py.verify.command import main

TWO_CHUNKS = """sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{has 2 dimension sharding(s)}}
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
// -----
sdy.mesh @mesh = <["a"=2]>
func.func @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"b"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""
MSG4 = "'sdy.reshard' op sharding has 2 dimension sharding(s) but the tensor 'tensor<8xf32>' has rank 1"
MSG10 = "'sdy.reshard' op axis \"b\" in dim 0 is not an axis of the mesh (mesh axes: \"a\")"


def write(tmp_path, text, name="in.mlir"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_json_lines_are_absolute(tmp_path, capsys):
    f = write(tmp_path, TWO_CHUNKS)
    assert main(["--split-input-file", "--format=json", f]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows == [
        {"file": f, "line": 4, "column": 8, "severity": "error", "message": MSG4},
        {"file": f, "line": 10, "column": 8, "severity": "error", "message": MSG10},
    ]


def test_text_format_has_source_and_caret(tmp_path, capsys):
    f = write(tmp_path, TWO_CHUNKS)
    main(["--split-input-file", f])
    out = capsys.readouterr().err.splitlines()
    assert out[:3] == [f"{f}:4:8: error: {MSG4}", '  %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<8xf32>',
                       "       ^"]


def test_github_format(tmp_path, capsys):
    f = write(tmp_path, TWO_CHUNKS)
    main(["--split-input-file", "--format=github", f])
    assert capsys.readouterr().out.splitlines()[0] == f"::error file={f},line=4,col=8::{MSG4}"


def test_clean_file_exits_zero(tmp_path, capsys):
    assert main([write(tmp_path, 'sdy.mesh @m = <["a"=2]>\n')]) == 0
    assert capsys.readouterr() == ("", "")


def test_parse_error_is_a_diagnostic(tmp_path, capsys):
    assert main(["--format=json", write(tmp_path, 'sdy.mesh @m = <["a"=2\n')]) == 1
    [row] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (row["line"], row["severity"]) == (1, "error")


def test_unreadable_file_exits_two(tmp_path, capsys):
    missing = str(tmp_path / "missing.mlir")
    assert main([missing]) == 2
    assert capsys.readouterr().err == (f"shardy-py verify: cannot read {missing}: "
                                       f"[Errno 2] No such file or directory: '{missing}'\n")


def test_verify_diagnostics(tmp_path, capsys):
    f = write(tmp_path, TWO_CHUNKS)
    assert main(["--split-input-file", "--verify-diagnostics", f]) == 1
    out = capsys.readouterr().err.splitlines()
    assert out[0] == f"{f}:10:8: error: unexpected error: {MSG10}"
    fixed = TWO_CHUNKS.replace("func.func @g", "// expected-error @below {{not an axis of the mesh}}\nfunc.func @g")
    fixed = fixed.replace('  %0 = sdy.reshard %arg0 <@mesh, [{"b"}]>',
                          '  // expected-error @+1 {{axis "b" in dim 0}}\n  %0 = sdy.reshard %arg0 <@mesh, [{"b"}]>')
    fixed = fixed.replace("// expected-error @below {{not an axis of the mesh}}\n", "")
    assert main(["--split-input-file", "--verify-diagnostics", write(tmp_path, fixed, "ok.mlir")]) == 0


def test_verify_diagnostics_unmet_expectation(tmp_path, capsys):
    text = 'sdy.mesh @m = <["a"=2]>\n// expected-error @above {{something}}\n'
    assert main(["--verify-diagnostics", write(tmp_path, text)]) == 1
    assert "expected error on line 1 was not produced: something" in capsys.readouterr().err


def test_expectation_designators():
    from shardy_py.verify.expected import parse_expectations

    text = "a\n// expected-error @below {{x}}\n// expected-note @below {{y}}\nb\nc // expected-warning {{z}}\n" \
           "// expected-error @-4 {{w}}\n// expected-error @above {{v}}"
    got = [(e.line, e.severity, e.text) for e in parse_expectations(text)]
    assert got == [(4, "error", "x"), (4, "note", "y"), (5, "warning", "z"), (2, "error", "w"), (5, "error", "v")]


def test_module_entry_point(tmp_path):
    r = subprocess.run([sys.executable, "-m", "shardy_py", "verify", "--split-input-file", "--format=json",
                        write(tmp_path, TWO_CHUNKS)], capture_output=True, text=True)
    assert r.returncode == 1 and len(r.stdout.splitlines()) == 2 and "Traceback" not in r.stderr


def test_text_diagnostics_on_stderr_machine_formats_on_stdout(tmp_path):
    """As mlir-opt: diagnostics on standard error; --format json/github are output, on standard out."""
    f = write(tmp_path, TWO_CHUNKS)
    text = subprocess.run([sys.executable, "-m", "shardy_py", "verify", "--split-input-file", f],
                          capture_output=True, text=True)
    assert (text.returncode, text.stdout) == (1, "") and text.stderr.startswith(f"{f}:4:8: error: ")
    for fmt in ("json", "github"):
        r = subprocess.run([sys.executable, "-m", "shardy_py", "verify", "--split-input-file", f"--format={fmt}", f],
                           capture_output=True, text=True)
        assert (r.returncode, r.stderr) == (1, "") and len(r.stdout.splitlines()) == 2
