"""Readers of the StableHLO / CHLO attributes (the parsers in ``StablehloOps.cpp``, ``ChloOps.cpp``
and ``AssemblyFormat.cpp``), over an ``attr_reader.AttrReader``, into the values of ``ir.stablehlo_attrs``.

Each reader takes ``(reader, pos, end)`` and returns what it read with the position after it:
``read_dialect_attr`` a whole ``#stablehlo...`` attribute, ``parse_body`` one written without its
``#dialect.mnemonic`` (as op formats write it), ``parse_dot_pretty`` a dot's dimension numbers in the
op form.
"""
from __future__ import annotations

import attrs

from shardy_py.ir import stablehlo_attrs as S
from shardy_py.ir.attr_text import float_format
from shardy_py.ir.attrs import Attr
from shardy_py.ir.types import K_DYNAMIC
from shardy_py.syntax.numbers import decimal_float_bits
from shardy_py.syntax.stablehlo_mesh_attr_reader import MESH_MNEMONICS, check_mesh_attr
from shardy_py.syntax.type_reader import BARE_ID

_NON_SPATIAL = {"b": -1, "f": -2, "i": -3, "o": -4}
_CONV_FIELDS = {
    "input_batch_dimension": "int", "input_feature_dimension": "int", "input_spatial_dimensions": "dims",
    "kernel_input_feature_dimension": "int", "kernel_output_feature_dimension": "int",
    "kernel_spatial_dimensions": "dims", "output_batch_dimension": "int", "output_feature_dimension": "int",
    "output_spatial_dimensions": "dims",
}


def read_enum_value(reader, pos: int, end: int, cls) -> tuple[str, int]:
    """A case name of the enum attribute class ``cls``."""
    at = reader.skip(pos)
    word, pos = reader.keyword(at, end, f"a {cls.MNEMONIC} value")
    if word not in cls.CASES:
        kind = "".join(w.capitalize() for w in cls.MNEMONIC.split("_"))
        raise reader.error(f"expected ::mlir::{cls.DIALECT}::{kind} to be one of: {', '.join(cls.CASES)}", at)
    return word, pos


def read_wrapped_enum(reader, dialect: str, lt: int, stop: int, enums):
    """``#dialect<mnemonic VALUE>`` with ``<`` at ``lt``; None for a mnemonic we do not model."""
    word, pos = reader.keyword(lt + 1, stop, "an attribute mnemonic")
    cls = enums.get((dialect, word))
    if cls is None or not cls.WRAPPED:
        return None
    value, pos = read_enum_value(reader, pos, stop, cls)
    pos = reader.expect(pos, stop, ">", f"to close #{dialect}<{word} ...>")
    return cls(value)


def _value(reader, pos: int, end: int, kind: str, name: str):
    if kind == "int":
        return reader.int64(pos, end, f"an integer for '{name}'")
    if kind == "dims":
        return reader.dims(pos, end, f"'{name}' list")
    if kind == "type":
        return reader.type(pos, end)
    word, p = reader.keyword(pos, end, f"'true' or 'false' for '{name}'")
    if word not in ("true", "false"):
        raise reader.error(f"expected 'true' or 'false' for '{name}', found '{word}'", reader.skip(pos))
    return word == "true", p


def read_struct(reader, pos: int, end: int, kinds: dict[str, str], required: bool = False,
                ordered: bool = False, opened: bool = False) -> tuple[dict, int]:
    """``<name = value, ...>`` with ``<`` at ``pos``: ``parseStruct`` (any order, each name once; a
    trailing comma allowed), or with ``ordered`` a fixed assembly format (every name, in order).
    ``kinds`` maps each name to ``int``, ``dims``, ``type`` or ``bool``; ``required`` demands them all;
    ``opened``: the ``<`` was read already."""
    if not opened:
        pos = reader.expect(pos, end, "<", "to open the attribute body")
    values: dict = {}
    names = list(kinds)
    if ordered:
        for i, name in enumerate(names):
            at = reader.skip(pos)
            if not reader.text.startswith(name, at) or BARE_ID.match(reader.text, at, end).end() != at + len(name):
                raise reader.error(f"expected '{name}'", at)  # (the format's keyword: parseKeyword, at the token)
            pos = at + len(name)
            pos = reader.expect(pos, end, "=", f"after '{name}'")
            values[name], pos = _value(reader, pos, end, kinds[name], name)
            if i + 1 < len(names):
                pos = reader.expect(pos, end, ",", f"after '{name}'")
        return values, reader.expect(pos, end, ">", "to close the attribute body")
    while (p := reader.optional(pos, end, ">")) is None:
        at = reader.skip(pos)
        word = None
        if at < end and (reader.text[at].isalpha() or reader.text[at] == "_"):
            word, pos = reader.keyword(at, end)
        if word not in kinds:
            raise reader.error("expected one of: " + ", ".join(f"`{n}`" for n in names), at)
        if word in values:
            raise reader.error(f"duplicated `{word}` entry", reader.skip(pos))  # (at the token after the name)
        pos = reader.expect(pos, end, "=", f"after '{word}'")
        values[word], pos = _value(reader, pos, end, kinds[word], word)
        if (c := reader.optional(pos, end, ",")) is None:
            pos = reader.expect(pos, end, ">", "to close the attribute body")
            break
        pos = c
    else:
        pos = p
    if required and len(values) != len(kinds):
        missing = [n for n in names if n not in values]
        raise reader.error(f"struct is missing required parameter: {missing[0]}", pos - 1)
    return values, pos


