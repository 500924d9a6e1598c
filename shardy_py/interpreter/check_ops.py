"""The ``check`` dialect of StableHLO's tests (``stablehlo/tests/CheckOps.td``, ``CheckOps.cpp``) and
the ``interpreter`` dialect's ``print`` and ``probe`` ops."""
from __future__ import annotations

import os
import re

import numpy as np

from shardy_py.interpreter.evaluator import InterpretError, handler
from shardy_py.interpreter.printing import element_texts, tensor_text
from shardy_py.interpreter.values import element_name, from_dense, is_complex, is_float
from shardy_py.ir.attrs import OpaqueAttr
from shardy_py.syntax.attr_reader import parse_attribute

_OPERANDS = re.compile(r"\s*(?:%[\w$.#-]+\s*,\s*)*%[\w$.#-]+\s*,?")
_KEYWORD = re.compile(r"\s*(\w+)\s*=\s*(\"(?:[^\"\\]|\\.)*\"|[-+\w.]+)\s*,?")


def custom_form(op) -> tuple[str, str]:
    """(the text after the operands, the trailing ``: types`` text) of an op kept in custom form."""
    pieces = op._pieces or []
    strings = [p for p in pieces if isinstance(p, str)]
    head = strings[0] if strings else ""
    tail = "".join(strings[1:])
    m = _OPERANDS.match(head)
    rest = head[m.end():] if m else head
    return rest.strip(), tail.strip().removeprefix(":").strip()


def keywords(op, text: str) -> dict[str, str]:
    """``name = value`` pairs of ``text`` and of the op's attribute dictionary."""
    out = {k: v for k, v in _KEYWORD.findall(text)}
    for k, v in op.attributes_view.items():
        out[k] = v.text if isinstance(v, OpaqueAttr) else str(getattr(v, "value", v))
    return out


def _float_keyword(kw: dict[str, str], name: str, default: float) -> float:
    v = kw.get(name)
    return default if v is None else float(v.split(":")[0])


def _int_keyword(kw: dict[str, str], name: str, default: int) -> int:
    v = kw.get(name)
    return default if v is None else int(v.split(":")[0])


def _const(op) -> np.ndarray:
    written = op.attributes_view.get("value", op.properties_view.get("value"))
    if written is not None:  # the generic form: "check.expect_eq_const"(%x) {value = dense<...>}
        value = parse_attribute(written.text) if isinstance(written, OpaqueAttr) else written
        if not hasattr(value, "data"):
            raise InterpretError(f"{op.name}: expected a dense elements attribute")
        return from_dense(value), value.type
    rest, type_text = custom_form(op)
    rest = re.sub(r",\s*tolerance\s*=\s*[-+\w.]+\s*$", "", rest)
    attr_text = f"{rest} : {type_text}" if type_text else rest
    try:
        value = parse_attribute(attr_text)
    except Exception:
        raise InterpretError(f"{op.name}: cannot read the expected value {attr_text!r}") from None
    if isinstance(value, OpaqueAttr) or not hasattr(value, "data"):
        raise InterpretError(f"{op.name}: expected a dense elements attribute")
    return from_dense(value), value.type


def _index_text(flat: int, shape) -> str:
    return "[" + ", ".join(str(int(i)) for i in np.unravel_index(flat, shape)) + "]" if shape else "[]"


def _mismatch(actual, expected, t, ok: np.ndarray, what: str) -> InterpretError:
    flat = int(np.flatnonzero(~ok.reshape(-1))[0])
    a = element_texts(actual.reshape(-1)[flat:flat + 1], _scalar_type(t))[0]
    e = element_texts(expected.reshape(-1)[flat:flat + 1], _scalar_type(t))[0]
    return InterpretError(f"{what}: {a} (actual) vs {e} (expected) at index {_index_text(flat, actual.shape)}")


def _scalar_type(t):
    from shardy_py.interpreter.values import tensor_type

    return tensor_type((1,), element_name(t))


