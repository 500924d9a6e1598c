"""jaxlib's MLIR (the C++ oracle) in a child process that may crash without taking the tests with it.

jaxlib 0.12 dies (SIGSEGV, SIGABRT from ``llvm_unreachable``) on some inputs its parser or passes do
not expect; the differential tests draw thousands of modules, so they ask jaxlib through one
long-lived child per test process.  A request is one JSON line on the child's stdin, the answer one
JSON line on its stdout.  When the child dies or runs past the time limit, the request answers
``{"crashed": SIGNAL}`` (or ``{"timeout": SECONDS}``) and the next request starts a new child.

Run as a script, this file is the child.
"""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from typing import Any

#: Seconds one request may take before the child is killed.
TIMEOUT = 120.0


class JaxlibWorker:
    """A jaxlib child process answering ``call(kind, **arguments)`` requests (see ``_serve``)."""

    def __init__(self, timeout: float = TIMEOUT) -> None:
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None
        #: How many children died (crashes and time-outs), for reports.
        self.deaths = 0

    def _start(self) -> subprocess.Popen:
        env = dict(os.environ, PYTHONFAULTHANDLER="0")
        return subprocess.Popen([sys.executable, "-u", __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)

    def call(self, kind: str, **arguments: Any) -> dict:
        """The child's answer to one request, or ``{"crashed": signal}`` / ``{"timeout": seconds}``."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self._start()
        proc = self.proc
        try:
            proc.stdin.write(json.dumps({"kind": kind, **arguments}) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            return self._died()
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                proc.kill()
                proc.wait()
                self.proc = None
                self.deaths += 1
                return {"timeout": self.timeout}
            ready, _, _ = select.select([proc.stdout], [], [], left)
            if ready:
                line = proc.stdout.readline()
                if not line:
                    return self._died()
                return json.loads(line)

    def _died(self) -> dict:
        proc = self.proc
        self.proc = None
        self.deaths += 1
        code = proc.wait() if proc is not None else 0
        return {"crashed": -code if code < 0 else code}

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        self.proc = None


_SHARED: JaxlibWorker | None = None


def shared_worker() -> JaxlibWorker:
    """One worker per test process."""
    global _SHARED
    if _SHARED is None:
        _SHARED = JaxlibWorker()
    return _SHARED


# -- the child ------------------------------------------------------------------------------------

def _serve() -> None:  # pragma: no cover - runs in the child
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir, passmanager

    ctx = jax_mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True

    def module(req: dict) -> dict:
        """Parse (and verify) ``text``; print it pretty, generic, or both."""
        try:
            m = ir.Module.parse(req["text"], context=ctx)
            if req.get("verify", True) and not m.operation.verify():
                return {"ok": False, "error": "verify() returned False", "stage": "parse"}
        except ir.MLIRError as e:
            return {"ok": False, "error": str(e), "stage": "parse"}
        try:
            if req.get("pipeline"):
                passmanager.PassManager.parse(req["pipeline"], context=ctx).run(m.operation)
            out = {"ok": True}
            if req.get("pretty", True):
                out["pretty"] = m.operation.get_asm(enable_debug_info=req.get("debug_info", False))
            if req.get("generic", False):
                out["generic"] = m.operation.get_asm(print_generic_op_form=True,
                                                     enable_debug_info=req.get("debug_info", False))
            return out
        except ir.MLIRError as e:
            return {"ok": False, "error": str(e), "stage": "pipeline"}

    def attribute(req: dict) -> dict:
        try:
            with ctx:
                return {"ok": True, "pretty": str(ir.Attribute.parse(req["text"]))}
        except ir.MLIRError as e:
            return {"ok": False, "error": str(e)}

    handlers = {"module": module, "attribute": attribute}
    for line in sys.stdin:
        req = json.loads(line)
        try:
            answer = handlers[req["kind"]](req)
        except Exception as e:  # noqa: BLE001 - reported to the parent as an answer
            answer = {"ok": False, "error": f"{type(e).__name__}: {e}", "exception": True}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    _serve()
