"""StableHLO's custom assembly directives for ops without regions (``AssemblyFormat.cpp``,
``StablehloOps.cpp``): each a parse/print pair registered with ``syntax.format.directive``."""
from __future__ import annotations

import re

from shardy_py.dialects.attr_codecs import Enum, i64_array, int_list, ints_of
from shardy_py.ir import attrs as A
from shardy_py.ir.types import RankedTensorType, parse_type
from shardy_py.syntax import attr_printer as P
from shardy_py.syntax.fn_types import split_top
from shardy_py.syntax.format import directive
from shardy_py.syntax.op_writer import functional_type

PRECISION = Enum("stablehlo", "precision", ("DEFAULT", "HIGH", "HIGHEST"))


def _parse_same_type(cur, state, operand_types: list, result) -> None:
    """``T`` (every operand and the result) or ``(A, B) -> R``."""
    cur.ws()
    if cur.peek("("):
        ins, outs = cur.function_type()
        for t, arg in zip(ins, operand_types, strict=False):
            state.set_types(arg, [t])
        state.set_types(result, outs)
        return
    t = cur.type()
    for arg in operand_types:
        state.set_types(arg, [t])
    state.set_types(result, [t])


@directive("VariadicSameOperandsAndResultType")
class VariadicSameOperandsAndResultType:
    """Like SameOperandsAndResultType for a variadic operand group (``ref($inputs)`` says how many)."""

    @staticmethod
    def parse(cur, state, ref, operand_types, result) -> None:
        n = len(state.operand_names_of(ref))
        cur.ws()
        if cur.peek("("):
            ins, outs = cur.function_type()
            state.set_types(operand_types, ins)
            state.set_types(result, outs)
            return
        t = cur.type()
        state.set_types(operand_types, [t] * n)
        state.set_types(result, [t])

    @staticmethod
    def print(out, op, _operands, types, result) -> None:
        if not types or all(t == result for t in types):
            out.write(str(result))
        else:
            out.write(functional_type(types, [result]))


@directive("TupleOpType")
class TupleOpType:
    """The tuple result type; the operand types are its elements."""

    @staticmethod
    def parse(cur, state, operand_types, result) -> None:
        t = cur.type()
        text = str(t)
        if not text.startswith("tuple<"):
            raise cur.error(f"expected a tuple type, found '{text}'")
        state.set_types(operand_types, [parse_type(x) for x in split_top(text[6:-1])])
        state.set_types(result, [t])

    @staticmethod
    def print(out, op, _types, result) -> None:
        out.write(str(result))


@directive("PairwiseOpType")
class PairwiseOpType:
    """The operand types; the results have the same."""

    @staticmethod
    def parse(cur, state, operand_types, result_types) -> None:
        types = cur.types()
        state.set_types(operand_types, types)
        state.set_types(result_types, types)

    @staticmethod
    def print(out, op, types, _results) -> None:
        out.write(", ".join(str(t) for t in types))


@directive("VariadicOperandWithAttribute")
class VariadicOperandWithAttribute:
    """Operands each followed by a comma (``%a, %b,``)."""

    @staticmethod
    def parse(cur, state, operands) -> None:
        names = []
        while cur.peek("%"):
            names.append(cur.value_use())
            cur.expect(",", "',' after the operand")
        state.set_operands(operands, names)

    @staticmethod
    def print(out, op, values) -> None:
        out.write(", ".join(out.value(v) for v in values) + ",")


def _real_of(t) -> str:
    """The real tensor type of a complex tensor type (``tensor<2xcomplex<f32>>`` -> ``tensor<2xf32>``)."""
    return re.sub(r"complex<(\w+)>", r"\1", str(t))


@directive("ComplexOpType")
class ComplexOpType:
    """The complex result type when both operands are its real type, else ``(A, B) -> R``."""

    @staticmethod
    def parse(cur, state, lhs, rhs, result) -> None:
        cur.ws()
        if cur.peek("("):
            ins, outs = cur.function_type()
            state.set_types(lhs, ins[:1])
            state.set_types(rhs, ins[1:2])
            state.set_types(result, outs)
            return
        t = cur.type()
        real = parse_type(_real_of(t))
        state.set_types(lhs, [real])
        state.set_types(rhs, [real])
        state.set_types(result, [t])

    @staticmethod
    def print(out, op, lhs, rhs, result) -> None:
        real = _real_of(result)
        if str(lhs) != real or str(rhs) != real:
            out.write(functional_type([lhs, rhs], [result]))
        else:
            out.write(str(result))


