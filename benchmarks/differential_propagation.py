"""Long differential run of the propagation pipeline against the C++ Shardy in jaxlib.

    python benchmarks/differential_propagation.py --cases 10000 [--seed 0]
        [--modes default,conservative] [--jobs 1] [--out DIR] [--timeout 60]

Draws modules from ``shardy_py.strategies.propagation_module_texts()`` and runs each, in every
mode, through jaxlib's C++ Shardy and through shardy_py; the printed modules must be identical.

* ``default``: ``sdy-propagation-pipeline`` on both sides (jaxlib's registered pipeline; ours the
  registered ``-sdy-propagation-pipeline``).  jaxlib also runs the pipeline spelt out pass by pass
  (``expanded_pipeline``); that it prints the same as the registered one is counted
  (``expansion_mismatch``), which validates the spelling used for the other mode.
* ``conservative``: the same pipeline with ``PropagationOptions.conservativePropagation`` (neither
  C++ registration exposes the option, so jaxlib runs the spelt-out pipeline with
  ``sdy-user-priority-propagate{conservative-propagation=true keep-sharding-rules=true}``, ours
  the same step list).

jaxlib runs in worker subprocesses, restarted when one dies (the C++ aborts or segfaults on some
inputs) or exceeds ``--timeout``; shardy_py runs in-process under a ``SIGALRM`` timeout.  Counts
per mode: drawn, jaxlib_crashed, jaxlib_error, ours_error, both_error, equal, different and
ours_timeout (jaxlib 0.12's Shardy is newer than the test files' commit: no difference is exempt).
Every differing, crashing or one-sided-error input is written to ``--out``
(input, then both outputs).  Progress goes to stderr; the last line on stdout is a JSON summary.
With ``--jobs J`` the cases are split over J processes (seeds ``S``, ``S+1``, ...), summed at the end.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from propagation_pipelines import CPP_PIPELINES, FAILED, ours  # noqa: E402

MODES = ("default", "conservative")
COUNTS = ("drawn", "jaxlib_crashed", "jaxlib_error", "ours_error", "ours_timeout", "both_error", "equal",
          "different", "expansion_mismatch")


# -- the jaxlib worker ----------------------------------------------------------------------------

def worker() -> None:
    """Read ``{"text", "pipelines"}`` lines on stdin, answer ``{"outs": [...]}`` lines (``FAILED`` for
    a pipeline that fails)."""
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir, passmanager

    ctx = jax_mlir.make_ir_context()
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # C++ prints to fd 1 must not mix with the answers
    for line in sys.stdin:
        req = json.loads(line)
        outs = []
        for pipeline in req["pipelines"]:
            try:
                module = ir.Module.parse(req["text"], context=ctx)
                passmanager.PassManager.parse(pipeline, context=ctx).run(module.operation)
                outs.append(module.operation.get_asm())
            except (ir.MLIRError, ValueError):
                outs.append(FAILED)
        out.write(json.dumps({"outs": outs}) + "\n")
        out.flush()


class Jaxlib:
    """A restartable jaxlib worker subprocess: ``script --worker`` (default: this script's worker),
    one JSON request line in, one JSON answer line out."""

    def __init__(self, timeout: float, script: str = __file__) -> None:
        self.timeout = timeout
        self.script = script
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        """(Re)start the worker."""
        self.stop()
        self.proc = subprocess.Popen([sys.executable, self.script, "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def stop(self) -> None:
        """Kill the worker (if any)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def run(self, text: str, pipelines: list[str]) -> list[str] | None:
        """The worker's outputs, or None when it died or timed out (it is then restarted)."""
        answer = self.ask({"text": text, "pipelines": pipelines})
        return None if answer is None else answer["outs"]

    def ask(self, request: dict) -> dict | None:
        """The worker's answer to ``request``, or None when it died or timed out (it is then restarted)."""
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        assert self.proc and self.proc.stdin and self.proc.stdout
        try:
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.start()
            return None
        buf = b""
        deadline = time.time() + self.timeout
        fd = self.proc.stdout.fileno()
        while not buf.endswith(b"\n"):
            left = deadline - time.time()
            ready = select.select([fd], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                self.start()
                return None
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                self.start()
                return None
            buf += chunk
        return json.loads(buf)


# -- the run --------------------------------------------------------------------------------------

class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


class Run:
    """Counts of one run (one process)."""

    def __init__(self, out: Path, modes: list[str], timeout: float) -> None:
        self.out = out
        self.modes = modes
        self.timeout = timeout
        self.jaxlib = Jaxlib(timeout)
        self.pipelines = CPP_PIPELINES
        self.stats = {m: dict.fromkeys(COUNTS, 0) for m in modes}
        self.n = 0
        signal.signal(signal.SIGALRM, _alarm)

    def save(self, kind: str, mode: str, text: str, cpp_out: str, mine: str) -> None:
        """Write a case worth looking at to ``--out``."""
        path = self.out / f"{kind}-{mode}-{os.getpid()}-{self.n}.mlir"
        path.write_text(f"{text}\n// ===== jaxlib ({mode})\n{cpp_out}\n// ===== ours\n{mine}\n")

    def case(self, text: str) -> None:
        """Run one drawn module in every mode."""
        self.n += 1
        names = [p for m in self.modes for p in (["default", "expanded"] if m == "default" else [m])]
        outs = self.jaxlib.run(text, [self.pipelines[p] for p in names])
        cpp_outs = dict(zip(names, outs, strict=True)) if outs is not None else None
        for mode in self.modes:
            st = self.stats[mode]
            st["drawn"] += 1
            signal.alarm(int(self.timeout))
            try:
                mine = ours(text, mode == "conservative", detail=True)
            except _Timeout:
                mine = "<timeout>"
            except Exception as e:  # noqa: BLE001 - any crash of ours is counted and kept
                mine = f"<exception {type(e).__name__}: {e}>"
            finally:
                signal.alarm(0)
            if cpp_outs is None:
                st["jaxlib_crashed"] += 1
                self.save("crash", mode, text, "<crashed or timed out>", mine)
                continue
            theirs = cpp_outs[mode]
            if mode == "default" and cpp_outs["expanded"] != theirs:
                st["expansion_mismatch"] += 1
                self.save("expansion", mode, text, theirs, cpp_outs["expanded"])
            if mine == "<timeout>":
                st["ours_timeout"] += 1
                self.save("timeout", mode, text, theirs, mine)
            elif theirs == FAILED and mine.startswith(FAILED):
                st["both_error"] += 1
            elif theirs == FAILED:
                st["jaxlib_error"] += 1
                self.save("jaxlib-error", mode, text, theirs, mine)
            elif mine.startswith((FAILED, "<exception")):
                st["ours_error"] += 1
                self.save("ours-error", mode, text, theirs, mine)
            elif mine == theirs:
                st["equal"] += 1
            else:
                st["different"] += 1
                self.save("different", mode, text, theirs, mine)


def run_shard(cases: int, seed: int, modes: list[str], out: Path, timeout: float, batch: int) -> dict:
    """Run ``cases`` drawn modules in this process; the counts."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    from shardy_py.strategies import propagation_module_texts

    run = Run(out, modes, timeout)
    rnd = random.Random(seed)
    cfg = settings(database=None, deadline=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    t0 = time.time()
    done = 0
    while done < cases:
        n = min(batch, cases - done)
        try:
            hseed(rnd.getrandbits(64))(settings(cfg, max_examples=n)(given(propagation_module_texts())(run.case)))()
        except Exception as e:  # noqa: BLE001 - a drawing bug ends this batch only; it is reported
            print(f"[seed {seed}] batch stopped: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
            run.stats[modes[0]].setdefault("batches_stopped", 0)
            run.stats[modes[0]]["batches_stopped"] += 1
            if run.n == done:
                break
        done = run.n
        print(f"[seed {seed}] {done} cases {time.time() - t0:.0f}s {json.dumps(run.stats)}", file=sys.stderr,
              flush=True)
    run.jaxlib.stop()
    return run.stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--modes", default="default,conservative")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per module and side")
    ap.add_argument("--batch", type=int, default=200, help="examples per hypothesis run")
    ap.add_argument("--out", default="/tmp/differential_propagation")
    ap.add_argument("--json-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker()
        return
    modes = [m for m in args.modes.split(",") if m]
    if unknown := set(modes) - set(MODES):
        ap.error(f"unknown modes {sorted(unknown)}; known: {', '.join(MODES)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    if args.jobs <= 1:
        stats = run_shard(args.cases, args.seed, modes, out, args.timeout, args.batch)
    else:
        share = [args.cases // args.jobs + (i < args.cases % args.jobs) for i in range(args.jobs)]
        procs = [subprocess.Popen([sys.executable, __file__, "--json-only", "--cases", str(n), "--seed",
                                   str(args.seed + i), "--modes", args.modes, "--timeout", str(args.timeout),
                                   "--batch", str(args.batch), "--out", str(out)], stdout=subprocess.PIPE)
                 for i, n in enumerate(share) if n]
        stats = {m: dict.fromkeys(COUNTS, 0) for m in modes}
        for p in procs:
            part = json.loads(p.communicate()[0].decode().strip().splitlines()[-1])
            for m in modes:
                for k, v in part["modes"][m].items():
                    stats[m][k] = stats[m].get(k, 0) + v
    summary = {"cases": args.cases, "seed": args.seed, "jobs": args.jobs, "seconds": round(time.time() - t0, 1),
               "modes": stats}
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
