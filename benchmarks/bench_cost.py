"""Speed of ``shardy_py.cost`` and ``shardy_py.suggest``, side by side with the propagation pipeline
alone (ours, and the C++ Shardy's in jaxlib when jax is installed), in CPU time.

    python benchmarks/bench_cost.py [FILE] [--repeat N] [--candidates N]

Goals (issue 24): ``cost`` on examples/transformer_stack.mlir adds at most 1 s to propagation;
``suggest`` over 16 priority variants of it takes at most 30 s.  Rows: the propagation pipeline
(``shardy_py.propagate``; jaxlib's ``sdy-propagation-pipeline`` for reference), ``cost`` (which runs
that propagation, then the partitioner's passes and the costing), ``cost`` with its text and JSON
(every reason's origins read), and ``suggest`` with ``--candidates`` candidates.  Times are medians
of ``--repeat`` runs (``suggest`` runs once).  The last line on stdout is a JSON summary.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import shardy_py  # noqa: E402
from shardy_py.cost import cost, suggest  # noqa: E402


def cpu(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.process_time()
        result = fn()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def jaxlib_propagation(text: str, repeat: int) -> float | None:
    try:
        from jax._src.interpreters import mlir as jax_mlir
        from jax._src.lib.mlir import ir, passmanager
    except ImportError:
        return None
    ctx = jax_mlir.make_ir_context()

    def run():
        module = ir.Module.parse(text, context=ctx)
        passmanager.PassManager.parse("builtin.module(sdy-propagation-pipeline)", context=ctx).run(module.operation)

    return cpu(run, repeat)[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", default=str(ROOT / "examples" / "transformer_stack.mlir"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--candidates", type=int, default=16)
    args = ap.parse_args()
    text = Path(args.file).read_text()
    module = shardy_py.parse(text, args.file)
    ops = sum(1 for _ in module.walk())
    propagate, _ = cpu(lambda: shardy_py.propagate(module), args.repeat)
    costed, report = cpu(lambda: cost(module), args.repeat)
    def with_forms():
        r = cost(module)
        return r.text(), json.dumps(r.to_json())

    shown, _ = cpu(with_forms, args.repeat)
    start = time.process_time()
    found = suggest(module, max_candidates=args.candidates)
    searched = time.process_time() - start
    cpp = jaxlib_propagation(text, args.repeat)
    rows = [("propagation pipeline (shardy_py.propagate)", propagate),
            ("propagation pipeline (C++ in jaxlib)", cpp),
            ("cost", costed), ("cost + text + JSON with origins", shown),
            (f"suggest, {len(found.candidates)} candidates ({found.propagations} propagations, "
             f"{found.costings} costings)", searched)]
    print(f"{args.file}: {ops} ops, {len(report.collectives)} collectives, CPU seconds")
    for label, seconds in rows:
        print(f"  {label:<70} {'-' if seconds is None else f'{seconds:8.2f}'}")
    summary = {"file": args.file, "ops": ops, "propagate_s": propagate, "cpp_propagate_s": cpp, "cost_s": costed,
               "cost_adds_s": costed - propagate, "cost_with_forms_s": shown,
               "cost_with_forms_adds_s": shown - propagate, "suggest_s": searched,
               "suggest_candidates": len(found.candidates), "suggest_propagations": found.propagations,
               "goal_cost_adds_at_most_1s": costed - propagate <= 1.0, "goal_suggest_at_most_30s": searched <= 30.0}
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
