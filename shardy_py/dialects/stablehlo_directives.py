"""StableHLO's custom assembly directives (``stablehlo/dialect/AssemblyFormat.cpp``), each a
parse/print pair registered with ``syntax.format.directive``: the type directives
(``SameOperandsAndResultType``, ``TupleOpType``, ``SelectOpType``, ...), operand lists
(``VariadicOperandWithAttribute``) and attributes written in a custom way (``SliceRanges``,
``ExponentMantissa``, ``CustomCallTarget``, ``PrecisionConfig``, ``DotDimensionNumbers``).
"""
from __future__ import annotations

import re

from shardy_py.dialects.attr_codecs import Bool, Enum, i64_array, int_list, ints_of
from shardy_py.ir import attrs as A
from shardy_py.ir.types import parse_type
from shardy_py.syntax import attr_printer as P
from shardy_py.syntax.fn_types import split_top
from shardy_py.syntax.format import directive
from shardy_py.syntax.op_writer import functional_type, without_type
from shardy_py.syntax.sdy_parser import unquote


def _assign_from_function_type(cur, state, operand_args: tuple, result, at: int) -> bool:
    """``assignFromFunctionType``: when the type at the cursor is ``(A, B) -> R``, give each operand
    argument its input type and ``result`` the single output; False when it is not a function type."""
    cur.ws()
    if not cur.peek("("):
        return False
    ins, outs = cur.function_type()
    if len(ins) != len(operand_args):
        raise cur.error(f"{len(operand_args)} operands present, but expected {len(ins)}", at)
    if len(outs) != 1:
        raise cur.error("expected single output", at)
    for t, arg in zip(ins, operand_args, strict=True):
        state.set_types(arg, [t])
    state.set_types(result, outs)
    return True


def _same_or_functional(out, operand_types: list, result) -> None:
    """``T`` when every operand has the result's type ``T``, else ``(A, B) -> R``."""
    if all(t == result for t in operand_types):
        out.write(str(result))
    else:
        out.write(functional_type(operand_types, [result]))


@directive("SameOperandsAndResultType")
class SameOperandsAndResultType:
    """``: T`` when every operand and the result have type T, else ``: (A, B) -> R``."""

    @staticmethod
    def parse(cur, state, *types) -> None:
        at = cur.ws()
        if _assign_from_function_type(cur, state, types[:-1], types[-1], at):
            return
        t = cur.type()
        for arg in types:
            state.set_types(arg, [t])

    @staticmethod
    def print(out, op, *types) -> None:
        _same_or_functional(out, list(types[:-1]), types[-1])


@directive("VariadicSameOperandsAndResultType")
class VariadicSameOperandsAndResultType:
    """SameOperandsAndResultType for a variadic operand group (``ref($inputs)`` says how many)."""

    @staticmethod
    def parse(cur, state, ref, operand_types, result) -> None:
        count = len(state.operand_names_of(ref))
        at = cur.ws()
        if cur.peek("("):
            ins, outs = cur.function_type()
            if len(ins) != count:
                raise cur.error(f"{count} operands present, but expected {len(ins)}", at)
            if len(outs) != 1:
                raise cur.error("expected single output", at)
            state.set_types(operand_types, ins)
            state.set_types(result, outs)
            return
        t = cur.type()
        state.set_types(operand_types, [t] * count)
        state.set_types(result, [t])

    @staticmethod
    def print(out, op, _operands, types, result) -> None:
        _same_or_functional(out, list(types), result)


@directive("TupleOpType")
class TupleOpType:
    """The tuple result type; the operand types are its elements."""

    @staticmethod
    def parse(cur, state, operand_types, result) -> None:
        at = cur.ws()
        t = cur.type()
        text = str(t)
        if not text.startswith("tuple<"):
            raise cur.error("expected tuple type", at)
        elements = [parse_type(x) for x in split_top(text[len("tuple<"):-1])] if text != "tuple<>" else []
        count = len(state.operand_names_of(getattr(operand_types, "arg", operand_types)))
        if count != len(elements):  # resolveOperands in printTupleOpType's parser
            raise cur.p.error(at, f"custom op '{state.decl.name}' number of operands and types do not match: got "
                                  f"{count} operands and {len(elements)} types")
        state.set_types(operand_types, elements)
        state.set_types(result, [t])

    @staticmethod
    def print(out, op, _types, result) -> None:
        out.write(str(result))


