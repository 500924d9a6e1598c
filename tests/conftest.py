"""Shared fixtures: the conformance corpus, the FileCheck binary, CLI runners."""
from __future__ import annotations

import glob
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parent.parent

# CI (.ci/run) sets SHARDY_HYPOTHESIS_PROFILE=ci: the same examples on every run (derandomized, no
# example database), so a run that passed once passes again; a developer's run keeps drawing new ones.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("SHARDY_HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["SHARDY_HYPOTHESIS_PROFILE"])


def conformance_path() -> Path | None:
    """``$SHARDY_CONFORMANCE`` as a directory, or None when unset/missing."""
    env = os.environ.get("SHARDY_CONFORMANCE")
    if not env:
        return None
    p = Path(env)
    if not p.is_absolute():
        p = (REPO / p).resolve() if not p.exists() else p.resolve()
    return p if (p / "manifest.json").is_file() else None


@pytest.fixture(scope="session")
def conformance_dir() -> Path:
    """The conformance corpus directory; skips when ``SHARDY_CONFORMANCE`` is not set."""
    p = conformance_path()
    if p is None:
        reason = ("SHARDY_CONFORMANCE is not set" if not os.environ.get("SHARDY_CONFORMANCE")
                  else f"SHARDY_CONFORMANCE={os.environ['SHARDY_CONFORMANCE']} has no manifest.json")
        pytest.skip(f"{reason}; point it at the conformance corpus (e.g. ../shared/conformance) to run this test")
    return p


def load_manifest(root: Path) -> list[dict]:
    return json.loads((root / "manifest.json").read_text())


def oracle_records(root: Path) -> dict[tuple[str, int], dict]:
    """(file, chunk) -> oracle record (``ok``, ``printed``)."""
    out = {}
    for f in sorted((root / "oracle").glob("**/*.jsonl")):
        src = str(f.relative_to(root / "oracle"))[: -len(".jsonl")]
        for line in f.read_text().splitlines():
            r = json.loads(line)
            out[(src, r["chunk"])] = r
    return out


def find_filecheck() -> str | None:
    exe = os.environ.get("FILECHECK") or shutil.which("FileCheck")
    if exe:
        return exe
    found = sorted(glob.glob("/usr/lib/llvm-*/bin/FileCheck"))
    return found[-1] if found else None


def run_cli(*args: str, input: str | bytes | None = None, timeout: float = 60, cwd=None) -> subprocess.CompletedProcess:
    """Run ``python -m shardy_py ARGS`` in a subprocess (bytes in, text out)."""
    data = input.encode() if isinstance(input, str) else input
    r = subprocess.run([sys.executable, "-m", "shardy_py", *args], input=data, capture_output=True,
                       timeout=timeout, cwd=cwd)
    return subprocess.CompletedProcess(r.args, r.returncode, r.stdout.decode("utf-8", "replace"),
                                       r.stderr.decode("utf-8", "replace"))


@pytest.fixture
def run_main(capsys, monkeypatch):
    """The CLI in this process (``shardy_py.cli.main``, where ``run_cli`` starts a subprocess):
    ``run_main(ARGS..., input=TEXT)`` -> ``CompletedProcess`` (returncode, stdout, stderr)."""
    from shardy_py.cli import main

    def run(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
        if input is not None:
            # a text stream over bytes, as a real stdin is: the CLI reads ``sys.stdin.buffer``
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(input.encode()), encoding="utf-8"))
        status = main(list(args))
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, status, out.out, out.err)
    return run


def corpus_chunks(root: Path) -> list[str]:
    """Every ``// -----`` chunk of every ``.mlir`` file of the conformance corpus at ``root``."""
    from shardy_py.cli import split_chunks

    files = sorted(root.glob("**/*.mlir"))
    assert files, f"no .mlir files under {root}"
    return [chunk for path in files for chunk, _ in split_chunks(path.read_text())]


@pytest.fixture(scope="session")
def all_jax_programs(tmp_path_factory) -> Path:
    """Every program of tests/data/jax_programs (programs.py and sharded_programs.py) lowered once per
    session into one directory (``NAME.mlir``); skips without jax."""
    pytest.importorskip("jax", reason="the programs are lowered by JAX (pip install 'jax==0.12.0.1')")
    from jax_program_runs import lower_all

    return lower_all(tmp_path_factory.mktemp("all_jax_programs"))