@directive("SelectOpType")
class SelectOpType:
    """``pred_type, result_type`` when both branches have the result type, else a function type."""

    @staticmethod
    def parse(cur, state, pred, on_true, on_false, result) -> None:
        cur.ws()
        if cur.peek("("):
            ins, outs = cur.function_type()
            for t, arg in zip(ins, (pred, on_true, on_false), strict=False):
                state.set_types(arg, [t])
            state.set_types(result, outs)
            return
        p = cur.type()
        cur.expect(",", "',' and the result type")
        t = cur.type()
        state.set_types(pred, [p])
        for arg in (on_true, on_false, result):
            state.set_types(arg, [t])

    @staticmethod
    def print(out, op, pred, on_true, on_false, result) -> None:
        if on_true != result or on_false != result:
            out.write(functional_type([pred, on_true, on_false], [result]))
        else:
            out.write(f"{pred}, {result}")


@directive("SliceRanges")
class SliceRanges:
    """``[start:limit(:stride), ...]``."""

    @staticmethod
    def parse(cur, state, start, limit, strides) -> None:
        cur.expect("[", "'[' and the slice ranges")
        s, lim, st = [], [], []
        if not cur.accept("]"):
            while True:
                s.append(_int(cur))
                cur.expect(":")
                lim.append(_int(cur))
                st.append(_int(cur) if cur.accept(":") else 1)
                if cur.accept("]"):
                    break
                cur.expect(",", "',' or ']'")
        state.set_attr(start, i64_array(s))
        state.set_attr(limit, i64_array(lim))
        state.set_attr(strides, i64_array(st))

    @staticmethod
    def print(out, op, start, limit, strides) -> None:
        s, lim, st = ints_of(start), ints_of(limit), ints_of(strides)
        if not (len(s) == len(lim) == len(st)):
            out.write(f"[start_indices: {', '.join(map(str, s))}, limit_indices: {', '.join(map(str, lim))}, "
                      f"strides: {', '.join(map(str, st))}]")
            return
        out.write("[" + ", ".join(f"{a}:{b}" + (f":{c}" if c != 1 else "") for a, b, c in zip(s, lim, st,
                                                                                              strict=True)) + "]")


def _int(cur) -> int:
    m = cur.match(re.compile(r"-?\d+"))
    if not m:
        raise cur.error(f"expected an integer, found {cur.found()}")
    return int(m.group())


@directive("ExponentMantissa")
class ExponentMantissa:
    """``e5m10``: exponent and mantissa bits."""

    @staticmethod
    def parse(cur, state, exponent, mantissa) -> None:
        cur.ws()
        m = cur.match(re.compile(r"e(\d+)m(\d+)\b"))
        if not m:
            raise cur.error(f"expected exponent mantissa in format e#m#, found {cur.found()}")
        state.set_attr(exponent, A.OpaqueAttr(f"{int(m.group(1))} : i32"))
        state.set_attr(mantissa, A.OpaqueAttr(f"{int(m.group(2))} : i32"))

    @staticmethod
    def print(out, op, exponent, mantissa) -> None:
        out.write(f"e{str(exponent).split(' : ')[0]}m{str(mantissa).split(' : ')[0]}")


_SYMBOL = re.compile(r'@(?:[A-Za-z_][\w$.]*|"(?:[^"\\]|\\.)*")')


@directive("CustomCallTarget")
class CustomCallTarget:
    """``@target`` (the target name as a symbol name)."""

    @staticmethod
    def parse(cur, state, target) -> None:
        cur.ws()
        at = cur.pos
        m = cur.match(_SYMBOL)
        if not m:
            raise cur.error(f"expected the call target like @name, found {cur.found()}")
        body = m.group()[1:]
        value = cur.p.unquote_at(body, at + 1) if body.startswith('"') else body
        state.set_attr(target, A.OpaqueAttr(P.quote_string(value)))

    @staticmethod
    def print(out, op, target) -> None:
        text = str(target)
        out.write(P.symbol_ref(cur_unquote(text)))


def cur_unquote(text: str) -> str:
    """The value of a printed string attribute."""
    from shardy_py.syntax.sdy_parser import unquote

    return unquote(text) if text.startswith('"') else text


def _precision_list(cur) -> A.OpaqueAttr:
    cur.expect("=", "'=' after precision")
    cur.expect("[", "'[' and the precisions")
    cases = []
    if not cur.accept("]"):
        while True:
            cases.append(PRECISION.make(PRECISION.case(PRECISION.parse(cur))))
            if cur.accept("]"):
                break
            cur.expect(",", "',' or ']'")
    return A.OpaqueAttr("[" + ", ".join(str(c) for c in cases) + "]")


