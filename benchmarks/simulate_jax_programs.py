"""``shardy_py.simulate`` on every JAX program of tests/data/jax_programs and on examples/*.mlir: per
program the devices, the collectives device 0 ran, the largest difference of the outputs put together
from the devices' pieces against the unpartitioned run, and against JAX's own execution of the program
on 8 fake CPU devices (relative to max(1, |JAX's value|)), with the time simulate took.

    python benchmarks/simulate_jax_programs.py [--seed S] [--no-jax] [--examples-only] [--programs NAME...]

torch_xla_mlp.mlir (GSPMD ``mhlo.sharding`` strings) is imported to sdy first (``import_module``).
Exit status 0 when every program that runs matches both.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402
from jax_program_runs import ALL, lower_all, program_inputs, run_with_jax  # noqa: E402

import shardy_py  # noqa: E402
from shardy_py.interpreter.simulate import SimulationError  # noqa: E402

#: Relative tolerance of floats against JAX (XLA's CPU approximations; tests/test_simulate_jax_programs.py).
JAX_TOLERANCE = 2e-3


def _module(path: Path):
    module = shardy_py.parse(path.read_text(), str(path))
    if path.name == "torch_xla_mlp.mlir":
        from shardy_py.interop.xla_format import import_module

        module = import_module(module)
    return module


def _relative(ours: np.ndarray, theirs: np.ndarray) -> float:
    if ours.shape != theirs.shape:
        return float("inf")
    if ours.dtype.kind in "iub":
        return 0.0 if np.array_equal(ours, theirs) else float("inf")
    a, b = ours.astype(np.complex128), theirs.astype(np.complex128)
    with np.errstate(all="ignore"):
        diff = np.abs(a - b) / np.maximum(1.0, np.abs(b))
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    return float(np.where(same, 0.0, np.nan_to_num(diff, nan=np.inf)).max(initial=0.0))


def _collectives(result) -> str:
    counts = result.devices[0].collective_counts
    return ", ".join(f"{n} {name}" for name, n in sorted(counts.items())) or "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-jax", action="store_true", help="do not run the programs with JAX")
    ap.add_argument("--examples-only", action="store_true", help="only examples/*.mlir")
    ap.add_argument("--programs", nargs="*", default=None, help="only these programs or examples (by name)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        programs = [] if args.examples_only else sorted(lower_all(Path(tmp) / "lowered").glob("*.mlir"))
        examples = sorted((ROOT / "examples").glob("*.mlir"))
        paths = [(p.stem, p) for p in programs] + [(f"examples/{p.stem}", p) for p in examples]
        if args.programs:
            paths = [(name, p) for name, p in paths if name in args.programs or p.stem in args.programs]
        rows, inputs = [], {}
        for name, path in paths:
            module = _module(path)
            given = program_inputs(module, args.seed)
            arrays = [a for a, _ in given] if given is not None else []
            start = time.perf_counter()
            try:
                result = shardy_py.simulate(module, *arrays, seed=args.seed)
            except SimulationError as e:
                rows.append((name, None, e.message, time.perf_counter() - start))
                continue
            rows.append((name, result, None, time.perf_counter() - start))
            if name in ALL and given is not None:
                inputs[name] = arrays
        jax = {} if args.no_jax or not inputs else run_with_jax(inputs, Path(tmp) / "jax")
    print(f"{'program':28} {'devices':>7} {'collectives on device 0':40} {'vs unpartitioned':>16} "
          f"{'vs JAX (rel.)':>13} {'seconds':>8}  verdict")
    failed = 0
    for name, result, error, seconds in rows:
        if result is None:
            print(f"{name:28} {'-':>7} {'-':40} {'-':>16} {'-':>13} {seconds:8.2f}  not run: {error}")
            continue
        diff = max((o.difference for o in result.outputs), default=0.0)
        verdict = "equal" if result.ok else "DIFFERENT"
        theirs = jax.get(name)
        if theirs is None:
            against = "-"
        elif isinstance(theirs, str):
            against = "JAX fails"
            verdict += f"; JAX: {theirs.splitlines()[0][:80]}"
        else:
            rel = max((_relative(np.asarray(o.actual), t) for o, t in zip(result.outputs, theirs, strict=True)),
                      default=0.0)
            against = f"{rel:.2g}"
            if len(theirs) != len(result.outputs) or rel > JAX_TOLERANCE:
                verdict += ", DIFFERENT from JAX"
                failed += 1
            else:
                verdict += ", equal to JAX"
        failed += not result.ok
        print(f"{name:28} {len(result.devices):7} {_collectives(result):40} {diff:16.3g} {against:>13} "
              f"{seconds:8.2f}  {verdict}")
    ran = sum(r is not None for _, r, _, _ in rows)
    print(f"\n{ran} of {len(rows)} programs ran; {failed} differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