def _int_list(reader, pos: int, end: int, what: str) -> tuple[tuple[int, ...], int]:
    pos = reader.expect(pos, end, "[", f"to open the {what}")
    out = []
    if (p := reader.optional(pos, end, "]")) is not None:
        return (), p
    while True:
        v, pos = reader.int64(pos, end, f"an integer in the {what}")
        out.append(v)
        if (p := reader.optional(pos, end, ",")) is not None:
            pos = p
            continue
        return tuple(out), reader.expect(pos, end, "]", f"to close the {what}")


def _lhs_rhs(reader, pos: int, end: int, name: str):
    pos = reader.expect(pos, end, "=", f"after '{name}'")
    lhs, pos = _int_list(reader, pos, end, f"lhs {name}")
    pos = reader.expect(pos, end, "x", f"between the lhs and rhs {name}")
    rhs, pos = _int_list(reader, pos, end, f"rhs {name}")
    return lhs, rhs, pos


def read_dot_pretty(reader, pos: int, end: int):
    """``[batching_dims = [..] x [..],] contracting_dims = [..] x [..]`` (``parseDotDimensionNumbers``):
    (lhs batching, rhs batching, lhs contracting, rhs contracting, position after)."""
    lb = rb = ()
    at = reader.skip(pos)
    if reader.text.startswith("batching_dims", at):
        lb, rb, pos = _lhs_rhs(reader, at + len("batching_dims"), end, "batching_dims")
        pos = reader.expect(pos, end, ",", "after batching_dims")
    pos = reader.expect(pos, end, "contracting_dims", "in dot dimension numbers")
    lc, rc, pos = _lhs_rhs(reader, pos, end, "contracting_dims")
    return lb, rb, lc, rc, pos


def read_result_accuracy(reader, pos: int, end: int, mode_cls):
    """``<atol = F, rtol = F, ulps = N, mode = M>`` (each of the first three optional, in this order):
    (atol bits, rtol bits, ulps, mode attribute, position after)."""
    pos = reader.expect(pos, end, "<", "to open #stablehlo.result_accuracy")
    found = {"atol": 0, "rtol": 0}
    for name in ("atol", "rtol"):
        at = reader.skip(pos)
        if reader.text.startswith(name, at):
            pos = reader.expect(at + len(name), end, "=", f"after '{name}'")
            num_at = reader.skip(pos)
            attr, pos = reader.attribute(num_at, end)
            text = reader.text[num_at:pos].strip()
            if type(attr).__name__ != "FloatAttr" or ":" in text:
                raise reader.error(f"expected a floating point literal for '{name}'", num_at)
            negative = text.startswith("-")
            found[name] = decimal_float_bits(float_format("f64"), text.lstrip("-").strip(), negative) \
                if "x" not in text else attr.bits
            pos = reader.expect(pos, end, ",", f"after '{name}'")
    ulps = 0
    at = reader.skip(pos)
    if reader.text.startswith("ulps", at):
        pos = reader.expect(at + 4, end, "=", "after 'ulps'")
        ulps, pos = reader.int64(pos, end, "an integer for 'ulps'")
        pos = reader.expect(pos, end, ",", "after 'ulps'")
    pos = reader.expect(pos, end, "mode", "in #stablehlo.result_accuracy")
    pos = reader.expect(pos, end, "=", "after 'mode'")
    at = reader.skip(pos)
    if reader.text.startswith("<", at):
        value, pos = read_enum_value(reader, at + 1, end, mode_cls)
        mode, pos = mode_cls(value), reader.expect(pos, end, ">", "to close the mode")
    else:
        mode, pos = reader.attribute(at, end)
        if not isinstance(mode, mode_cls):
            raise reader.error("expected a #stablehlo.result_accuracy_mode<...> for 'mode'", at)
    return found["atol"], found["rtol"], ulps, mode, reader.expect(pos, end, ">", "to close the attribute body")


