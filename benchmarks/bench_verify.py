"""Verification cost against parse cost on the synthetic modules of ``bench_parse``.

    python benchmarks/bench_verify.py            # 2,000 / 20,000 / 200,000 ops
    python benchmarks/bench_verify.py 50000      # other sizes

One row per size: parse time, verify time, their ratio (must stay below 1), number
of diagnostics and microseconds per op for verification.
"""
from __future__ import annotations

import gc
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_parse import synthesise  # noqa: E402

import shardy_py  # noqa: E402
from shardy_py.verify import verify  # noqa: E402


def measure(n_ops: int) -> tuple[float, float, int, int]:
    """(parse seconds, verify seconds, op count, diagnostics) for a module of about ``n_ops`` ops."""
    text = synthesise(n_ops)
    gc.collect()
    t0 = time.perf_counter()
    module = shardy_py.parse(text)
    t1 = time.perf_counter()
    diags = verify(module)
    t2 = time.perf_counter()
    n = sum(1 for _ in module.walk())
    return t1 - t0, t2 - t1, n, len(diags)


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or [2_000, 20_000, 200_000]
    print(f"{'ops':>9} {'parse s':>8} {'verify s':>9} {'ratio':>6} {'diags':>6} {'us/op':>6}")
    worst = 0.0
    for size in sizes:
        p, v, n, d = measure(size)
        worst = max(worst, v / p)
        print(f"{n:>9} {p:>8.2f} {v:>9.2f} {v / p:>6.2f} {d:>6} {v / n * 1e6:>6.1f}")
    return 0 if worst < 1 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
