"""Single-op StableHLO modules drawn at random (op, element type, shape, attributes, values) for the
interpreter's differential tests against jaxlib's C++ reference interpreter (``interpreter_oracle``)."""
from __future__ import annotations

import numpy as np

from shardy_py.interpreter.values import dtype_of

INTS = ("i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "i4", "ui4")
FLOATS = ("f16", "f32", "f64", "bf16")
SIGNED = ("i8", "i16", "i32", "i64", "i4")

BINARY = {
    "add": INTS + FLOATS, "subtract": INTS + FLOATS, "multiply": INTS + FLOATS, "maximum": INTS + FLOATS,
    "minimum": INTS + FLOATS, "divide": INTS + FLOATS, "remainder": INTS + FLOATS, "power": SIGNED + FLOATS,
    "and": INTS + ("i1",), "or": INTS + ("i1",), "xor": INTS + ("i1",), "shift_left": INTS,
    "shift_right_logical": INTS, "shift_right_arithmetic": INTS, "atan2": FLOATS,
}
UNARY = {
    "abs": SIGNED + FLOATS, "negate": SIGNED + FLOATS, "sign": SIGNED + FLOATS, "not": INTS + ("i1",),
    "popcnt": INTS, "count_leading_zeros": INTS, "ceil": FLOATS, "floor": FLOATS,
    "round_nearest_even": FLOATS, "round_nearest_afz": FLOATS, "sqrt": FLOATS, "rsqrt": FLOATS, "cbrt": FLOATS,
    "exponential": FLOATS, "exponential_minus_one": FLOATS, "log": FLOATS, "log_plus_one": FLOATS,
    "logistic": FLOATS, "sine": FLOATS, "cosine": FLOATS, "tan": FLOATS, "tanh": FLOATS,
}
STRUCTURAL = ("compare", "is_finite", "convert", "transpose", "reverse", "slice", "pad", "concatenate",
              "broadcast_in_dim", "iota", "reduce", "dot_general", "sort", "select", "clamp", "reduce_window",
              "dynamic_slice")
OPS = tuple(BINARY) + tuple(UNARY) + STRUCTURAL


def ttype(shape, element: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def random_values(rng: np.random.Generator, shape, element: str, nonzero: bool = False) -> np.ndarray:
    """Values of ``element`` over its whole range, floats with a few zeros, infinities and NaNs."""
    if element == "i1":
        return rng.integers(0, 2, size=shape).astype(bool)
    dt = dtype_of(element)
    if element.startswith("complex"):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if element in FLOATS:
        x = rng.standard_normal(shape) * np.exp(rng.uniform(-3, 3, size=shape))
        special = rng.random(shape)
        x = np.where(special < 0.03, 0.0, x)
        x = np.where((special >= 0.03) & (special < 0.05), np.copysign(np.inf, x), x)
        x = np.where((special >= 0.05) & (special < 0.06), np.nan, x)
        out = x.astype(dt)
        return np.where(out == 0, np.ones((), dt), out) if nonzero else out
    from shardy_py.interpreter.values import int_info

    width, signed = int_info(element)
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1))) if signed else (0, 1 << width)
    small = rng.random(shape) < 0.5  # half of them small, so products and powers stay interesting
    wide = rng.integers(lo, hi, size=shape, dtype=np.int64 if hi <= 2**63 else np.uint64) \
        if hi <= 2**63 else rng.integers(0, 2**64, size=shape, dtype=np.uint64)
    narrow = rng.integers(max(lo, -8), min(hi, 9), size=shape)
    x = np.where(small, narrow.astype(np.int64), wide.astype(np.int64) if hi <= 2**63 else wide)
    out = x.astype(dt) if width >= 8 else x.astype(np.int8 if signed else np.uint8)
    if nonzero:
        out = np.where(out == 0, np.ones((), out.dtype), out)
        if signed:  # the C++ divides with APInt::sdiv, undefined for MIN / -1
            out = np.where(out == -1, np.full((), 3, out.dtype), out)
    return out


