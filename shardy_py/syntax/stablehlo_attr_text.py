"""StableHLO's struct-like attributes printed as MLIR prints them, whatever order and spacing they
were written in (``StablehloAttrs.td``, ``StablehloOps.cpp``, ``AssemblyFormat.cpp``):

* ``#stablehlo.gather<...>`` / ``#stablehlo.scatter<...>`` / ``#stablehlo.dot<...>``: fields in
  declaration order, empty lists left out;
* ``#stablehlo.channel_handle<handle = 1, type = 0>``;
* ``#stablehlo.result_accuracy<...>``: zero tolerances and zero ulps left out (``printResultAccuracyAttr``);
* ``#stablehlo.type_extensions<bounds = [4, ?]>`` is ``#stablehlo.bounds<4, ?>``.

The functions take and give attribute text; ``canonical_stablehlo_attrs`` rewrites every such
attribute inside a larger text.
"""
from __future__ import annotations

import re

from shardy_py.syntax.brackets import closing_angle
from shardy_py.syntax.floats import FloatType, literal_bits, print_float

_FIELDS = {
    "gather": ("offset_dims", "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims",
               "start_index_map", "index_vector_dim"),
    "scatter": ("update_window_dims", "inserted_window_dims", "input_batching_dims", "scatter_indices_batching_dims",
                "scatter_dims_to_operand_dims", "index_vector_dim"),
    "dot": ("lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
            "rhs_contracting_dimensions"),
    # ``#chlo.ragged_dot<...>`` (ChloOps.cpp: the same ``printStruct``, empty lists left out)
    "ragged_dot": ("lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
                   "rhs_contracting_dimensions", "lhs_ragged_dimensions", "rhs_group_dimensions"),
}
_HEAD = re.compile(r"#(?:stablehlo\.(gather|scatter|dot|channel_handle|result_accuracy|type_extensions|conv)|"
                   r"chlo\.(ragged_dot))<")
_FIELD = re.compile(r"\s*(\w+)\s*=\s*(\[[^\]]*\]|#[\w.]+<[^>]*>|[-+\w.]+)\s*,?")
_F64 = FloatType("f64")


def _fields(body: str) -> dict[str, str] | None:
    out: dict[str, str] = {}
    pos = 0
    while pos < len(body):
        if not body[pos:].strip():
            break
        m = _FIELD.match(body, pos)
        if not m:
            return None
        out[m.group(1)] = m.group(2)
        pos = m.end()
    return out


def _ints(text: str) -> str:
    return "[" + ", ".join(re.findall(r"-?\d+", text)) + "]"


def _float(text: str) -> str:
    bits = literal_bits(_F64, text if re.search(r"[.eE]|0x", text) else text + ".0")
    return text if bits is None else print_float(_F64, bits)


def canonical_struct(kind: str, body: str) -> str | None:
    """The canonical ``#stablehlo.KIND<...>`` for ``body``; None when the body is not one we read."""
    if kind == "conv":
        if not body.lstrip().startswith("raw"):
            return None  # the compact form is read (and checked) by the op that holds it
        from shardy_py.dialects.stablehlo_conv_directives import canonical_conv_attr
        from shardy_py.errors import ParseError

        try:
            return canonical_conv_attr(f"#stablehlo.conv<{body}>")
        except (ParseError, ValueError):
            return None
    f = _fields(body)
    if f is None:
        return None
    if kind in _FIELDS:
        order = _FIELDS[kind]
        if set(f) - set(order):
            return None
        parts = []
        for k in order:
            if k not in f:
                continue
            v = f[k]
            if v.startswith("["):
                v = _ints(v)
                if v == "[]":
                    continue
            elif k == "index_vector_dim" and int(v) == 0:
                continue  # the parameter's default
            parts.append(f"{k} = {v}")
        return f"#{'chlo' if kind == 'ragged_dot' else 'stablehlo'}.{kind}<" + ", ".join(parts) + ">"
    if kind == "channel_handle":
        if set(f) != {"handle", "type"}:
            return None
        return f"#stablehlo.channel_handle<handle = {int(f['handle'])}, type = {int(f['type'])}>"
    if kind == "result_accuracy":
        parts = []
        for k in ("atol", "rtol"):
            if k in f and _float(f[k]).lstrip("-") not in ("0.000000e+00",):
                parts.append(f"{k} = {_float(f[k])}")
        if "ulps" in f and int(f["ulps"]) != 0:
            parts.append(f"ulps = {int(f['ulps'])}")
        if "mode" not in f or set(f) - {"atol", "rtol", "ulps", "mode"}:
            return None
        parts.append(f"mode = {f['mode']}")
        return "#stablehlo.result_accuracy<" + ", ".join(parts) + ">"
    if kind == "type_extensions":
        if set(f) != {"bounds"}:
            return None
        bounds = [b.strip() for b in f["bounds"].strip("[]").split(",") if b.strip()]
        return "#stablehlo.bounds<" + ", ".join(bounds) + ">"
    return None
def canonical_stablehlo_attrs(text: str) -> str:
    """``text`` with every StableHLO struct attribute we read written canonically."""
    if "#stablehlo." not in text and "#chlo.ragged_dot" not in text:
        return text
    out, pos = [], 0
    for m in _HEAD.finditer(text):
        if m.start() < pos:
            continue
        end = closing_angle(text, m.end() - 1)
        if end < 0:
            break
        canonical = canonical_struct(m.group(1) or m.group(2), text[m.end():end - 1])
        if canonical is not None:
            out.append(text[pos:m.start()])
            out.append(canonical)
            pos = end
    out.append(text[pos:])
    return "".join(out)