@directive("PairwiseOpType")
class PairwiseOpType:
    """The operand types; each result has its operand's type."""

    @staticmethod
    def parse(cur, state, operand_types, result_types) -> None:
        at = cur.ws()
        types = cur.types()
        arg = getattr(operand_types, "arg", operand_types)
        count = len(state.operand_names_of(arg))
        if count != len(types):
            # resolveOperands in the generated parser
            raise cur.p.error(at, f"custom op '{state.decl.name}' number of operands and types do not match: got "
                                  f"{count} operands and {len(types)} types")
        state.set_types(operand_types, types)
        state.set_types(result_types, types)

    @staticmethod
    def print(out, op, types, _results) -> None:
        out.write(", ".join(str(t) for t in types))


@directive("VariadicOperandWithAttribute")
class VariadicOperandWithAttribute:
    """Operands each followed by a comma (``%a, %b,``), before the attribute that follows."""

    @staticmethod
    def parse(cur, state, operands) -> None:
        names = []
        while cur.peek("%"):
            names.append(cur.value_use())
            cur.expect(",", "','")
        state.set_operands(operands, names)

    @staticmethod
    def print(out, op, values) -> None:
        out.write(", ".join(out.value(v) for v in values) + ",")


_COMPLEX = re.compile(r"complex<([^<>]+)>")


def real_type_text(t) -> str:
    """``createRealType``: the shaped type with the complex element type's real part
    (``tensor<2xcomplex<f32>>`` -> ``tensor<2xf32>``)."""
    return _COMPLEX.sub(r"\1", str(t), count=1)


@directive("ComplexOpType")
class ComplexOpType:
    """The complex result type when both operands have its real type, else ``(A, B) -> R``."""

    @staticmethod
    def parse(cur, state, lhs, rhs, result) -> None:
        at = cur.ws()
        if _assign_from_function_type(cur, state, (lhs, rhs), result, at):
            return
        t = cur.type()
        if "complex<" not in str(t):
            raise cur.error("expected tensor with complex element type", at)
        real = parse_type(real_type_text(t))
        state.set_types(lhs, [real])
        state.set_types(rhs, [real])
        state.set_types(result, [t])

    @staticmethod
    def print(out, op, lhs, rhs, result) -> None:
        real = real_type_text(result)
        if str(lhs) != real or str(rhs) != real:
            out.write(functional_type([lhs, rhs], [result]))
        else:
            out.write(str(result))


@directive("SelectOpType")
class SelectOpType:
    """``pred_type, result_type`` when both branches have the result type, else a function type."""

    @staticmethod
    def parse(cur, state, pred, on_true, on_false, result) -> None:
        at = cur.ws()
        if _assign_from_function_type(cur, state, (pred, on_true, on_false), result, at):
            if cur.peek(","):
                raise cur.error("expected functional type or list of two types", at)
            return
        types = cur.types()
        if len(types) != 2:
            raise cur.error("expected functional type or list of two types", at)
        state.set_types(pred, types[:1])
        for arg in (on_true, on_false, result):
            state.set_types(arg, types[1:])

    @staticmethod
    def print(out, op, pred, on_true, on_false, result) -> None:
        if on_true != result or on_false != result:
            out.write(functional_type([pred, on_true, on_false], [result]))
        else:
            out.write(f"{pred}, {result}")



# -- attributes written in a custom way -----------------------------------------------------------

_INT = re.compile(r"-?\d+")


def _int(cur) -> int:
    cur.ws()
    m = cur.match(_INT)
    if not m:
        raise cur.error(f"expected integer value, found {cur.found()}")
    value = int(m.group())
    if not -(1 << 63) <= value < (1 << 63):  # (``parseInteger`` into an int64_t)
        raise cur.p.error(m.start(), "integer value too large")
    return value


def _joined(values) -> str:
    return ", ".join(str(v) for v in values)


@directive("SliceRanges")
class SliceRanges:
    """``[start:limit(:stride), ...]`` for three DenseI64ArrayAttrs (a stride of 1 left out)."""

    @staticmethod
    def parse(cur, state, start, limit, strides) -> None:
        cur.expect("[", "'['")
        s, lim, st = [], [], []
        if not cur.accept("]"):
            while True:
                s.append(_int(cur))
                cur.expect(":", "':'")
                lim.append(_int(cur))
                st.append(_int(cur) if cur.accept(":") else 1)
                if cur.accept("]"):
                    break
                cur.expect(",", "','")
        state.set_attr(start, i64_array(s))
        state.set_attr(limit, i64_array(lim))
        state.set_attr(strides, i64_array(st))

    @staticmethod
    def print(out, op, start, limit, strides) -> None:
        s, lim, st = ints_of(start), ints_of(limit), ints_of(strides)
        if not (len(s) == len(lim) == len(st)):  # invalid IR, printed as MLIR prints it
            out.write(f"[start_indices: {_joined(s)}, limit_indices: {_joined(lim)}, strides: {_joined(st)}]")
            return
        out.write("[" + ", ".join(f"{a}:{b}" + (f":{c}" if c != 1 else "")
                                  for a, b, c in zip(s, lim, st, strict=True)) + "]")