def draw_case(rng: np.random.Generator, op: str) -> tuple[str, list[tuple[np.ndarray, str]]]:
    """(module text, arguments) of one drawn ``op``."""
    rank = int(rng.integers(0, 4))
    shape = tuple(int(d) for d in rng.integers(1, 4, size=rank))
    if op in BINARY:
        el = str(rng.choice(BINARY[op]))
        t = ttype(shape, el)
        a = random_values(rng, shape, el)
        b = random_values(rng, shape, el, nonzero=op in ("divide", "remainder") and el not in FLOATS)
        if op == "power" and el not in FLOATS:
            b = (b % 9).astype(b.dtype) - (1 if rng.random() < 0.2 else 0)
        body = f"%0 = stablehlo.{op} %a, %b : {t}"
        return _main([("a", t), ("b", t)], body, t), [(a, el), (b, el)]
    if op in DRAWS:
        return DRAWS[op](rng)
    if op in UNARY:
        el = str(rng.choice(UNARY[op]))
        t = ttype(shape, el)
        return _main([("a", t)], f"%0 = stablehlo.{op} %a : {t}", t), [(random_values(rng, shape, el), el)]
    return _structural(rng, op, shape)


def _main(params, body: str, result: str) -> str:
    ps = ", ".join(f"%{n}: {t}" for n, t in params)
    return f"func.func @main({ps}) -> {result} {{\n  {body}\n  return %0 : {result}\n}}\n"


