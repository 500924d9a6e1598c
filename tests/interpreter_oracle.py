"""StableHLO's C++ reference interpreter in jaxlib (``stablehlo.eval_module``) as the oracle of the
interpreter's differential tests.

jaxlib runs in a long-lived child process (this file run as a script): the C++ interpreter aborts
the process on inputs it does not support.  ``cpp_eval(text, args)`` answers the results as numpy
arrays, ``None`` when jaxlib rejected or crashed on the module (``cpp_eval_answer`` says which).

What the C++ interpreter cannot take as it is, the oracle prepares the way a user of it would:

* CHLO ops (``chlo.erf_inv``, ``chlo.top_k``, ``chlo.square``, ...), which ``eval_module`` does not run,
  are decomposed first by StableHLO's own ``chlo-legalize-to-stablehlo`` pass (in the child, so the
  C++'s decompositions are what runs);
* complex arguments and results, which the Python binding of ``eval_module`` cannot convert ("Can't
  cast unknown element type"), travel as their real and imaginary parts: a wrapper ``@main`` puts the
  arguments together (``stablehlo.complex``), calls the program (renamed ``@main_complex``) and takes
  its complex results apart (``stablehlo.real``/``imag``); they are put together again here;
* Shardy's sharding annotations (``sdy.sharding_constraint``, ``sdy.reshard``), identities on values,
  are bypassed and erased (``without_sharding_annotations``), as the numpy interpreter runs them.

``xla_eval(text, args)`` asks XLA itself (the module compiled for one CPU device) in the same child: the
third opinion where the two interpreters disagree.
"""
from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time

import numpy as np
from jaxlib_worker import JaxlibWorker

from shardy_py.interpreter.values import from_dense, tensor_type, to_dense
from shardy_py.syntax.attr_reader import parse_attribute

#: The pass the child runs first when a module has CHLO ops.
CHLO_PIPELINE = "builtin.module(func.func(chlo-legalize-to-stablehlo))"
#: Shardy ops that are identities on their operand.
ANNOTATIONS = frozenset({"sdy.sharding_constraint", "sdy.reshard", "sdy.propagation_barrier"})


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


def without_sharding_annotations(text: str) -> str:
    """``text`` with every ``sdy.sharding_constraint``/``reshard``/``propagation_barrier`` bypassed
    (their uses take the operand) and erased."""
    import shardy_py
    from shardy_py.ir.edit import erase

    module = shardy_py.parse(text)
    ops = [op for op in module.walk() if op.name in ANNOTATIONS]
    if not ops:
        return text
    for op in ops:
        op.results[0].replace_all_uses_with(op.operands[0])
        erase(op)
    return str(module)


def _is_complex(t) -> bool:
    return "complex" in str(getattr(t, "element_type", ""))


def _part(t) -> str:
    return str(t).replace("complex<f32>", "f32").replace("complex<f64>", "f64")


def _complex_split(text: str) -> tuple[str, list[int], list[int]]:
    """(the module with a wrapper ``main`` taking complex arguments and giving complex results as real and
    imaginary parts, the indices of the complex arguments, those of the complex results)."""
    import shardy_py
    from shardy_py.interpreter.api import entry_function

    module = shardy_py.parse(text)
    main = entry_function(module)
    if main is None:
        return text, [], []
    arg_types = list(main.properties_view.get("arg_types") or [])
    types = list(main.properties_view.get("result_types") or [])
    complex_args = [i for i, t in enumerate(arg_types) if _is_complex(t)]
    complex_results = [i for i, t in enumerate(types) if _is_complex(t)]
    if not complex_args and not complex_results:
        return text, [], []
    name = main.properties_view["sym_name"]
    main.properties["sym_name"] = "main_complex"
    params, lines, call_args = [], [], []
    for i, t in enumerate(arg_types):
        if i not in complex_args:
            params.append(f"%a{i}: {t}")
            call_args.append(f"%a{i}")
            continue
        params += [f"%re_a{i}: {_part(t)}", f"%im_a{i}: {_part(t)}"]
        lines.append(f"    %a{i} = stablehlo.complex %re_a{i}, %im_a{i} : {t}")
        call_args.append(f"%a{i}")
    call = f"%r:{len(types)}" if len(types) > 1 else "%r"
    lines.append(f"    {call} = func.call @main_complex({', '.join(call_args)}) : "
                 f"({', '.join(map(str, arg_types))}) -> ({', '.join(map(str, types))})")
    returned, returned_types = [], []
    for i, t in enumerate(types):
        value = f"%r#{i}" if len(types) > 1 else "%r"
        if i not in complex_results:
            returned.append(value)
            returned_types.append(str(t))
            continue
        lines.append(f"    %re{i} = stablehlo.real {value} : ({t}) -> {_part(t)}")
        lines.append(f"    %im{i} = stablehlo.imag {value} : ({t}) -> {_part(t)}")
        returned += [f"%re{i}", f"%im{i}"]
        returned_types += [_part(t), _part(t)]
    wrapper = (f"  func.func @{name}({', '.join(params)}) -> ({', '.join(returned_types)}) {{\n" + "\n".join(lines)
               + f"\n    return {', '.join(returned)} : {', '.join(returned_types)}\n  }}\n")
    printed = str(module).rstrip()
    return printed[:-1] + wrapper + "}\n", complex_args, complex_results