_EXPONENT_MANTISSA = re.compile(r"e(\d+)m(\d+)(?![\w$.])")
_KEYWORD = re.compile(r"[A-Za-z_][\w$.]*")


@directive("ExponentMantissa")
class ExponentMantissa:
    """``e5m10``: the exponent and mantissa bits (two i32 attributes)."""

    @staticmethod
    def parse(cur, state, exponent, mantissa) -> None:
        cur.ws()
        at = cur.pos
        m = cur.match(_EXPONENT_MANTISSA)
        if not m:
            word = _KEYWORD.match(cur.text, at, cur.end)
            if not word:
                raise cur.error(f"expected valid keyword, found {cur.found()}", at)
            raise cur.error(f"expected exponent mantissa in format e#m#, saw {word.group()}", at)
        for text, what in ((m.group(1), "exponent"), (m.group(2), "mantissa")):
            if int(text) >= 2 ** 31:  # (StringRef::getAsInteger into an int32)
                raise cur.p.error(at, f"custom op '{state.decl.name}' unable to parse {what} '{text}'")
        state.set_attr(exponent, A.OpaqueAttr(f"{int(m.group(1))} : i32"))
        state.set_attr(mantissa, A.OpaqueAttr(f"{int(m.group(2))} : i32"))

    @staticmethod
    def print(out, op, exponent, mantissa) -> None:
        out.write(f"e{without_type(exponent)}m{without_type(mantissa)}")


_SYMBOL = re.compile(r'@(?:[A-Za-z_][\w$.]*|"(?:[^"\\]|\\.)*")')


@directive("CustomCallTarget")
class CustomCallTarget:
    """``@target``: the call target name (a string attribute) written as a symbol name."""

    @staticmethod
    def parse(cur, state, target) -> None:
        cur.ws()
        at = cur.pos
        m = cur.match(_SYMBOL)
        if not m:
            raise cur.error(f"expected valid '@'-identifier for symbol name, found {cur.found()}", at)
        body = m.group()[1:]
        value = cur.p.unquote_at(body, at + 1) if body.startswith('"') else body
        state.set_attr(target, A.OpaqueAttr(P.quote_string(value)))

    @staticmethod
    def print(out, op, target) -> None:
        text = str(target)
        out.write(P.symbol_ref(unquote(text) if text.startswith('"') else text))


PRECISION = Enum("stablehlo", "precision", ("DEFAULT", "HIGH", "HIGHEST"))


def _parse_precision(cur) -> A.OpaqueAttr:
    """``precision = [DEFAULT, HIGHEST]`` (after the optional comma) as the stored array of enums."""
    if not cur.keyword("precision"):
        raise cur.error(f"expected 'precision', found {cur.found()}")
    cur.expect("=", "'='")
    cur.expect("[", "'['")
    cases = []
    if not cur.accept("]"):
        while True:
            cases.append(PRECISION.parse(cur))
            if cur.accept("]"):
                break
            cur.expect(",", "','")
    return A.OpaqueAttr("[" + _joined(cases) + "]")


def _precision_text(attr) -> str:
    return ", precision = [" + ", ".join(Enum.case(x) for x in split_top(str(attr)[1:-1])) + "]"


#: ``DotAlgorithmAttr``'s parameters, in the order its assembly format writes them.
_ALGORITHM_FIELDS = (("lhs_precision_type", "type"), ("rhs_precision_type", "type"), ("accumulation_type", "type"),
                     ("lhs_component_count", "int"), ("rhs_component_count", "int"),
                     ("num_primitive_operations", "int"), ("allow_imprecise_accumulation", "bool"))
ALGORITHM_PREFIX = "#stablehlo.dot_algorithm"