def _structural(rng, op: str, shape) -> tuple[str, list]:
    el = str(rng.choice(INTS + FLOATS))
    t = ttype(shape, el)
    a = random_values(rng, shape, el)
    rank = len(shape)
    if op == "compare":
        direction = str(rng.choice(["EQ", "NE", "GE", "GT", "LE", "LT"]))
        kind = "FLOAT" if el in FLOATS else "SIGNED" if el in SIGNED else "UNSIGNED"
        if el in FLOATS and rng.random() < 0.3:
            kind = "TOTALORDER"
        b = np.where(rng.random(shape) < 0.3, a, random_values(rng, shape, el))
        r = ttype(shape, "i1")
        body = f"%0 = stablehlo.compare {direction}, %a, %b, {kind} : ({t}, {t}) -> {r}"
        return _main([("a", t), ("b", t)], body, r), [(a, el), (b.astype(a.dtype), el)]
    if op == "is_finite":
        el = str(rng.choice(FLOATS))
        t = ttype(shape, el)
        r = ttype(shape, "i1")
        return _main([("a", t)], f"%0 = stablehlo.is_finite %a : ({t}) -> {r}", r), \
            [(random_values(rng, shape, el), el)]
    if op == "convert":
        to = str(rng.choice(INTS + FLOATS + ("i1",)))
        if el in FLOATS and to not in FLOATS:  # the C++ converts out-of-range floats as APFloat does
            a = np.where(np.isfinite(a.astype(np.float64)), a, np.zeros((), a.dtype))
        r = ttype(shape, to)
        return _main([("a", t)], f"%0 = stablehlo.convert %a : ({t}) -> {r}", r), [(a, el)]
    if op == "select":
        p = random_values(rng, shape, "i1")
        b = random_values(rng, shape, el)
        pt = ttype(shape, "i1")
        body = f"%0 = stablehlo.select %p, %a, %b : {pt}, {t}"
        return _main([("p", pt), ("a", t), ("b", t)], body, t), [(p, "i1"), (a, el), (b, el)]
    if op == "clamp":
        lo, hi = random_values(rng, shape, el), random_values(rng, shape, el)
        body = f"%0 = stablehlo.clamp %lo, %a, %hi : {t}"
        return _main([("lo", t), ("a", t), ("hi", t)], body, t), [(lo, el), (a, el), (hi, el)]
    if op == "iota":
        shape = shape or (3,)
        dim = int(rng.integers(0, len(shape)))
        r = ttype(shape, el)
        return _main([], f"%0 = stablehlo.iota dim = {dim} : {r}", r), []
    if rank == 0:
        shape, rank = (2, 3), 2
        t = ttype(shape, el)
        a = random_values(rng, shape, el)
    if op == "transpose":
        perm = [int(p) for p in rng.permutation(rank)]
        r = ttype([shape[p] for p in perm], el)
        body = f'%0 = "stablehlo.transpose"(%a) {{permutation = array<i64{_list(perm)}>}} : ({t}) -> {r}'
        return _main([("a", t)], body, r), [(a, el)]
    if op == "reverse":
        dims = [d for d in range(rank) if rng.random() < 0.5]
        body = f'%0 = "stablehlo.reverse"(%a) {{dimensions = array<i64{_list(dims)}>}} : ({t}) -> {t}'
        return _main([("a", t)], body, t), [(a, el)]
    if op == "slice":
        start = [int(rng.integers(0, d)) for d in shape]
        limit = [int(rng.integers(s + 1, d + 1)) for s, d in zip(start, shape, strict=True)]
        stride = [int(rng.integers(1, 3)) for _ in shape]
        out = [-(-(e - s) // k) for s, e, k in zip(start, limit, stride, strict=True)]
        r = ttype(out, el)
        body = (f'%0 = "stablehlo.slice"(%a) {{start_indices = array<i64{_list(start)}>, '
                f'limit_indices = array<i64{_list(limit)}>, strides = array<i64{_list(stride)}>}} : ({t}) -> {r}')
        return _main([("a", t)], body, r), [(a, el)]
    if op == "dynamic_slice":
        sizes = [int(rng.integers(1, d + 1)) for d in shape]
        starts = [int(rng.integers(-2, d + 2)) for d in shape]
        r = ttype(sizes, el)
        it = ttype((), "i32")
        params = [("a", t)] + [(f"i{k}", it) for k in range(rank)]
        idx = ", ".join(f"%i{k}" for k in range(rank))
        body = (f'%0 = "stablehlo.dynamic_slice"(%a, {idx}) {{slice_sizes = array<i64{_list(sizes)}>}} : '
                f'({t}, {", ".join([it] * rank)}) -> {r}')
        return _main(params, body, r), [(a, el)] + [(np.array(s, np.int32), "i32") for s in starts]
    if op == "pad":
        low = [int(rng.integers(-1, 3)) for _ in shape]
        high = [int(rng.integers(-1, 3)) for _ in shape]
        interior = [int(rng.integers(0, 3)) for _ in shape]
        out = [lo + d + (d - 1) * i + hi for lo, d, i, hi in zip(low, shape, interior, high, strict=True)]
        if min(out) < 0:
            low = [0] * rank
            high = [0] * rank
            out = [d + (d - 1) * i for d, i in zip(shape, interior, strict=True)]
        r = ttype(out, el)
        st = ttype((), el)
        body = (f'%0 = "stablehlo.pad"(%a, %v) {{edge_padding_low = array<i64{_list(low)}>, edge_padding_high = '
                f'array<i64{_list(high)}>, interior_padding = array<i64{_list(interior)}>}} : ({t}, {st}) -> {r}')
        return _main([("a", t), ("v", st)], body, r), [(a, el), (random_values(rng, (), el), el)]
    if op == "concatenate":
        dim = int(rng.integers(0, rank))
        other = list(shape)
        other[dim] = int(rng.integers(1, 4))
        t2 = ttype(other, el)
        out = list(shape)
        out[dim] += other[dim]
        r = ttype(out, el)
        body = f'%0 = "stablehlo.concatenate"(%a, %b) {{dimension = {dim} : i64}} : ({t}, {t2}) -> {r}'
        return _main([("a", t), ("b", t2)], body, r), [(a, el), (random_values(rng, other, el), el)]
    if op == "broadcast_in_dim":
        out = list(shape) + [int(rng.integers(1, 3))]
        perm = [int(p) for p in rng.permutation(rank + 1)]
        dims = perm[:rank]
        out_shape = [0] * (rank + 1)
        for i, d in enumerate(dims):
            out_shape[d] = shape[i]
        out_shape[perm[rank]] = out[rank]
        r = ttype(out_shape, el)
        body = (f'%0 = "stablehlo.broadcast_in_dim"(%a) {{broadcast_dimensions = array<i64{_list(dims)}>}}'
                f' : ({t}) -> {r}')
        return _main([("a", t)], body, r), [(a, el)]
    if op == "reduce":
        dims = sorted({int(d) for d in rng.integers(0, rank, size=int(rng.integers(1, rank + 1)))})
        body_op = str(rng.choice(["add", "maximum", "minimum", "multiply"] + (["and", "or"] if el in INTS else [])))
        out = [d for i, d in enumerate(shape) if i not in dims]
        r = ttype(out, el)
        st = ttype((), el)
        body = (f'%0 = "stablehlo.reduce"(%a, %v) ({{\n    ^bb0(%x: {st}, %y: {st}):\n'
                f'      %s = stablehlo.{body_op} %x, %y : {st}\n      stablehlo.return %s : {st}\n  }}) '
                f'{{dimensions = array<i64{_list(dims)}>}} : ({t}, {st}) -> {r}')
        return _main([("a", t), ("v", st)], body, r), [(a, el), (random_values(rng, (), el), el)]
    if op == "reduce_window":
        window = [int(rng.integers(1, d + 1)) for d in shape]
        strides = [int(rng.integers(1, 3)) for _ in shape]
        out = [(d - w) // s + 1 for d, w, s in zip(shape, window, strides, strict=True)]
        r = ttype(out, el)
        st = ttype((), el)
        body = (f'%0 = "stablehlo.reduce_window"(%a, %v) ({{\n    ^bb0(%x: {st}, %y: {st}):\n'
                f'      %s = stablehlo.maximum %x, %y : {st}\n      stablehlo.return %s : {st}\n  }}) '
                f'{{window_dimensions = array<i64{_list(window)}>, window_strides = array<i64{_list(strides)}>}}'
                f' : ({t}, {st}) -> {r}')
        return _main([("a", t), ("v", st)], body, r), [(a, el), (random_values(rng, (), el), el)]
    if op == "dot_general":
        m, k, n = (int(v) for v in rng.integers(1, 4, size=3))
        el = str(rng.choice(("i32", "i64", "f32", "f64")))
        ta, tb, r = ttype((m, k), el), ttype((k, n), el), ttype((m, n), el)
        a = random_values(rng, (m, k), el)
        b = random_values(rng, (k, n), el)
        if el in FLOATS:
            a = np.where(np.isfinite(a), a, 1.0).astype(a.dtype)
            b = np.where(np.isfinite(b), b, 1.0).astype(b.dtype)
        body = (f'%0 = "stablehlo.dot_general"(%a, %b) {{dot_dimension_numbers = #stablehlo.dot<'
                f'lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}} : ({ta}, {tb}) -> {r}')
        return _main([("a", ta), ("b", tb)], body, r), [(a, el), (b, el)]
    if op == "sort":
        dim = int(rng.integers(0, rank))
        direction = str(rng.choice(["LT", "GT"]))
        kind = "FLOAT" if el in FLOATS else "SIGNED" if el in SIGNED else "UNSIGNED"
        if el in FLOATS:
            a = np.where(np.isnan(a.astype(np.float64)), np.zeros((), a.dtype), a)
        st = ttype((), el)
        body = (f'%0 = "stablehlo.sort"(%a) ({{\n    ^bb0(%x: {st}, %y: {st}):\n'
                f'      %c = stablehlo.compare {direction}, %x, %y, {kind} : ({st}, {st}) -> tensor<i1>\n'
                f'      stablehlo.return %c : tensor<i1>\n  }}) {{dimension = {dim} : i64, is_stable = true}}'
                f' : ({t}) -> {t}')
        return _main([("a", t)], body, t), [(a, el)]
    raise ValueError(op)


def _list(values) -> str:
    return (": " + ", ".join(str(v) for v in values)) if values else ""


# The other ops' draws (they use the helpers above).
from interpreter_cases_ops import DRAWS  # noqa: E402

OPS = OPS + tuple(DRAWS)
