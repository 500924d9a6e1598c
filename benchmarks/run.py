"""One benchmark run: shardy_py side by side with the C++ Shardy (jaxlib) and xDSL, on the same text.

    python benchmarks/run.py                               # synthetic modules of 2k, 20k and 200k ops
    python benchmarks/run.py --sizes 2000 20000            # other sizes
    python benchmarks/run.py examples/*.mlir               # given files (real JAX exports)
    python benchmarks/run.py --skip-xdsl-above 200000 --json /tmp/bench.json

For every module it times, median of the repeats (5 up to 5k ops, 3 up to 50k, else 1; the C++
Shardy at least 3):

* shardy_py: ``shardy_py.parse``, ``shardy_py.verify`` and ``str(module)``. Each repeat runs in a
  fresh subprocess, so the attribute caches are cold as in a real first parse (imports and the
  Lark tables are built before the clock starts, on an unrelated warm-up module);
* the C++ Shardy in jaxlib, when jax is installed: ``ir.Module.parse`` (which, as MLIR does,
  already verifies the module once), ``operation.verify()`` and ``operation.get_asm()``, each
  repeat in a fresh ``MLIRContext``;
* xDSL, when installed and jax is there to produce its input: parse and print of the *generic*
  form that the C++ prints (``get_asm(print_generic_op_form=True)``), with
  ``Context(allow_unregistered=True)``; its MB/s are on that (larger) generic text;
* peak memory of each shardy_py phase, two ways: the growth of the peak resident set size
  (``VmHWM`` over the ``VmRSS`` at the phase start, the peak reset through
  ``/proc/self/clear_refs``) in the timing subprocess, and ``tracemalloc``'s peak in a
  separate subprocess (tracemalloc slows the code, so it is never timed). For parse the number
  includes the module that parse builds; for verify and print it is what they add on top.

It prints one table (seconds, MB/s, microseconds per op, memory), a summary of the ratios per
module and the issue's goals with the measured values. Synthetic modules come from
``synth.synthesise_module`` and must verify clean and print back byte-identical with both
shardy_py and the C++ Shardy, or the run fails. Exit status: 0 when every measurement ran, 1 when
a module failed to parse or a synthetic module was not clean, 2 on usage errors.
"""
from __future__ import annotations

import argparse
import gc
import importlib.util
import io
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from run_report import Subject, problems, report, versions

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
WORKER_TIMEOUT_S = 3600

WARM_UP_SDY = """module {
  sdy.mesh @warm = <["w"=2]>
  func.func @warm_up(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@warm, [{"w"}]>}) -> tensor<2xf32> {
    %0 = stablehlo.negate %arg0 : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
"""
WARM_UP_GENERIC = """"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>, sym_name = "warm_up"}> ({
  ^bb0(%arg0: tensor<2xf32>):
    %0 = "stablehlo.negate"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    "func.return"(%0) : (tensor<2xf32>) -> ()
  }) : () -> ()
}) : () -> ()
"""


# --------------------------------------------------------------------------------------------
# Workers: each runs in its own subprocess and prints one JSON object on its last stdout line.
# --------------------------------------------------------------------------------------------

def _proc_status_bytes(field_name: str) -> int | None:
    """``VmRSS``/``VmHWM`` of this process in bytes, or None where /proc is not available."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def _reset_peak_rss() -> bool:
    """Reset ``VmHWM`` to the current RSS (Linux); False when the kernel does not allow it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


class _RssPhase:
    """Peak RSS growth over one phase: ``with _RssPhase() as p: ...; p.growth``."""

    def __enter__(self) -> _RssPhase:
        self.reset = _reset_peak_rss()
        self.start = _proc_status_bytes("VmRSS")
        return self

    def __exit__(self, *exc) -> None:
        self.peak = _proc_status_bytes("VmHWM")
        self.growth = None if self.start is None or self.peak is None else max(0, self.peak - self.start)


