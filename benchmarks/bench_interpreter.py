"""Speed of the numpy StableHLO interpreter side by side with jaxlib 0.12's C++ reference
interpreter (``stablehlo.eval_module``, timed inside its own process): on every JAX program of
tests/data/jax_programs (programs.py and sharded_programs.py) that the C++ runs, with random inputs
(the C++ gets CHLO decomposed and sharding annotations bypassed, as tests/interpreter_oracle.py
prepares them; only its ``eval_module`` call is timed), and on an elementwise + reduce program at
growing sizes (time per element: linear when it stays flat).  Both are the best of ``--repeat`` runs
(ours: ``interpret`` on the parsed module; the first run, which also prepares each op once, reported
apart).

    python benchmarks/bench_interpreter.py [--sizes 1000 10000 100000 1000000] [--repeat 3]
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
from interpreter_oracle import cpp_eval_timed  # noqa: E402
from jax_program_runs import lower_all, program_inputs  # noqa: E402

import shardy_py  # noqa: E402

SCALING = """func.func @main(%a: tensor<{n}xf32>, %b: tensor<{n}xf32>) -> (tensor<f32>, tensor<{n}xf32>) {{
  %0 = stablehlo.multiply %a, %b : tensor<{n}xf32>
  %1 = stablehlo.tanh %0 : tensor<{n}xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %z) applies stablehlo.add across dimensions = [0]
    : (tensor<{n}xf32>, tensor<f32>) -> tensor<f32>
  return %2, %1 : tensor<f32>, tensor<{n}xf32>
}}
"""


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000, 100000, 1000000])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    slower = []
    with tempfile.TemporaryDirectory() as out:
        lower_all(Path(out))
        print(f"{'program':28} {'ops':>5} {'ours ms':>9} {'first ms':>9} {'C++ ms':>9} {'C++/ours':>9}")
        for path in sorted(Path(out).glob("*.mlir")):
            text = path.read_text()
            module = shardy_py.parse(text)
            inputs = program_inputs(module, 0)
            if inputs is None:
                continue
            cpp = cpp_eval_timed(text, inputs)
            if cpp is None:
                continue
            cpp_seconds = min([cpp[1]] + [cpp_eval_timed(text, inputs)[1] for _ in range(args.repeat - 1)])
            arrays = [a for a, _ in inputs]
            start = time.perf_counter()
            shardy_py.interpret(module, *arrays)
            first = time.perf_counter() - start
            ours = best(lambda: shardy_py.interpret(module, *arrays), args.repeat)  # noqa: B023
            ops = sum(1 for _ in module.walk())
            print(f"{path.stem:28} {ops:5} {ours * 1e3:9.2f} {first * 1e3:9.2f} {cpp_seconds * 1e3:9.2f} "
                  f"{cpp_seconds / ours:9.2f}")
            if ours > cpp_seconds:
                slower.append(path.stem)
    print(f"\nslower than the C++: {', '.join(slower) or 'none'}")
    print(f"\n{'elements':>10} {'ours us/elem':>13} {'C++ us/elem':>12}")
    rng = np.random.default_rng(0)
    for n in args.sizes:
        text = SCALING.format(n=n)
        module = shardy_py.parse(text)
        a = rng.standard_normal(n).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        ours = best(lambda: shardy_py.interpret(module, a, b), args.repeat)  # noqa: B023
        cpp = cpp_eval_timed(text, [(a, "f32"), (b, "f32")], timeout=600) if n <= 100000 else None
        cpp_text = f"{cpp[1] / n * 1e6:12.3f}" if cpp is not None else f"{'-':>12}"
        print(f"{n:10} {ours / n * 1e6:13.4f} {cpp_text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