def _parse_algorithm(cur) -> A.OpaqueAttr:
    """``algorithm = <lhs_precision_type = tf32, ...>``: the fields in their fixed order."""
    cur.expect("=", "'='")
    cur.expect("<", "'<'")
    parts = []
    for i, (key, kind) in enumerate(_ALGORITHM_FIELDS):
        if i:
            cur.expect(",", "','")
        if not cur.keyword(key):
            raise cur.error(f"expected '{key}', found {cur.found()}")
        cur.expect("=", "'='")
        if kind == "type":
            value = str(cur.type())
        elif kind == "int":
            value = str(_int(cur))
        else:
            value = Bool.print(Bool.parse(cur))
        parts.append(f"{key} = {value}")
    cur.expect(">", "'>'")
    return A.OpaqueAttr(ALGORITHM_PREFIX + "<" + ", ".join(parts) + ">")


@directive("PrecisionConfig")
class PrecisionConfig:
    """``, precision = [DEFAULT, HIGHEST]`` when the op has a precision config."""

    @staticmethod
    def parse(cur, state, precision) -> None:
        if cur.accept(","):
            state.set_attr(precision, _parse_precision(cur))

    @staticmethod
    def print(out, op, precision) -> None:
        if precision is not None:
            out.write(_precision_text(precision))


@directive("PrecisionConfigAndAlgorithm")
class PrecisionConfigAndAlgorithm:
    """``, precision = [...]`` and/or ``, algorithm = <...>`` (``parsePrecisionConfigAndAlgorithm``)."""

    @staticmethod
    def parse(cur, state, precision, algorithm) -> None:
        if not cur.accept(","):
            return
        if cur.keyword("algorithm"):
            state.set_attr(algorithm, _parse_algorithm(cur))
            return
        state.set_attr(precision, _parse_precision(cur))
        if not cur.accept(","):
            return
        if not cur.keyword("algorithm"):
            raise cur.error(f"expected 'algorithm', found {cur.found()}")
        state.set_attr(algorithm, _parse_algorithm(cur))

    @staticmethod
    def print(out, op, precision, algorithm) -> None:
        if precision is not None:
            out.write(_precision_text(precision))
        if algorithm is not None:
            out.write(", algorithm = " + str(algorithm)[len(ALGORITHM_PREFIX):])


DOT_FIELDS = ("lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
              "rhs_contracting_dimensions")
_DOT_FIELD = re.compile(r"(\w+) = \[([^\]]*)\]")


def dot_fields(attr) -> dict[str, list[int]]:
    """The four dimension lists of a stored ``#stablehlo.dot<...>`` (absent ones empty)."""
    out: dict[str, list[int]] = {k: [] for k in DOT_FIELDS}
    for key, body in _DOT_FIELD.findall(str(attr)):
        if key in out:
            out[key] = [int(x) for x in _INT.findall(body)]
    return out


def dot_attr(fields: dict[str, list[int]]) -> A.OpaqueAttr:
    """The ``#stablehlo.dot<...>`` MLIR prints for ``fields`` (empty lists left out)."""
    parts = [f"{k} = [{_joined(fields[k])}]" for k in DOT_FIELDS if fields.get(k)]
    return A.OpaqueAttr("#stablehlo.dot<" + ", ".join(parts) + ">")


def _lhs_x_rhs(cur) -> tuple[list[int], list[int]]:
    lhs = int_list(cur)
    if not cur.keyword("x"):
        raise cur.error(f"expected 'x', found {cur.found()}")
    return lhs, int_list(cur)


@directive("DotDimensionNumbers")
class DotDimensionNumbers:
    """``batching_dims = [0] x [0], contracting_dims = [2] x [1]`` (batching left out when empty)."""

    @staticmethod
    def parse(cur, state, target) -> None:
        fields: dict[str, list[int]] = {k: [] for k in DOT_FIELDS}
        if cur.keyword("batching_dims"):
            cur.expect("=", "'='")
            fields["lhs_batching_dimensions"], fields["rhs_batching_dimensions"] = _lhs_x_rhs(cur)
            cur.expect(",", "','")
        if not cur.keyword("contracting_dims"):
            raise cur.error(f"expected 'contracting_dims', found {cur.found()}")
        cur.expect("=", "'='")
        fields["lhs_contracting_dimensions"], fields["rhs_contracting_dimensions"] = _lhs_x_rhs(cur)
        state.set_attr(target, dot_attr(fields))

    @staticmethod
    def print(out, op, target) -> None:
        f = dot_fields(target)

        def pair(side: str) -> str:
            return f"[{_joined(f['lhs_' + side])}] x [{_joined(f['rhs_' + side])}]"

        text = ""
        if f["lhs_batching_dimensions"] or f["rhs_batching_dimensions"]:
            text = "batching_dims = " + pair("batching_dimensions") + ", "
        out.write(text + "contracting_dims = " + pair("contracting_dimensions"))
