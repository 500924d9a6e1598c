"""The command line follows mlir-opt's conventions: --version, opt --help listing the passes and
their options, --pass-pipeline='builtin.module(...)', the same flag spellings across commands."""
from __future__ import annotations

import pytest

from shardy_py import __version__
from shardy_py.cli import SUBCOMMANDS, main
from shardy_py.passes.pipeline_text import PipelineSyntaxError, pipeline_flags

COMMANDS = ["fmt"] + [name for name, _, _ in SUBCOMMANDS]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as e:  # argparse's --help / --version / usage errors
        status = e.code
    out = capsys.readouterr()
    return status, out.out, out.err


def test_version_at_top_level(capsys):
    assert run(capsys, "--version") == (0, f"shardy-py {__version__}\n", "")


@pytest.mark.parametrize("command", COMMANDS)
def test_version_on_every_command(capsys, command):
    assert run(capsys, command, "--version") == (0, f"shardy-py {__version__}\n", "")


def test_opt_help_lists_every_pass_with_its_options(capsys):
    from shardy_py.passes.registry import load_all

    status, out, err = run(capsys, "opt", "--help")
    assert (status, err) == (0, "")
    assert out.startswith("usage: shardy-py opt ")
    for name, cls in load_all().items():
        assert f"\n  -{name}" in out
        for option in cls.options:
            assert f"{option.name}=<" in out
    assert "--pass-pipeline=PIPELINE" in out and "Exit status:" in out


def test_opt_single_dash_help_is_help(capsys):
    assert run(capsys, "opt", "-h")[1] == run(capsys, "opt", "--help")[1]


RESHAPE = "examples/reshape_constraint.mlir"


def test_pass_pipeline_runs_what_the_pass_flags_run(capsys):
    status, by_flags, _ = run(capsys, "opt", RESHAPE, "-sdy-import-pipeline",
                              "-sdy-basic-propagate=conservative-propagation=true")
    assert status == 0
    pipeline = "builtin.module(sdy-import-pipeline, sdy-basic-propagate{conservative-propagation=true})"
    assert run(capsys, "opt", RESHAPE, f"--pass-pipeline={pipeline}") == (0, by_flags, "")
    assert run(capsys, "opt", RESHAPE, "-pass-pipeline", pipeline) == (0, by_flags, "")


def test_pass_pipeline_and_pass_flags_together_are_a_usage_error(capsys):
    status, out, err = run(capsys, "opt", RESHAPE, "--pass-pipeline=builtin.module(sdy-import-pipeline)",
                           "-sdy-basic-propagate")
    assert (status, out) == (2, "")
    assert err == "shardy-py opt: --pass-pipeline cannot be used with individual pass flags\n"


def test_pipeline_text_nests_function_passes():
    assert pipeline_flags("builtin.module(func.func(sdy-populate-op-sharding-rules{conservative-propagation=true}),"
                          " sdy-basic-propagate)") == [
        "-sdy-populate-op-sharding-rules=conservative-propagation=true", "-sdy-basic-propagate"]


@pytest.mark.parametrize("text,message", [
    ("sdy-basic-propagate", "a pass pipeline is written 'builtin.module(PASS, func.func(PASS), ...)'"),
    ("builtin.module(sdy-nope)", "'sdy-nope' does not refer to a registered pass or pass pipeline"),
    ("builtin.module(func.func(sdy-basic-propagate))", "pass 'sdy-basic-propagate' runs on 'builtin.module'"),
    ("builtin.module(sdy-populate-op-sharding-rules)", "pass 'sdy-populate-op-sharding-rules' runs on 'func.func'"),
    ("builtin.module(sdy-basic-propagate{a=1)", "unbalanced '{'"),
    ("builtin.module(tosa.foo(x))", "'tosa.foo' is not an op passes can be nested on"),
])
def test_malformed_pipelines_say_what_is_wrong(text, message):
    with pytest.raises(PipelineSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("{", r"\{").replace("[", r"\[")):
        pipeline_flags(text)


def test_opt_accepts_the_fmt_spellings_of_print_flags(capsys, tmp_path):
    generic = run(capsys, "opt", RESHAPE, "--mlir-print-op-generic")
    assert generic[0] == 0 and generic[1].startswith('"builtin.module"')
    assert run(capsys, "opt", RESHAPE, "--generic") == generic
    located = tmp_path / "located.mlir"
    located.write_text('func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n'
                       '  %0 = stablehlo.negate %arg0 : tensor<2xf32> loc("here")\n'
                       '  return %0 : tensor<2xf32>\n}\n')
    debug = run(capsys, "opt", str(located), "-mlir-print-debuginfo")
    assert debug == run(capsys, "fmt", str(located), "--debug-info")
    assert 'loc("here")' in debug[1] and 'loc("here")' not in run(capsys, "opt", str(located))[1]
    assert run(capsys, "opt", str(located), "--debug-info") == debug


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_states_exit_codes_without_rest_markup(capsys, command):
    status, out, _ = run(capsys, command, "--help")
    assert status == 0
    assert "Exit status: 0" in out
    assert "``" not in out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_names_its_input_file_alike(capsys, command):
    out = run(capsys, command, "--help")[1]
    usage = out.split("\n\n")[0]
    assert "FILE" in usage and "file" not in usage.replace("-file", "")


BAD = 'sdy.mesh @m = <["a"=2\n'


@pytest.mark.parametrize("argv", [["fmt"], ["verify"], ["import"], ["export"], ["show"], ["convert", "--to", "sdy"],
                                  ["opt", "-sdy-basic-propagate"], ["rules"], ["propagate"], ["cost"]])
def test_diagnostics_go_to_stderr_for_every_command(capsys, tmp_path, argv):
    path = tmp_path / "bad.mlir"
    path.write_text(BAD)
    status, out, err = run(capsys, argv[0], str(path), *argv[1:])
    assert (status, out) == (1, "")
    assert err.startswith(f"{path}:1:")
    assert ": error: " in err.split("\n")[0]


@pytest.mark.parametrize("argv", [["fmt"], ["verify"], ["import"], ["export"], ["show"], ["convert", "--to", "sdy"],
                                  ["opt", "-sdy-basic-propagate"], ["rules"], ["propagate"], ["cost"]])
def test_an_unreadable_file_is_reported_alike_by_every_command(capsys, tmp_path, argv):
    missing = tmp_path / "missing.mlir"
    status, out, err = run(capsys, argv[0], str(missing), *argv[1:])
    assert (status, out) == (2, "")
    assert err == f"shardy-py {argv[0]}: cannot read {missing}: [Errno 2] No such file or directory: '{missing}'\n"


def test_propagate_show_takes_the_drawing_options_of_show(capsys):
    status, out, err = run(capsys, "propagate", "examples/mlp.mlir", "--show", "--color", "never", "--width", "40",
                           "--value", "@main:%0")
    assert (status, err) == (0, "")
    assert max(len(line) for line in out.splitlines()) <= 40
    assert "\x1b[" not in out
    assert run(capsys, "propagate", "examples/mlp.mlir", "--show", "--width", "10")[0] == 2
