"""The numpy interpreter against StableHLO's C++ reference interpreter (jaxlib 0.12's
``stablehlo.eval_module``) on drawn single-op modules: per op, how many draws jaxlib answered and how
many of those agree (integers and booleans bit-exact, floats within 1e-4 relative or 2 ULPs).

    python benchmarks/differential_interpreter.py [--per-op N] [--seed S] [--ops OP...] [--show-failures]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np  # noqa: E402
from interpreter_cases import OPS  # noqa: E402
from test_interpreter_differential import compare  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-op", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ops", nargs="*", default=None, help="only these ops (default: all)")
    ap.add_argument("--show-failures", action="store_true")
    args = ap.parse_args()
    from interpreter_oracle import cpp_eval

    total_ok = total = total_skipped = 0
    print(f"{'op':28} {'compared':>8} {'agree':>6} {'jaxlib no answer':>17}")
    for k, op in enumerate(OPS):
        if args.ops and op not in args.ops:
            continue
        ok = compared = skipped = 0
        for i in range(args.per_op):
            seed = args.seed * 1_000_003 + k * 10_007 + i
            from interpreter_cases import draw_case

            text, cargs = draw_case(np.random.default_rng(seed), op)
            if cpp_eval(text, cargs) is None:
                skipped += 1
                continue
            compared += 1
            agreed, detail = compare(op, seed)
            ok += agreed
            if not agreed and args.show_failures:
                print(detail, file=sys.stderr)
        print(f"{op:28} {compared:8} {ok:6} {skipped:17}")
        total_ok += ok
        total += compared
        total_skipped += skipped
    print(f"{'total':28} {total:8} {total_ok:6} {total_skipped:17}")
    return 0 if total_ok == total else 1


if __name__ == "__main__":
    sys.exit(main())
