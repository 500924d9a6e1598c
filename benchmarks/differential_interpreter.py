"""The numpy interpreter against StableHLO's C++ reference interpreter (jaxlib 0.12's
``stablehlo.eval_module``) on drawn single-op modules of every op the C++ runs: per op, how many draws
jaxlib answered, how many of those agree (integers and booleans bit-exact, floats within 1e-4 relative
or 2 ULPs), how many differ from the C++ where XLA (the module compiled for a CPU device) agrees with
ours, how many differ from both, and how many jaxlib could not answer.  Then the spec's ops that are not
drawn, with why.

    python benchmarks/differential_interpreter.py [--per-op N] [--seed S] [--ops OP...] [--show-failures]
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from interpreter_cases import OPS  # noqa: E402
from test_interpreter_differential import AGREE, CPP_DIFFERS, DIFFER, NO_ANSWER, compare  # noqa: E402

#: Ops of the StableHLO spec not drawn here, and why: jaxlib's interpreter cannot run them (so there is
#: nothing to compare with), or they stand in for others.
NOT_DRAWN = {
    "all_gather, all_reduce, all_to_all, collective_broadcast, collective_permute, reduce_scatter, "
    "partition_id, replica_id, send, recv, infeed, outfeed":
        "jaxlib's eval_module runs no process grid (interpreter.run_parallel is unsupported; these abort it); "
        "tests/test_interpreter_collectives.py and StableHLO's interpreter tests cover them",
    "batch_norm_inference, batch_norm_training, batch_norm_grad, cholesky, rng":
        "jaxlib's interpreter aborts on them (\"Unsupported op\"); StableHLO's interpreter tests cover them",
    "rng_bit_generator": "unsupported by the C++ reference; tests/test_interpreter_rng.py checks XLA's bits",
    "uniform_quantize, uniform_dequantize": "jaxlib has no quant dialect to parse them; StableHLO's interpreter "
                                            "tests cover them",
    "custom_call": "runs no target in either interpreter",
    "dot": "deprecated: dot_general",
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-op", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ops", nargs="*", default=None, help="only these ops (default: all)")
    ap.add_argument("--show-failures", action="store_true")
    args = ap.parse_args()
    print(f"{'op':26} {'compared':>8} {'agree':>6} {'C++ differs, XLA = ours':>24} {'differ':>6} "
          f"{'jaxlib no answer':>17}")
    totals: Counter = Counter()
    for k, op in enumerate(OPS):
        if args.ops and op not in args.ops:
            continue
        counts: Counter = Counter()
        for i in range(args.per_op):
            verdict, detail = compare(op, args.seed * 1_000_003 + k * 10_007 + i)
            counts[verdict] += 1
            if verdict in (DIFFER, CPP_DIFFERS) and args.show_failures:
                print(f"--- {op}: {verdict}\n{detail}", file=sys.stderr)
        compared = counts[AGREE] + counts[CPP_DIFFERS] + counts[DIFFER]
        print(f"{op:26} {compared:8} {counts[AGREE]:6} {counts[CPP_DIFFERS]:24} {counts[DIFFER]:6} "
              f"{counts[NO_ANSWER]:17}")
        totals.update(counts)
    compared = totals[AGREE] + totals[CPP_DIFFERS] + totals[DIFFER]
    print(f"{'total':26} {compared:8} {totals[AGREE]:6} {totals[CPP_DIFFERS]:24} {totals[DIFFER]:6} "
          f"{totals[NO_ANSWER]:17}")
    if not args.ops:
        print("\nnot drawn:")
        for ops, why in NOT_DRAWN.items():
            print(f"  {ops}: {why}")
    return 0 if totals[DIFFER] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