def expect_eq(actual: np.ndarray, expected: np.ndarray, t) -> None:
    """Exact equality (floats as IEEE ==: NaN never matches)."""
    if actual.shape != expected.shape:
        raise InterpretError(f"shapes don't match: {actual.shape} vs {expected.shape}")
    ok = np.asarray(actual == expected)
    if not ok.all():
        raise _mismatch(actual, expected, t, ok, "Element values don't match")


def almost_equal(a: np.ndarray, b: np.ndarray, tolerance: float) -> np.ndarray:
    """``areApproximatelyEqual``: NaN matches NaN, infinities only themselves, else |a - b| <= tolerance."""
    a = a.astype(np.float64)
    b = b.astype(np.float64)
    with np.errstate(all="ignore"):
        close = np.abs(a - b) <= tolerance
    finite = np.isfinite(a) & np.isfinite(b)
    return (a == b) | (np.isnan(a) & np.isnan(b)) | (finite & close)


def expect_almost_eq(actual: np.ndarray, expected: np.ndarray, t, tolerance: float) -> None:
    name = element_name(t)
    if not (is_float(name) or is_complex(name)):
        raise InterpretError(f"unsupported element type {name} for almost-equal")
    if is_complex(name):
        ok = almost_equal(actual.real, expected.real, tolerance) & almost_equal(actual.imag, expected.imag, tolerance)
    else:
        ok = almost_equal(actual, expected, tolerance)
    if not ok.all():
        raise _mismatch(actual, expected, t, ok, f"Element values don't match with tolerance {tolerance:f}")


def ulp_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """ULP distance of floats of one dtype: 0 for equal bits and for two NaNs, the maximum for a
    finite against a non-finite value."""
    size = a.dtype.itemsize
    ua = a.view(f"u{size}").astype(np.uint64)
    ub = b.view(f"u{size}").astype(np.uint64)
    sign = np.uint64(1 << (size * 8 - 1))
    ma, mb = ua & ~sign, ub & ~sign
    fa, fb = a.astype(np.float64), b.astype(np.float64)
    same_sign = (ua & sign) == (ub & sign)
    with np.errstate(over="ignore"):  # both branches are computed; only the chosen one is meaningful
        diff = np.where(same_sign, np.where(ma > mb, ma - mb, mb - ma), ma + mb)
    finite = np.isfinite(fa) & np.isfinite(fb)
    out = np.where(finite, diff, np.uint64(2**64 - 1))
    out = np.where(np.isnan(fa) & np.isnan(fb), np.uint64(0), out)
    return np.where(ua == ub, np.uint64(0), out)


def expect_close(actual, expected, t, min_ulp: int, max_ulp: int) -> None:
    name = element_name(t)
    if is_complex(name):
        d = np.maximum(ulp_difference(actual.real.copy(), expected.real.copy()),
                       ulp_difference(actual.imag.copy(), expected.imag.copy()))
    elif is_float(name):
        d = ulp_difference(actual, expected)
    else:
        raise InterpretError(f"unsupported element type {name} for expect_close")
    ok = (d <= np.uint64(max_ulp)) & (d >= np.uint64(min_ulp))
    if not ok.all():
        raise _mismatch(actual, expected, t, ok,
                        f"Elements values don't match with respect to maximal ULP difference={max_ulp} limit")


@handler("check.expect_eq")
def _expect_eq(ev, op, args):
    expect_eq(args[0], args[1], op.operands[0].type)
    return []


@handler("check.expect_eq_const")
def _expect_eq_const(ev, op, args):
    value, t = _const(op)
    expect_eq(args[0], value, t)
    return []


@handler("check.expect_almost_eq")
def _expect_almost_eq(ev, op, args):
    rest, _ = custom_form(op)
    kw = keywords(op, rest)
    expect_almost_eq(args[0], args[1], op.operands[0].type, _float_keyword(kw, "tolerance", 1e-4))
    return []


