"""``-sdy-populate-op-sharding-rules`` on both sides, for the rule tests: ours (``run_pass``) and
jaxlib's C++ Shardy (``cpp_populate``; ``jaxlib_populate`` for both modes at once;
``jaxlib_populate_isolated`` and ``jaxlib_populate_all`` for inputs that may crash jaxlib), normal
and conservative.  The generic pipeline oracle is ``cpp_oracle``."""
from __future__ import annotations

import atexit
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from cpp_oracle import cpp, require_jax

import shardy_py
from shardy_py.passes.manager import PassContext, PassError, PassManager
from shardy_py.rules.sharding_rule import reset_warnings

PASS = "sdy-populate-op-sharding-rules"
#: Our flag -> the jaxlib pipeline running the same pass with the same option.
MODES = {
    PASS: f"builtin.module(func.func({PASS}))",
    f"{PASS}=conservative-propagation=true": f"builtin.module(func.func({PASS}{{conservative-propagation=true}}))",
}


def populate_flag(conservative: bool) -> str:
    """Our command-line flag running the pass."""
    return f"-{PASS}=conservative-propagation={'true' if conservative else 'false'}"


def populate_pipeline(conservative: bool) -> str:
    """jaxlib's pipeline running the pass."""
    return f"builtin.module(func.func({PASS}{{conservative-propagation={'true' if conservative else 'false'}}}))"


def populate(text: str, conservative: bool = False) -> tuple[shardy_py.Module, PassContext]:
    """``text`` after our pass, and the pass's diagnostics (warnings are once per process: reset)."""
    reset_warnings()
    module = shardy_py.parse(text)
    ctx = PassManager.parse(populate_flag(conservative)).run(module)
    return module, ctx


def run_pass(text: str, conservative: bool = False) -> shardy_py.Module:
    """``text`` after our pass."""
    return populate(text, conservative)[0]


def cpp_populate(text: str, conservative: bool) -> str:
    """jaxlib's module after its pass on ``text`` (``cpp_oracle.FAILED`` when the pass fails)."""
    return cpp(text, populate_pipeline(conservative))


def jaxlib_populate(text: str) -> dict:
    """jaxlib on ``text``: ``plain`` (its print, when it reads and verifies the text) and
    ``reparses`` (whether MLIR reads that print back: a custom form can drop types the generic one
    had), then ``False`` / ``True`` (its module after the normal / conservative pass) or ``error``
    (why it stopped)."""
    require_jax()
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir, passmanager

    out: dict = {}
    try:
        for conservative in (False, True):
            ctx = jax_mlir.make_ir_context()
            ctx.allow_unregistered_dialects = True
            module = ir.Module.parse(text, context=ctx)
            out["plain"] = module.operation.get_asm()
            if "reparses" not in out:
                try:
                    ir.Module.parse(out["plain"], context=ctx)
                    out["reparses"] = True
                except ir.MLIRError:
                    out["reparses"] = False
            passmanager.PassManager.parse(populate_pipeline(conservative), context=ctx).run(module.operation)
            out[conservative] = module.operation.get_asm()
    except ir.MLIRError as e:
        out["error"] = str(e)
    return out


#: A jaxlib worker (run as a subprocess; MLIR aborts the process on some invalid corpus chunks): per
#: JSON text read, one JSON line with what ``jaxlib_populate`` gives.  Its address space is capped,
#: so the C++ reshape factorisation that never ends (``3x?`` to ``12``) fails with ``bad_alloc``
#: instead of exhausting the machine.
_WORKER = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
sys.path.insert(0, sys.argv[1])
from rules_oracle import jaxlib_populate
for line in sys.stdin:
    try:
        out = jaxlib_populate(json.loads(line))
    except MemoryError:
        out = {"plain": "", "error": "out of memory"}
    print(json.dumps({str(k): v for k, v in out.items()}), flush=True)
