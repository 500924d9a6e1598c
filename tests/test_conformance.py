"""Shardy's own dialect tests (``$SHARDY_CONFORMANCE``): oracle round-trips, perturbed texts, FileCheck."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import conformance_path, find_filecheck, load_manifest, oracle_records

import shardy_py


def _cases():
    root = conformance_path()
    if root is None:
        return []
    oracle = oracle_records(root)
    canonical = [(e["file"], e["chunk"]) for e in load_manifest(root) if e["expect"] == "valid" and e["canonical"]]
    perturbed = []
    for f in sorted((root / "perturbed").glob("**/*.jsonl")):
        src = str(f.relative_to(root / "perturbed"))[: -len(".jsonl")]
        for line in f.read_text().splitlines():
            r = json.loads(line)
            perturbed.append((src, r["chunk"], r["text"]))
    return oracle, canonical, perturbed


def _by_file(items):
    out: dict[str, list] = {}
    for it in items:
        out.setdefault(it[0], []).append(it)
    return out


_DATA = _cases()
_FILES = sorted(_by_file(_DATA[1]) if _DATA else [])
_PFILES = sorted(_by_file(_DATA[2]) if _DATA else [])


def test_corpus_is_present(conformance_dir):
    oracle, canonical, perturbed = _DATA
    assert len(canonical) == 880 and len(perturbed) == 754


@pytest.mark.parametrize("file", _FILES or ["<no corpus>"])
def test_oracle_text_round_trips_byte_identical(conformance_dir, file):
    oracle, canonical, _ = _DATA
    for f, chunk in _by_file(canonical)[file]:
        want = oracle[(f, chunk)]["printed"]
        assert str(shardy_py.parse(want)) == want, f"{f} chunk {chunk}"


@pytest.mark.parametrize("file", _PFILES or ["<no corpus>"])
def test_perturbed_text_prints_canonical(conformance_dir, file):
    oracle, _, perturbed = _DATA
    for f, chunk, text in _by_file(perturbed)[file]:
        assert str(shardy_py.parse(text)) == oracle[(f, chunk)]["printed"], f"{f} chunk {chunk}"


def _parse_print_files():
    root = conformance_path()
    return sorted(p.name for p in (root / "ir").glob("*_parse_print.mlir")) if root else []


@pytest.mark.parametrize("name", _parse_print_files() or ["<no corpus>"])
def test_fmt_passes_filecheck(conformance_dir, name):
    fc = find_filecheck()
    if fc is None:
        pytest.skip("LLVM FileCheck not found (install llvm-14-tools or set FILECHECK)")
    rel = f"ir/{name}"
    fmt = subprocess.run([sys.executable, "-m", "shardy_py", "fmt", rel], cwd=conformance_dir,
                         capture_output=True, text=True, timeout=60)
    assert fmt.returncode == 0, fmt.stderr
    chk = subprocess.run([fc, rel], cwd=conformance_dir, input=fmt.stdout, capture_output=True, text=True, timeout=60)
    assert chk.returncode == 0, chk.stderr[:2000]