def _joined(results: list[np.ndarray], complex_at: list[int]) -> list[np.ndarray]:
    out, it = [], iter(results)
    count = len(results) - len(complex_at)
    for i in range(count):
        value = next(it)
        if i in complex_at:
            imag = next(it)
            value = value.astype(np.complex128 if value.dtype == np.float64 else np.complex64)
            value.imag = imag
        out.append(value)
    return out


def _split_args(args: list[tuple[np.ndarray, str]], complex_at: list[int]) -> list[tuple[np.ndarray, str]]:
    out = []
    for i, (a, e) in enumerate(args):
        if i in complex_at:
            part = e.removeprefix("complex<").removesuffix(">")
            out += [(np.array(a.real), part), (np.array(a.imag), part)]
        else:
            out.append((a, e))
    return out


def cpp_eval(text: str, args: list[tuple[np.ndarray, str]]) -> list[np.ndarray] | None:
    """jaxlib's results of ``main`` of ``text`` on ``args`` ((array, element type) pairs); None when
    jaxlib rejects the module or dies on it."""
    answer = cpp_eval_timed(text, args)
    return None if answer is None else answer[0]


def cpp_eval_answer(text: str, args: list[tuple[np.ndarray, str]], timeout: float = 60) -> dict:
    """The child's answer: ``{"results": [...], "seconds": s}`` or ``{"error": ...}`` / ``{"crashed": n}``."""
    global _WORKER
    if _WORKER is None:
        _WORKER = EvalWorker(timeout=timeout)
    _WORKER.timeout = timeout
    text = without_sharding_annotations(text)
    pipeline = CHLO_PIPELINE if "chlo." in text else None
    text, complex_args, complex_results = _complex_split(text)
    args = _split_args(args, complex_args)
    answer = _WORKER.call("eval", text=text, args=[dense_text(a, e) for a, e in args], pipeline=pipeline)
    if answer.get("ok"):
        results = [from_dense(parse_attribute(r)) for r in answer["results"]]
        answer["results"] = _joined(results, complex_results)
    return answer


def cpp_eval_timed(text: str, args: list[tuple[np.ndarray, str]], timeout: float = 60):
    """(``cpp_eval``'s results, the seconds ``eval_module`` took in the child), or None."""
    answer = cpp_eval_answer(text, args, timeout)
    if not answer.get("ok"):
        return None
    return answer["results"], answer["seconds"]


def _encode(a: np.ndarray) -> dict:
    a = np.ascontiguousarray(a)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "data": base64.b64encode(a.tobytes()).decode()}


def _decode(d: dict) -> np.ndarray:
    import ml_dtypes  # noqa: F401 - registers bfloat16 and the float8 names with numpy

    return np.frombuffer(base64.b64decode(d["data"]), dtype=np.dtype(d["dtype"])).reshape(d["shape"]).copy()


def xla_eval(text: str, args: list[np.ndarray], timeout: float = 120) -> list[np.ndarray] | None:
    """XLA's results (compiled for one CPU device) of ``main`` of ``text`` on ``args``: a third opinion
    where the numpy and C++ interpreters disagree.  None when XLA rejects the module or dies on it."""
    global _WORKER
    if _WORKER is None:
        _WORKER = EvalWorker(timeout=timeout)
    _WORKER.timeout = timeout
    answer = _WORKER.call("xla", text=without_sharding_annotations(text), args=[_encode(np.asarray(a)) for a in args])
    if not answer.get("ok"):
        return None
    return [_decode(r) for r in answer["results"]]


def _xla_run(text: str, args: list[np.ndarray]) -> list[np.ndarray]:  # pragma: no cover - runs in the child
    import jax
    from jax._src import compiler, xla_bridge
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib import xla_client
    from jax._src.lib.mlir import ir

    jax.config.update("jax_enable_x64", True)  # 64-bit arguments stay 64-bit
    client = xla_bridge.get_backend("cpu")
    module = ir.Module.parse(text, context=jax_mlir.make_ir_context())
    options = compiler.get_compile_options(num_replicas=1, num_partitions=1)
    executable = client.compile_and_load(jax_mlir.module_to_bytecode(module),
                                         xla_client.DeviceList(tuple(client.devices()[:1])), options)
    results = executable.execute_sharded([jax.device_put(a, client.devices()[0]) for a in args])
    return [np.asarray(r[0]) for r in results.disassemble_into_single_device_arrays()]


def _serve() -> None:  # pragma: no cover - runs in the child
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir, passmanager
    from jaxlib.mlir.dialects import stablehlo

    stablehlo.register_stablehlo_passes()
    ctx = jax_mlir.make_ir_context()
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if req.get("kind") == "xla":
                results = _xla_run(req["text"], [_decode(a) for a in req["args"]])
                answer = {"ok": True, "results": [_encode(r) for r in results]}
            else:
                with ctx:
                    m = ir.Module.parse(req["text"])
                    if req.get("pipeline"):
                        passmanager.PassManager.parse(req["pipeline"]).run(m.operation)
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
