"""A wheel built from the repo, installed in a fresh venv, parses a module outside the source tree.

Skipped with ``SHARDY_SKIP_WHEEL_TEST=1``. Needs network access to PyPI for lark/attrs/numpy.
"""
from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

CHECK = r"""
import pathlib, sys, shardy_py
from shardy_py.syntax import sdy_parser
pkg = pathlib.Path(shardy_py.__file__).resolve().parent
assert not str(pkg).startswith(sys.argv[1]), f"imported from the source tree: {pkg}"
grammar = sdy_parser.grammar_path("sdy.lark").resolve()
assert grammar.is_relative_to(pkg), f"grammar not from the wheel: {grammar}"
m = shardy_py.parse('sdy.mesh @m = <["a"=2]>\n'
                    'func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m,[{"a",?}p1]>}) {\n'
                    '  return\n}')
print(m, end="")
"""

EXPECTED = ('module {\n  sdy.mesh @m = <["a"=2]>\n'
            '  func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a", ?}p1]>}) {\n'
            '    return\n  }\n}\n')


@pytest.mark.skipif(os.environ.get("SHARDY_SKIP_WHEEL_TEST") == "1", reason="SHARDY_SKIP_WHEEL_TEST=1")
def test_wheel_installs_and_parses_outside_source_tree(tmp_path):
    dist = tmp_path / "dist"
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q", "-w", str(dist)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    wheels = list(dist.glob("shardy_py-*.whl"))
    assert len(wheels) == 1

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    py = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheels[0])],
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-3000:]

    work = tmp_path / "elsewhere"
    work.mkdir()
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    r = subprocess.run([str(py), "-c", CHECK, str(REPO)], cwd=work, capture_output=True, text=True, timeout=60,
                       env=clean_env)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout == EXPECTED

    r = subprocess.run([str(env_dir / "bin" / "shardy-py"), "fmt", "-"], cwd=work, input='sdy.mesh @m = < ["a"=2] >',
                       capture_output=True, text=True, timeout=60, env=clean_env)
    assert r.returncode == 0 and r.stdout == 'module {\n  sdy.mesh @m = <["a"=2]>\n}\n', r.stderr