@handler("check.expect_almost_eq_const")
def _expect_almost_eq_const(ev, op, args):
    value, t = _const_with_tolerance(op)
    expect_almost_eq(args[0], value[0], t, value[1])
    return []


def _const_with_tolerance(op):
    rest, type_text = custom_form(op)
    m = re.search(r",\s*tolerance\s*=\s*([-+\w.]+)\s*$", rest)
    tolerance = float(m.group(1)) if m else 1e-4
    value, t = _const(op)
    return (value, _float_keyword(keywords(op, ""), "tolerance", tolerance)), t


@handler("check.expect_close")
def _expect_close(ev, op, args):
    rest, _ = custom_form(op)
    kw = keywords(op, rest)
    expect_close(args[0], args[1], op.operands[0].type, _int_keyword(kw, "min_ulp_difference", 0),
                 _int_keyword(kw, "max_ulp_difference", 1))
    return []


@handler("check.expect_serialized_eq")
def _expect_serialized_eq(ev, op, args):
    rest, _ = custom_form(op)
    kw = keywords(op, rest)
    probe_id = kw.get("probe_id", '""').split(":")[0].strip().strip('"')
    iteration = _int_keyword(kw, "iter", _int_keyword(kw, "iteration", 0))
    t = op.operands[0].type
    path, type_text = _probe_entry(ev.probe_dir, probe_id, iteration)
    if type_text != str(t):
        raise InterpretError(f"Serialized types don't match: {t} (actual) vs {type_text} (expected) "
                             f"for probe {probe_id}.")
    stored = np.load(path, allow_pickle=False)
    expected = args[0]
    if stored.dtype != expected.dtype and stored.dtype.itemsize == expected.dtype.itemsize:
        stored = stored.view(expected.dtype)
    expect_eq(expected, stored.astype(expected.dtype).reshape(expected.shape), t)
    return []


def _probe_entry(probe_dir: str | None, probe_id: str, iteration: int) -> tuple[str, str]:
    if not probe_dir:
        raise InterpretError(f"Failed to find serialized data for probe {probe_id}.")
    index = os.path.join(probe_dir, "index.csv")
    try:
        with open(index, encoding="utf-8") as f:
            lines = [line.strip() for line in f if line.strip()]
    except OSError:
        raise InterpretError(f"Failed to find serialized data for probe {probe_id}.") from None
    matches = [line for line in lines if line.split(",", 1)[0] == probe_id]
    if iteration >= len(matches):
        raise InterpretError(f"Failed to find serialized data for probe {probe_id}.")
    pid, type_text, path = matches[iteration].split(",", 2)
    return path, type_text


def _storable(array: np.ndarray) -> np.ndarray:
    """``array`` as numpy can save it: the narrow float types (``ml_dtypes``) as their bits."""
    if array.dtype.kind == "V" or array.dtype.type.__module__.startswith("ml_dtypes"):
        return array.view(f"u{array.dtype.itemsize}")
    return array


@handler("interpreter.probe")
def _probe(ev, op, args):
    rest, _ = custom_form(op)
    kw = keywords(op, rest)
    probe_id = kw.get("probe_id", '""').strip('"')
    if ev.probe_dir:
        state = ev.probe_state
        with state["lock"]:
            state["next_id"] += 1
            path = os.path.join(ev.probe_dir, f"probe{state['next_id']}.npy")
            np.save(path, _storable(np.asarray(args[0])), allow_pickle=False)
            with open(os.path.join(ev.probe_dir, "index.csv"), "a", encoding="utf-8") as f:
                f.write(f"{probe_id},{op.operands[0].type},{path}\n")
    return [args[0]]


@handler("interpreter.print")
def _print(ev, op, args):
    text = tensor_text(args[0], op.operands[0].type)
    with ev.print_lock:
        ev.out.write(f"{op.operand_names_view[0]} = {text}\n")
    return []
