"""Long differential run against the C++ Shardy in jaxlib, outside pytest.

    python benchmarks/differential_long.py --cases 100000 [--invalid-share 0.25] [--seed 0] [--out DIR]

Draws modules from ``shardy_py.strategies`` (valid ones, and ``invalid_modules()`` for the given
share), runs each through jaxlib's C++ Shardy and through shardy_py, and counts disagreements:
verdict (accepted/rejected), printed text of accepted modules, and the line of the first error of
invalid ones.  Disagreeing inputs are written to ``--out``.  Progress lines go to stderr; the
final line is a JSON summary.  Feature restrictions are those of ``tests/test_differential_cpp.py``.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from test_differential_cpp import Cpp, first_error_line, ours  # noqa: E402

from shardy_py import strategies as sst  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=100_000)
    ap.add_argument("--invalid-share", type=float, default=0.25)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=2000, help="examples per hypothesis run")
    ap.add_argument("--out", default="/tmp/differential_long")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cpp = Cpp()
    stats = {"cases": 0, "valid": 0, "invalid": 0, "disagreements": 0}
    t0 = time.time()
    rnd = random.Random(args.seed)

    def record(kind: str, text: str, detail: str) -> None:
        stats["disagreements"] += 1
        (out / f"{kind}-{stats['cases']}.mlir").write_text(text + "\n// " + detail.replace("\n", "\n// "))

    def one_valid(text: str) -> None:
        stats["cases"] += 1
        stats["valid"] += 1
        ok, printed = cpp.module(text)
        mine_ok, mine = ours(text)
        if not ok or not mine_ok or mine != printed:
            record("valid", text, f"cpp={ok} ours={mine_ok}\n{printed}\n---\n{mine}")

    def one_invalid(bad: sst.InvalidModule) -> None:
        stats["cases"] += 1
        stats["invalid"] += 1
        ok, message = cpp.module(bad.text)
        mine_ok, mine = ours(bad.text)
        if ok or mine_ok or first_error_line(message) != bad.line:
            record("invalid", bad.text, f"{bad.rule} line {bad.line}: cpp={ok} ours={mine_ok}\n{message}\n{mine}")

    cfg = settings(max_examples=args.batch, database=None, deadline=None, phases=[Phase.generate],
                   suppress_health_check=list(HealthCheck))
    while stats["cases"] < args.cases:
        n = min(args.batch, args.cases - stats["cases"])
        n_bad = int(n * args.invalid_share)
        s = rnd.getrandbits(64)
        seed(s)(settings(cfg, max_examples=n - n_bad)(given(sst.module_texts())(one_valid)))()
        if n_bad:
            seed(s + 1)(settings(cfg, max_examples=n_bad)(given(sst.invalid_modules())(one_invalid)))()
        el = time.time() - t0
        print(f"{stats} {el:.0f}s {stats['cases'] / el:.1f} cases/s", file=sys.stderr, flush=True)
    stats["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
