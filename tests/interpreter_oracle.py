"""StableHLO's C++ reference interpreter in jaxlib (``stablehlo.eval_module``) as the oracle of the
interpreter's differential tests, and the single-op modules they draw.

jaxlib runs in a long-lived child process (this file run as a script): the C++ interpreter aborts
the process on inputs it does not support.  ``cpp_eval(text, args)`` answers the results as numpy
arrays, ``None`` when jaxlib rejected or crashed on the module.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np
from jaxlib_worker import JaxlibWorker

from shardy_py.interpreter.values import from_dense, tensor_type, to_dense
from shardy_py.syntax.attr_reader import parse_attribute


class EvalWorker(JaxlibWorker):
    """A child process answering ``eval`` requests with jaxlib's ``stablehlo.eval_module``."""

    def _start(self) -> subprocess.Popen:
        env = dict(os.environ, PYTHONFAULTHANDLER="0")
        return subprocess.Popen([sys.executable, "-u", __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)


_WORKER: EvalWorker | None = None


def dense_text(array: np.ndarray, element: str) -> str:
    """``array`` as a ``dense<...> : tensor<...>`` text."""
    return str(to_dense(array, tensor_type(array.shape, element)))


def cpp_eval(text: str, args: list[tuple[np.ndarray, str]]) -> list[np.ndarray] | None:
    """jaxlib's results of ``main`` of ``text`` on ``args`` ((array, element type) pairs); None when
    jaxlib rejects the module or dies on it."""
    answer = cpp_eval_timed(text, args)
    return None if answer is None else answer[0]


def cpp_eval_timed(text: str, args: list[tuple[np.ndarray, str]], timeout: float = 60):
    """(``cpp_eval``'s results, the seconds ``eval_module`` took in the child), or None."""
    global _WORKER
    if _WORKER is None:
        _WORKER = EvalWorker(timeout=timeout)
    _WORKER.timeout = timeout
    answer = _WORKER.call("eval", text=text, args=[dense_text(a, e) for a, e in args])
    if not answer.get("ok"):
        return None
    return [from_dense(parse_attribute(r)) for r in answer["results"]], answer["seconds"]


def _serve() -> None:  # pragma: no cover - runs in the child
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir
    from jaxlib.mlir.dialects import stablehlo

    ctx = jax_mlir.make_ir_context()
    for line in sys.stdin:
        req = json.loads(line)
        try:
            with ctx:
                m = ir.Module.parse(req["text"])
                args = [ir.Attribute.parse(a) for a in req["args"]]
                start = time.perf_counter()
                results = stablehlo.eval_module(m, args)
                seconds = time.perf_counter() - start
            answer = {"ok": True, "results": [str(r) for r in results], "seconds": seconds}
        except Exception as e:  # noqa: BLE001 - reported to the parent as an answer
            answer = {"ok": False, "error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    _serve()