def _read_text(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def _warm_up(shardy_py) -> None:
    """Import everything and build the Lark tables on an unrelated module, so the clock sees none of it."""
    module = shardy_py.parse(WARM_UP_SDY)
    shardy_py.verify(module)
    str(module)


def _prepared_shardy(path: str):
    """shardy_py (from this tree), warmed up, and the text of ``path``."""
    sys.path.insert(0, str(REPO))
    import shardy_py

    _warm_up(shardy_py)
    text = _read_text(path)
    gc.collect()
    return shardy_py, text


def _parse_error(name: str, e) -> dict:
    return {"error": f"{name}:{e.line}:{e.column}: error: {e.message}"}


def work_shardy(path: str, name: str) -> dict:
    """Time shardy_py's parse, verify and print of ``path`` once, with RSS growth per phase."""
    shardy_py, text = _prepared_shardy(path)
    base = _proc_status_bytes("VmRSS")
    with _RssPhase() as rss_parse:
        t0 = time.perf_counter()
        try:
            module = shardy_py.parse(text, name)
        except shardy_py.ParseError as e:
            return _parse_error(name, e)
        t1 = time.perf_counter()
    with _RssPhase() as rss_verify:
        t2 = time.perf_counter()
        diagnostics = shardy_py.verify(module)
        t3 = time.perf_counter()
    with _RssPhase() as rss_print:
        t4 = time.perf_counter()
        out = str(module)
        t5 = time.perf_counter()
    t6 = time.perf_counter()
    generic = shardy_py.print_module(module, generic=True)
    t7 = time.perf_counter()
    peaks = [p.peak for p in (rss_parse, rss_verify, rss_print) if p.peak is not None]
    return {
        "parse_s": t1 - t0, "verify_s": t3 - t2, "print_s": t5 - t4, "print_generic_s": t7 - t6,
        "generic_bytes": len(generic.encode()),
        "ops": sum(1 for _ in module.walk()) - 1,
        "diagnostics": len(diagnostics),
        "first_diagnostic": f"{name}:{diagnostics[0]}" if diagnostics else None,
        "round_trip": out == text, "output_bytes": len(out.encode()),
        "rss": {
            "parse": rss_parse.growth, "verify": rss_verify.growth, "print": rss_print.growth,
            "peak": max(peaks) - base if peaks and base is not None else None,
            "peak_reset": rss_parse.reset,
        },
    }


def work_tracemalloc(path: str, name: str) -> dict:
    """tracemalloc peaks of shardy_py's parse (module included), verify and print (extra) of ``path``."""
    shardy_py, text = _prepared_shardy(path)
    tracemalloc.start()
    try:
        module = shardy_py.parse(text, name)
    except shardy_py.ParseError as e:
        tracemalloc.stop()
        return _parse_error(name, e)
    held, parse_peak = tracemalloc.get_traced_memory()
    extra = {}
    for phase, run in (("verify", lambda: shardy_py.verify(module)), ("print", lambda: str(module))):
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        result = run()
        extra[phase] = tracemalloc.get_traced_memory()[1] - before
        del result
    tracemalloc.stop()
    return {"tracemalloc": {"parse": parse_peak, "verify": extra["verify"], "print": extra["print"],
                            "peak": max(parse_peak, held + extra["verify"], held + extra["print"]),
                            "module": held}}


def work_cpp(path: str, repeats: int, generic_out: str | None) -> dict:
    """Time the C++ Shardy's parse (verifies too), verify and ``get_asm``; write the generic form."""
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir

    mlir_error = getattr(ir, "MLIRError", ValueError)

    def fresh_context():
        ctx = mlir.make_ir_context()
        ctx.allow_unregistered_dialects = True
        return ctx

    ir.Module.parse(WARM_UP_SDY, context=fresh_context())
    text = _read_text(path)
    times: dict[str, list[float]] = {"parse_s": [], "verify_s": [], "print_s": []}
    generic_times: list[float] = []
    first_error = None
    for _ in range(repeats):
        ctx = fresh_context()
        gc.collect()
        t0 = time.perf_counter()
        try:
            module = ir.Module.parse(text, context=ctx)
        except mlir_error as e:
            return {"error": "C++ Shardy rejects the module: " + " ".join(str(e).strip().splitlines()[:2])}
        t1 = time.perf_counter()
        try:
            verified = module.operation.verify()
        except mlir_error as e:
            verified, first_error = False, str(e).strip()
        t2 = time.perf_counter()
        asm = module.operation.get_asm()
        t3 = time.perf_counter()
        for key, t in zip(times, (t1 - t0, t2 - t1, t3 - t2), strict=True):
            times[key].append(t)
        t4 = time.perf_counter()
        module.operation.get_asm(print_generic_op_form=True)
        generic_times.append(time.perf_counter() - t4)
    result = {**times, "print_generic_s": generic_times, "verified": bool(verified), "round_trip": asm == text,
              "output_bytes": len(asm.encode())}
    if not verified:
        result["first_error"] = first_error
    if generic_out:
        generic = module.operation.get_asm(print_generic_op_form=True)
        Path(generic_out).write_text(generic, encoding="utf-8")
        result["generic_bytes"] = len(generic.encode())
    return result


def work_xdsl(path: str, repeats: int) -> dict:
    """Time xDSL's parse and print of the generic-form text in ``path``, a fresh Context each repeat."""
    from xdsl.context import Context
    from xdsl.parser import Parser
    from xdsl.printer import Printer
    from xdsl.utils.exceptions import ParseError

    def print_op(op) -> str:
        stream = io.StringIO()
        Printer(stream=stream).print_op(op)
        return stream.getvalue()

    print_op(Parser(Context(allow_unregistered=True), WARM_UP_GENERIC).parse_module())
    text = _read_text(path)
    times: dict[str, list[float]] = {"parse_s": [], "print_s": []}
    for _ in range(repeats):
        ctx = Context(allow_unregistered=True)
        gc.collect()
        t0 = time.perf_counter()
        try:
            module = Parser(ctx, text, path).parse_module()
        except ParseError as e:
            return {"error": f"xDSL rejects the generic form: {str(e).strip().splitlines()[0]}"}
        t1 = time.perf_counter()
        out = print_op(module)
        t2 = time.perf_counter()
        times["parse_s"].append(t1 - t0)
        times["print_s"].append(t2 - t1)
        del module
    return {**times, "output_bytes": len(out.encode())}


def _worker_main(args: argparse.Namespace) -> int:
    kind, path = args.worker
    if kind == "shardy_py":
        result = work_shardy(path, args.name or path)
    elif kind == "tracemalloc":
        result = work_tracemalloc(path, args.name or path)
    elif kind == "cpp":
        result = work_cpp(path, args.repeats or 1, args.generic_out)
    else:
        result = work_xdsl(path, args.repeats or 1)
    print(json.dumps(result))
    return 0


# --------------------------------------------------------------------------------------------
# The parent: modules, subprocesses, medians.
# --------------------------------------------------------------------------------------------

def _run_worker(argv: list[str]) -> dict:
    """Run ``run.py --worker ...`` in a subprocess; its JSON result, or ``{"error": ...}``."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", *argv]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=WORKER_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {WORKER_TIMEOUT_S} s"}
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        errors = [ln for ln in proc.stderr.splitlines() if re.match(r"[\w.]*(Error|Exception)\b", ln)]
        tail = (errors or proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"worker exited with status {proc.returncode}: {tail}"}
    return json.loads(lines[-1])


def default_repeats(ops: int) -> int:
    """How many repeats a module of ``ops`` ops gets: more for small, noisier ones."""
    return 5 if ops <= 5_000 else 3 if ops <= 50_000 else 1


def _medians(runs: list[dict], keys: tuple[str, ...]) -> dict:
    return {k: statistics.median(r[k] for r in runs) for k in keys}


def measure_ours(subject: Subject, repeats: int, with_tracemalloc: bool) -> None:
    """Fill ``subject.ours``: median times over ``repeats`` fresh processes, RSS of the first, tracemalloc."""
    runs = []
    for _ in range(repeats):
        result = _run_worker(["shardy_py", str(subject.path), "--name", subject.label])
        if "error" in result:
            subject.ours = {"error": result["error"]}
            return
        runs.append(result)
    first = runs[0]
    subject.ops = first["ops"]
    totals = [r["parse_s"] + r["verify_s"] + r["print_s"] for r in runs]
    subject.ours = {**_medians(runs, ("parse_s", "verify_s", "print_s", "print_generic_s")),
                    "total_s": statistics.median(totals), "generic_bytes": first["generic_bytes"],
                    "repeats": repeats, "runs": runs, "rss": first["rss"], "diagnostics": first["diagnostics"],
                    "first_diagnostic": first["first_diagnostic"], "round_trip": first["round_trip"],
                    "output_bytes": first["output_bytes"]}
    if with_tracemalloc:
        mem = _run_worker(["tracemalloc", str(subject.path), "--name", subject.label])
        subject.ours["tracemalloc"] = mem.get("tracemalloc")
        if "error" in mem:
            subject.notes.append(f"tracemalloc run failed: {mem['error']}")


def measure_cpp(subject: Subject, repeats: int, generic_path: Path | None) -> None:
    """Fill ``subject.cpp`` (and write the generic form to ``generic_path`` for xDSL)."""
    argv = ["cpp", str(subject.path), "--repeats", str(repeats)]
    if generic_path is not None:
        argv += ["--generic-out", str(generic_path)]
    result = _run_worker(argv)
    if "error" in result:
        subject.cpp = result
        return
    totals = [p + v + q for p, v, q in zip(result["parse_s"], result["verify_s"], result["print_s"], strict=True)]
    timed = ("parse_s", "verify_s", "print_s", "print_generic_s")
    subject.cpp = {**{k: statistics.median(result[k]) for k in timed},
                   "total_s": statistics.median(totals), "repeats": repeats,
                   **{k: v for k, v in result.items() if not k.endswith("_s")}}


def measure_xdsl(subject: Subject, repeats: int, generic_path: Path) -> None:
    """Fill ``subject.xdsl`` from the generic form the C++ printed."""
    result = _run_worker(["xdsl", str(generic_path), "--repeats", str(repeats)])
    if "error" in result:
        subject.xdsl = result
        return
    totals = [p + q for p, q in zip(result["parse_s"], result["print_s"], strict=True)]
    subject.xdsl = {"parse_s": statistics.median(result["parse_s"]), "print_s": statistics.median(result["print_s"]),
                    "total_s": statistics.median(totals), "repeats": repeats,
                    "input_bytes": generic_path.stat().st_size, "output_bytes": result["output_bytes"]}


def size_label(n_ops: int) -> str:
    """``2000`` -> ``synth 2k``; sizes that are not whole thousands keep all digits."""
    return f"synth {n_ops // 1000}k" if n_ops % 1000 == 0 else f"synth {n_ops}"


def synthetic_subjects(sizes: list[int], workdir: Path) -> list[Subject]:
    """Write the synthetic modules of ``sizes`` ops to ``workdir``."""
    sys.path.insert(0, str(HERE))
    from synth import synthesise_module

    subjects = []
    for n in sizes:
        text = synthesise_module(n)
        path = workdir / f"synth-{n}.mlir"
        path.write_text(text, encoding="utf-8")
        subjects.append(Subject(size_label(n), path, len(text.encode()), requested_ops=n))
    return subjects


class UsageError(Exception):
    """A bad command line or an unreadable FILE: printed as ``error: ...``, exit status 2."""


def file_subjects(files: list[str]) -> list[Subject]:
    """Subjects for given files, which must be readable UTF-8 text."""
    subjects = []
    for name in files:
        path = Path(name)
        try:
            data = path.read_bytes()
            data.decode("utf-8")
        except OSError as e:
            raise UsageError(f"cannot read {name}: {e.strerror}") from None
        except UnicodeDecodeError as e:
            raise UsageError(f"{name}: not UTF-8 text (byte {e.start}: {e.reason})") from None
        subjects.append(Subject(name, path, len(data)))
    return subjects


def measure(subject: Subject, args: argparse.Namespace, have_cpp: bool, have_xdsl: bool, generic: Path,
            progress: Callable[[str], None]) -> None:
    """Every measurement of one subject, in order: shardy_py, C++ Shardy, xDSL (reading ``generic``)."""
    guess = subject.requested_ops or max(1, subject.input_bytes // 120)
    repeats = args.repeats or default_repeats(guess)
    progress(f"{subject.label}: shardy_py x{repeats}")
    measure_ours(subject, repeats, not args.no_tracemalloc)
    ops = subject.requested_ops or subject.ops or guess
    run_xdsl = have_xdsl and ops <= args.skip_xdsl_above
    if have_cpp:
        cpp_repeats = args.repeats or max(3, repeats)      # cheap: always a median
        progress(f"{subject.label}: C++ Shardy x{cpp_repeats}")
        measure_cpp(subject, cpp_repeats, generic if run_xdsl else None)
    if not run_xdsl:
        subject.xdsl = {"skipped": "xdsl is not installed" if not have_xdsl else
                        "jax is needed to print the generic form xDSL reads" if not have_cpp else
                        f"{ops} ops > --skip-xdsl-above {args.skip_xdsl_above}"}
    elif "error" in subject.cpp:
        subject.xdsl = {"skipped": "the C++ Shardy did not produce the generic form"}
    else:
        progress(f"{subject.label}: xDSL x{repeats}")
        measure_xdsl(subject, repeats, generic)


def build_parser() -> argparse.ArgumentParser:
    sys.path.insert(0, str(REPO))
    from shardy_py.cli import positive_int

    parser = argparse.ArgumentParser(prog="benchmarks/run.py", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="time these .mlir files instead of the synthetic modules")
    parser.add_argument("--sizes", nargs="+", type=positive_int, metavar="OPS",
                        help="synthetic module sizes in ops (default 2000 20000 200000 without FILEs)")
    parser.add_argument("--skip-xdsl-above", type=int, default=20_000, metavar="N",
                        help="run xDSL only on modules of at most N ops (default 20000; it needs ~90 s at 200k)")
    parser.add_argument("--repeats", type=positive_int, metavar="R",
                        help="repeats per measurement (default 5 up to 5k ops, 3 up to 50k, else 1)")
    parser.add_argument("--no-tracemalloc", action="store_true", help="skip the tracemalloc memory run")
    parser.add_argument("--json", metavar="OUT", help="also write every number to OUT as JSON")
    parser.add_argument("--worker", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--name", help=argparse.SUPPRESS)
    parser.add_argument("--generic-out", help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point: measure, print the tables, write ``--json``; the exit status described above."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.worker:
        return _worker_main(args)
    sizes = args.sizes or ([] if args.files else [2_000, 20_000, 200_000])
    try:
        given = file_subjects(args.files)
        if args.json and not Path(args.json).resolve().parent.is_dir():
            raise UsageError(f"cannot write {args.json}: its directory does not exist")
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    have_cpp = importlib.util.find_spec("jax") is not None
    have_xdsl = importlib.util.find_spec("xdsl") is not None
    machine = {"cpus": os.cpu_count(), "load_before": _load(), "python": platform.python_version(),
               "versions": versions(have_cpp, have_xdsl)}
    with tempfile.TemporaryDirectory(prefix="shardy-bench-") as tmp:
        workdir = Path(tmp)
        subjects = synthetic_subjects(sizes, workdir) + given
        for i, s in enumerate(subjects):
            measure(s, args, have_cpp, have_xdsl, workdir / f"generic-{i}.mlir", _progress)
        machine["load_after"] = _load()
        result = report(subjects, machine)
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            print(f"error: cannot write {args.json}: {e.strerror}", file=sys.stderr)
            return 2
    failures = problems(subjects)
    for line in failures:
        print(f"error: {line}", file=sys.stderr)
    return 1 if failures else 0


def _progress(message: str) -> None:
    print(f"... {message}", file=sys.stderr, flush=True)


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