def _precision_text(attr) -> str:
    items = split_top(str(attr)[1:-1])
    return ", precision = [" + ", ".join(Enum.case(x) for x in items) + "]"


@directive("PrecisionConfig")
class PrecisionConfig:
    """``, precision = [DEFAULT, HIGHEST]`` when the op has a precision config."""

    @staticmethod
    def parse(cur, state, precision) -> None:
        if not cur.accept(","):
            return
        if not cur.keyword("precision"):
            raise cur.error(f"expected 'precision', found {cur.found()}")
        state.set_attr(precision, _precision_list(cur))

    @staticmethod
    def print(out, op, precision) -> None:
        if precision is not None:
            out.write(_precision_text(precision))


@directive("PrecisionConfigAndAlgorithm")
class PrecisionConfigAndAlgorithm:
    """``, precision = [...]`` and/or ``, algorithm = <...>``."""

    @staticmethod
    def parse(cur, state, precision, algorithm) -> None:
        if not cur.accept(","):
            return
        if not cur.keyword("algorithm"):
            if not cur.keyword("precision"):
                raise cur.error(f"expected 'precision' or 'algorithm', found {cur.found()}")
            state.set_attr(precision, _precision_list(cur))
            if not cur.accept(","):
                return
            if not cur.keyword("algorithm"):
                raise cur.error(f"expected 'algorithm', found {cur.found()}")
        cur.expect("=", "'=' after algorithm")
        cur.ws()
        start = cur.pos
        cur.balanced()
        state.set_attr(algorithm, A.OpaqueAttr("#stablehlo.dot_algorithm" + cur.p.norm(start, cur.pos)))

    @staticmethod
    def print(out, op, precision, algorithm) -> None:
        if precision is not None:
            out.write(_precision_text(precision))
        if algorithm is not None:
            out.write(", algorithm = " + str(algorithm)[len("#stablehlo.dot_algorithm"):])


_DOT_FIELDS = ("lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
               "rhs_contracting_dimensions")


def dot_fields(attr) -> dict[str, list[int]]:
    """The four dimension lists of a stored ``#stablehlo.dot<...>``."""
    text = str(attr)
    out = {k: [] for k in _DOT_FIELDS}
    for key, body in re.findall(r"(\w+) = \[([^\]]*)\]", text):
        if key in out:
            out[key] = [int(x) for x in re.findall(r"-?\d+", body)]
    return out


def dot_attr(fields: dict[str, list[int]]) -> A.OpaqueAttr:
    """The ``#stablehlo.dot<...>`` MLIR prints (empty lists left out)."""
    parts = [f"{k} = [{', '.join(map(str, fields[k]))}]" for k in _DOT_FIELDS if fields.get(k)]
    return A.OpaqueAttr("#stablehlo.dot<" + ", ".join(parts) + ">")


@directive("DotDimensionNumbers")
class DotDimensionNumbers:
    """``batching_dims = [0] x [0], contracting_dims = [2] x [1]`` (batching left out when empty)."""

    @staticmethod
    def parse(cur, state, target) -> None:
        fields = {k: [] for k in _DOT_FIELDS}
        if cur.keyword("batching_dims"):
            cur.expect("=")
            fields["lhs_batching_dimensions"] = int_list(cur)
            if not cur.keyword("x"):
                raise cur.error(f"expected 'x', found {cur.found()}")
            fields["rhs_batching_dimensions"] = int_list(cur)
            cur.expect(",")
        if not cur.keyword("contracting_dims"):
            raise cur.error(f"expected 'contracting_dims', found {cur.found()}")
        cur.expect("=")
        fields["lhs_contracting_dimensions"] = int_list(cur)
        if not cur.keyword("x"):
            raise cur.error(f"expected 'x', found {cur.found()}")
        fields["rhs_contracting_dimensions"] = int_list(cur)
        state.set_attr(target, dot_attr(fields))

    @staticmethod
    def print(out, op, target) -> None:
        f = dot_fields(target)

        def pair(a, b):
            return f"[{', '.join(map(str, f[a]))}] x [{', '.join(map(str, f[b]))}]"

        text = ""
        if f["lhs_batching_dimensions"] or f["rhs_batching_dimensions"]:
            text = "batching_dims = " + pair("lhs_batching_dimensions", "rhs_batching_dimensions") + ", "
        out.write(text + "contracting_dims = " + pair("lhs_contracting_dimensions", "rhs_contracting_dimensions"))


def element_type_of(t) -> str:
    return t.element_type if isinstance(t, RankedTensorType) else ""