def _conv_dims(reader, pos: int, end: int, allowed: str):
    """One ``[b, 0, 1, f]`` list: (spatial dims, {letter: index}, position after)."""
    pos = reader.expect(pos, end, "[", "to open convolution dimensions")
    spatial: dict[int, int] = {}
    letters: dict[str, int] = {}
    index = 0
    while True:
        at = reader.skip(pos)
        if at < end and (reader.text[at].isdigit() or reader.text[at] == "-"):
            d, pos = reader.int64(at, end)
            if d < 0:
                raise reader.error(f"Unexpected dimension {d}", at)
            if d in spatial:
                raise reader.error(f"Duplicate entries for spatial dimension {d}", at)
            spatial[d] = index
        else:
            word, pos = reader.keyword(at, end, "a dimension")
            left = [c for c in allowed if c not in letters]
            if len(word) != 1 or not left:
                raise reader.error(f"Unexpected keyword {word}", at)
            if word not in left:
                raise reader.error(f"Unexpected dimension {word}, expecting {', '.join(left)}", at)
            letters[word] = index
        index += 1
        if (p := reader.optional(pos, end, ",")) is not None:
            pos = p
            continue
        break
    missing = [c for c in allowed if c not in letters]
    if missing:
        raise reader.error(f"Expected dimensions {', '.join(missing)} not specified", reader.skip(pos))
    pos = reader.expect(pos, end, "]", "to close convolution dimensions")
    count = max(spatial, default=-1) + 1
    unspecified = [d for d in range(count) if d not in spatial]
    if unspecified:
        raise reader.error(f"Expected spatial dimensions {', '.join(map(str, unspecified[:10]))} not specified", pos)
    return tuple(spatial[d] for d in range(count)), letters, pos


def read_conv_body(reader, pos: int, end: int):
    """``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]``: (the nine ConvDimensionNumbers fields, position after)."""
    in_sp, in_l, pos = _conv_dims(reader, pos, end, "bf")
    pos = reader.expect(pos, end, "x", "between the input and kernel dimensions")
    k_sp, k_l, pos = _conv_dims(reader, pos, end, "io")
    pos = reader.expect(pos, end, "->", "between the kernel and output dimensions")
    out_sp, out_l, pos = _conv_dims(reader, pos, end, "bf")
    return (in_l["b"], in_l["f"], in_sp, k_l["i"], k_l["o"], k_sp, out_l["b"], out_l["f"], out_sp), pos


def read_conv_attr(reader, lt: int, stop: int, cls):
    """``#stablehlo.conv<...>`` body (``<`` at ``lt``): the compact form, or ``raw`` and struct fields."""
    at = reader.skip(lt + 1)
    word = BARE_ID.match(reader.text, at, stop)
    if word and word.group() == "raw":
        values, pos = read_struct(reader, word.end(), stop, _CONV_FIELDS, opened=True)
        return cls(**{k: values.get(k, 0 if v == "int" else ()) for k, v in _CONV_FIELDS.items()}), pos
    fields, pos = read_conv_body(reader, lt + 1, stop)
    return cls(*fields), reader.expect(pos, stop, ">", "to close #stablehlo.conv")


def read_bounds(reader, lt: int, stop: int, short: bool) -> tuple[int, ...]:
    """``<4, ?>`` (``#stablehlo.bounds``) or ``<bounds = [4, ?]>`` (``#stablehlo.type_extensions``)."""
    if not short:
        pos = reader.expect(lt + 1, stop, "bounds", "in #stablehlo.type_extensions")
        pos = reader.expect(pos, stop, "=", "after 'bounds'")
        dims, pos = reader.dims(pos, stop, "bounds")
        reader.expect(pos, stop, ">", "to close #stablehlo.type_extensions")
        return dims
    pos = lt + 1
    out: list[int] = []
    if reader.optional(pos, stop, ">") is not None:
        return ()
    while True:
        if (p := reader.optional(pos, stop, "?")) is not None:
            out.append(K_DYNAMIC)
            pos = p
        else:
            v, pos = reader.int64(pos, stop, "a bound or '?'")
            out.append(v)
        if (p := reader.optional(pos, stop, ",")) is not None:
            pos = p
            continue
        reader.expect(pos, stop, ">", "to close #stablehlo.bounds")
        return tuple(out)


# -- the attribute values ---------------------------------------------------------------------------------