"""


class _Worker:
    """The capped jaxlib subprocess running ``_WORKER``, started on first use and again after a
    crash."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None

    def populate(self, text: str) -> dict:
        if self.proc is None:
            self.proc = subprocess.Popen([sys.executable, "-c", _WORKER, str(Path(__file__).parent)],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True)
        self.proc.stdin.write(json.dumps(text) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            crashed = {"error": f"jaxlib crashed (exit {self.proc.wait()})"}
            self.proc = None
            return crashed
        out = json.loads(line)
        return {({"False": False, "True": True}.get(k, k)): v for k, v in out.items()}

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()
            self.proc = None


_SHARED_WORKER = _Worker()
atexit.register(_SHARED_WORKER.close)


def jaxlib_crashed(result: dict) -> bool:
    """Whether ``jaxlib_populate_isolated`` or ``jaxlib_populate_all`` found jaxlib crashing."""
    return result.get("error", "").startswith("jaxlib crashed")


def jaxlib_populate_isolated(text: str) -> dict:
    """``jaxlib_populate`` of ``text`` in the capped subprocess (one kept for the whole run, so
    jaxlib 0.12 segfaulting on an input ends only that process): ``{"error": "jaxlib crashed (exit
    N)"}`` when it crashes (``jaxlib_crashed``)."""
    require_jax()
    return _SHARED_WORKER.populate(text)


def jaxlib_populate_all(texts: list[str]) -> list[dict]:
    """``jaxlib_populate`` of each text, in a capped subprocess restarted if a text crashes it (then
    ``{"error": "jaxlib crashed (exit N)"}``).  Out of memory, ``plain`` is empty."""
    require_jax()
    worker = _Worker()
    try:
        return [worker.populate(text) for text in texts]
    finally:
        worker.close()


def corpus_differences(chunks: list[str]) -> tuple[Counter, list[tuple]]:
    """Our module after the pass against jaxlib's on each chunk of a test corpus, in both modes:
    what happened how often, and where the two differ (``[]`` when they never do).

    Skipped (counted, not compared): chunks jaxlib does not read or verify, or crashes on (invalid
    test inputs: they are error tests, ``jaxlib_rejects``); chunks where the C++ rule reads past the
    end of an operand's dimensions (``cpp_reads_out_of_bounds``: jaxlib crashes or prints whatever it
    read, ours reports an error); chunks whose plain print (no pass) already differs from MLIR's
    (``print_differs``: a printer matter, not a rule one).  Ours reads jaxlib's print of the chunk,
    or the chunk itself where MLIR does not read its own print back (``print_does_not_reparse``: a
    custom form that drops result types).  Where jaxlib reads a chunk but its pass
    fails, ours must fail too (``both_fail``; ``both_fail_out_of_memory`` where jaxlib ran out of
    memory), and the other way round."""
    counts: Counter = Counter()
    different = []
    for chunk, want in zip(chunks, jaxlib_populate_all(chunks), strict=True):
        source = want.get("plain") or chunk
        if not want.get("reparses", True):
            counts["print_does_not_reparse"] += 1
            source = chunk
        try:
            run_pass(source)
        except PassError as e:
            if "reads past its end" in str(e):
                counts["cpp_reads_out_of_bounds"] += 1
                continue
            if "error" not in want:
                different.append(("only ours fails", chunk[:300]))
            elif "plain" in want:
                counts["both_fail_out_of_memory" if want["error"] == "out of memory" else "both_fail"] += 1
            else:
                counts["jaxlib_rejects"] += 1
            continue
        except Exception:
            if "plain" in want:
                raise
        if "plain" not in want:
            counts["jaxlib_rejects"] += 1
            continue
        if "error" in want:
            different.append(("only jaxlib fails", chunk[:300]))
            continue
        if str(shardy_py.parse(source)) != want["plain"]:
            counts["print_differs"] += 1
            continue
        for conservative in (False, True):
            counts["compared"] += 1
            if str(run_pass(source, conservative)) == want[conservative]:
                counts["equal"] += 1
            else:
                different.append((conservative, chunk[:300]))
    return counts, different
