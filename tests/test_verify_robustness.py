"""The verifier never crashes: truncated and garbled versions of the conformance corpus.

Needs the corpus: set ``SHARDY_CONFORMANCE`` to its directory (``../shared/conformance``).
"""
from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shardy_py.verify.command import split_chunks, verify_text

CORPUS = os.environ.get("SHARDY_CONFORMANCE")
pytestmark = pytest.mark.skipif(
    not CORPUS or not (Path(CORPUS) / "manifest.json").is_file(),
    reason="set SHARDY_CONFORMANCE to the conformance corpus directory to run the garbling tests")

# Numbers that are not result-group counts (``%0:2``): a huge count is a parser resource problem, not ours.
_NUMBER = re.compile(r"(?<![%\w]:)(?<!\w)-?\d+")
_SWAPS = ["0", "1", "2", "3", "-1", "7", "99999999999999999999"]
_CHARS = '{}[]<>()",=:@%#-?0123456789xyz '


def _files() -> list[Path]:
    root = Path(CORPUS or ".")
    ir = sorted(root.glob("ir/*.mlir"))
    transforms = sorted(root.glob("transforms/**/*.mlir"))
    return ir + transforms[::5]


def _variants(chunk: str, rng: random.Random) -> list[str]:
    n = len(chunk)
    i = rng.randrange(n)
    lines = chunk.splitlines()
    rng.shuffle(lines)
    return [
        chunk[: rng.randrange(n)],
        chunk[:i] + chunk[i + rng.randrange(1, 30):],
        chunk[:i] + rng.choice(_CHARS) + chunk[i:],
        "\n".join(lines),
        _NUMBER.sub(lambda m: m.group(0) if rng.random() < 0.8 else rng.choice(_SWAPS), chunk),
        re.sub(r'"[a-z]"', lambda m: m.group(0) if rng.random() < 0.7 else rng.choice(['"x"', '"a"', '"q"']), chunk),
    ]


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_garbled_corpus_never_crashes(path):
    rng = random.Random(path.name)
    for _, chunk in split_chunks(path.read_text(), True):
        if not chunk.strip():
            continue
        for text in [chunk, *_variants(chunk, rng)]:
            for d in verify_text(text):
                assert not d.message.startswith("internal error"), (d.message, text)
                assert d.line >= 1 and d.column >= 1


def test_cli_on_garbled_file_has_no_traceback(tmp_path):
    src = (Path(CORPUS) / "ir" / "collective_verification.mlir").read_text()
    garbled = tmp_path / "garbled.mlir"
    garbled.write_text(src[: len(src) // 3] + "}}]>" + src[len(src) // 2:])
    r = subprocess.run([sys.executable, "-m", "shardy_py", "verify", "--split-input-file", "--format=json",
                        str(garbled)], capture_output=True, text=True)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