def parse_body(cls, reader, pos: int, end: int):
    """An attribute of class ``cls`` written without its ``#dialect.mnemonic`` at ``pos`` (a case name
    for an enum, ``<field = ..., ...>`` for a struct): (attr, position after it)."""
    if issubclass(cls, S.EnumAttr):
        value, pos = read_enum_value(reader, pos, end, cls)
        return cls(value), pos
    reader_of = _BODY_READERS.get(cls)
    if reader_of is not None:
        return reader_of(cls, reader, pos, end)
    fields = attrs.fields(cls)
    kinds = {f.name: ("int" if f.type in ("int", int) else "dims") for f in fields}
    values, pos = read_struct(reader, pos, end, kinds)
    return cls(**{f.name: values.get(f.name, 0 if kinds[f.name] == "int" else ()) for f in fields}), pos


def _channel_handle(cls, reader, pos: int, end: int):
    values, pos = read_struct(reader, pos, end, {"handle": "int", "type": "int"}, required=True)
    return cls(values["handle"], values["type"]), pos


def _output_operand_alias(cls, reader, pos: int, end: int):
    kinds = {"output_tuple_indices": "dims", "operand_index": "int", "operand_tuple_indices": "dims"}
    values, pos = read_struct(reader, pos, end, kinds, required=True, ordered=True)
    return cls(values["output_tuple_indices"], values["operand_index"], values["operand_tuple_indices"]), pos


def _result_accuracy(cls, reader, pos: int, end: int):
    start = reader.skip(pos)
    atol, rtol, ulps, mode, pos = read_result_accuracy(reader, pos, end, S.ResultAccuracyModeAttr)
    attr = cls(atol, rtol, ulps, mode)
    if (message := attr.verify()) is not None:
        raise reader.error(message, start)
    return attr, pos


def _dot_algorithm(cls, reader, pos: int, end: int):
    kinds = {"lhs_precision_type": "type", "rhs_precision_type": "type", "accumulation_type": "type",
             "lhs_component_count": "int", "rhs_component_count": "int", "num_primitive_operations": "int",
             "allow_imprecise_accumulation": "bool"}
    start = reader.skip(pos)
    v, pos = read_struct(reader, pos, end, kinds, required=True, ordered=True)
    attr = cls(**v)
    if (message := attr.verify()) is not None:
        raise reader.error(message, start)
    return attr, pos


def _conv(cls, reader, pos: int, end: int):
    """``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]``."""
    fields, pos = read_conv_body(reader, pos, end)
    return cls(*fields), pos


_BODY_READERS = {S.ChannelHandleAttr: _channel_handle, S.OutputOperandAliasAttr: _output_operand_alias,
                 S.ResultAccuracyAttr: _result_accuracy, S.DotAlgorithmAttr: _dot_algorithm,
                 S.ConvDimensionNumbersAttr: _conv}


def parse_dot_pretty(reader, pos: int, end: int):
    """``[batching_dims = [..] x [..],] contracting_dims = [..] x [..]``: (``DotDimensionNumbersAttr``,
    position after it)."""
    lb, rb, lc, rc, pos = read_dot_pretty(reader, pos, end)
    return S.DotDimensionNumbersAttr(lb, rb, lc, rc), pos


def read_dialect_attr(reader, dialect: str, mnemonic: str | None, lt: int, stop: int) -> Attr | None:
    """The attribute ``#dialect[.mnemonic]<...>`` whose ``<`` is at ``lt`` and which ends at ``stop``;
    None for one we do not model (kept as written)."""
    enums = S.ENUMS_BY_KEY
    if mnemonic is None:
        return read_wrapped_enum(reader, dialect, lt, stop, enums)
    key = (dialect, mnemonic)
    if key in enums and not enums[key].WRAPPED:
        value, pos = read_enum_value(reader, lt + 1, stop - 1, enums[key])
        reader.expect(pos, stop, ">", f"to close #{dialect}.{mnemonic}")
        return enums[key](value)
    cls = S.STRUCTS_BY_KEY.get(key)
    if cls is not None:
        attr, pos = parse_body(cls, reader, lt, stop)
    elif key == ("stablehlo", "conv"):
        attr, pos = read_conv_attr(reader, lt, stop, S.ConvDimensionNumbersAttr)
    elif key in (("stablehlo", "type_extensions"), ("stablehlo", "bounds")):
        attr, pos = S.TypeExtensionsAttr(read_bounds(reader, lt, stop, mnemonic == "bounds")), stop
    elif dialect == "stablehlo" and mnemonic in MESH_MNEMONICS:
        check_mesh_attr(reader, mnemonic, lt, stop)  # kept as written once it reads as MLIR reads it
        return None
    else:
        return None
    at = reader.peek(pos, stop)[1]
    if at != stop:
        raise reader.error(f"unexpected text in #{dialect}.{mnemonic}", at)
    return attr
