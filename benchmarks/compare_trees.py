"""Parse + verify + print of one text by two checkouts of shardy_py, side by side with the C++ Shardy.

    python benchmarks/compare_trees.py /tmp/wt-base .                  # 20k-op synthetic module, 7 rounds
    python benchmarks/compare_trees.py /tmp/wt-base . --sizes 2000 20000 --rounds 9
    python benchmarks/compare_trees.py /tmp/wt-base . --file examples/transformer_stack.mlir

A speed budget such as "parse+verify+print stays within 1.2x of commit X" is a ratio between two
versions of the code on one machine; on a shared machine wall times swing with the load, so this
measures process CPU time, in a fresh process per measurement (cold attribute caches, as a user's
first parse), alternating the two checkouts round by round so that both meet the same load. Every
process is given the same text: synthesised once by this checkout's ``benchmarks/synth.py`` (or read
from ``--file``), so the two trees' synthesisers cannot differ. Imports and a warm-up parse of
``examples/mlp.mlir`` come before the clock starts. The C++ Shardy (jaxlib: ``ir.Module.parse``, which
verifies, then ``get_asm``) is timed in the same rounds when jax is installed.

It prints, per module, the minimum and median CPU seconds of parse, verify and print for each tree,
the ratio of the sums (new / base) and each tree's ratio to the C++. Exit status: 0, or 1 when a tree
fails to parse, verify clean or print the text back unchanged.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: Run in a fresh process with the tree first on sys.path: prints {"parse": s, "verify": s, "print": s}.
_SHARDY_PY = r"""
import gc, json, sys, time
sys.path.insert(0, sys.argv[1])
import shardy_py
tree, text = sys.argv[1], open(sys.argv[2]).read()
warm = shardy_py.parse(open(tree + "/examples/mlp.mlir").read()); shardy_py.verify(warm); str(warm)
gc.collect()
t0 = time.process_time(); module = shardy_py.parse(text)
t1 = time.process_time(); diagnostics = shardy_py.verify(module)
t2 = time.process_time(); printed = str(module)
t3 = time.process_time()
print(json.dumps({"parse": t1 - t0, "verify": t2 - t1, "print": t3 - t2,
                  "clean": not diagnostics, "same": printed.strip() == text.strip()}))
"""

#: The C++ Shardy in jaxlib, same shape of measurement (parse verifies; verify() again; get_asm).
_CPP = r"""
import json, sys, time
from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir
text = open(sys.argv[1]).read()
ctx = mlir.make_ir_context()
ir.Module.parse('module {}', context=ctx)
t0 = time.process_time(); module = ir.Module.parse(text, context=ctx)
t1 = time.process_time(); module.operation.verify()
t2 = time.process_time(); module.operation.get_asm()
t3 = time.process_time()
print(json.dumps({"parse": t1 - t0, "verify": t2 - t1, "print": t3 - t2, "clean": True, "same": True}))
"""

PHASES = ("parse", "verify", "print")


def measure(code: str, *args: str) -> dict:
    """One fresh process's CPU seconds per phase."""
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed")
    return json.loads(done.stdout.strip().splitlines()[-1])


def has_jax() -> bool:
    """Whether jaxlib (the C++ Shardy) can be imported by this Python."""
    return subprocess.run([sys.executable, "-c", "import jax._src.lib.mlir"], capture_output=True).returncode == 0


def summary(runs: list[dict]) -> dict:
    """Minimum and median of each phase and of the sum."""
    out = {}
    for key in (*PHASES, "sum"):
        values = [sum(r[p] for p in PHASES) if key == "sum" else r[key] for r in runs]
        out[key] = (min(values), statistics.median(values))
    return out


def compare(label: str, path: Path, base: Path, new: Path, rounds: int, cpp: bool) -> bool:
    """Time the text at ``path`` ``rounds`` times per side, alternating; print the table. False on failure."""
    runs: dict[str, list[dict]] = {"base": [], "new": [], "C++": []}
    for _ in range(rounds):
        for side, tree in (("base", base), ("new", new)):
            result = measure(_SHARDY_PY, str(tree), str(path))
            if not (result["clean"] and result["same"]):
                print(f"{label}: {side} ({tree}) did not verify clean or print the text back", file=sys.stderr)
                return False
            runs[side].append(result)
        if cpp:
            runs["C++"].append(measure(_CPP, str(path)))
    stats = {side: summary(r) for side, r in runs.items() if r}
    print(f"\n{label}: CPU seconds, min / median of {rounds} fresh processes each")
    print(f"  {'':6} " + " ".join(f"{k:>17}" for k in (*PHASES, "sum")))
    for side, s in stats.items():
        print(f"  {side:6} " + " ".join(f"{s[k][0]:8.4f}/{s[k][1]:8.4f}" for k in (*PHASES, "sum")))
    ratio_min = stats["new"]["sum"][0] / stats["base"]["sum"][0]
    ratio_median = stats["new"]["sum"][1] / stats["base"]["sum"][1]
    print(f"  new / base (parse+verify+print): {ratio_min:.3f}x by minimum, {ratio_median:.3f}x by median")
    if "C++" in stats:
        for side in ("base", "new"):
            print(f"  {side} / C++: {stats[side]['sum'][1] / stats['C++']['sum'][1]:.2f}x by median")
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base", type=Path, help="the checkout to compare against (e.g. a git worktree of the base commit)")
    ap.add_argument("new", type=Path, help="the checkout being measured")
    ap.add_argument("--sizes", nargs="+", type=int, default=[20000], help="synthetic module sizes in ops")
    ap.add_argument("--file", type=Path, action="append", default=[], help="a module file instead (repeatable)")
    ap.add_argument("--rounds", type=int, default=7, help="fresh processes per side and module (default 7)")
    ap.add_argument("--no-cpp", action="store_true", help="do not time the C++ Shardy")
    args = ap.parse_args()
    for tree in (args.base, args.new):
        if not (tree / "shardy_py" / "__init__.py").is_file() or not (tree / "examples" / "mlp.mlir").is_file():
            ap.error(f"{tree} is not a shardy_py checkout (no shardy_py/__init__.py or examples/mlp.mlir)")
    cpp = not args.no_cpp and has_jax()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        inputs = [(str(f), f) for f in args.file]
        if not args.file:
            sys.path.insert(0, str(HERE))
            from synth import synthesise_module

            for size in args.sizes:
                path = Path(tmp) / f"synthetic_{size}.mlir"
                path.write_text(synthesise_module(size))
                inputs.append((f"synthetic {size} ops", path))
        for label, path in inputs:
            ok = compare(label, path, args.base.resolve(), args.new.resolve(), args.rounds, cpp) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
