"""StableHLO's and CHLO's attributes read where MLIR reads them: every ``#stablehlo.X<...>``, ``#stablehlo<X ...>``
and ``#chlo...`` of an attribute value is parsed by its dialect's parser when the module is parsed, also where
we keep the value as written (a discardable attribute: ``module attributes {stablehlo.dot = #stablehlo.dot<...>}``).
An attribute its dialect does not have (``unknown StableHLO attribute``) or a body its parser rejects is MLIR's
parse error at MLIR's token; the struct attributes (``parseStruct`` in ``StablehloOps.cpp``, ``ChloOps.cpp``)
and the enum attributes (ODS's generated parsers) add their own error where reading stopped ("failed parsing
dot dimension numbers attribute").  Mnemonics we do not model (the mesh attributes) are kept unread."""
from __future__ import annotations

import re

from shardy_py.errors import AttrSyntaxError
from shardy_py.syntax.attr_reader import AttrReader
from shardy_py.syntax.scanner import wrong_token_offset
from shardy_py.syntax.type_reader import BARE_ID, WS

#: A StableHLO/CHLO attribute's head (its mnemonic after ``.`` or ``<``), or a string literal.
#: A keyword an attribute's assembly format wants (``parseKeyword``: reported at the token, not after the text before).
_KEYWORD_EXPECTED = re.compile(r"expected '[A-Za-z_][\w$.]*'")
_HEAD_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|#(stablehlo|chlo)(?:(\.)|<\s*)([\w$.]*)')
#: Wrapped enums (``#d<mnemonic CASE>``) by dialect.
_WRAPPED_ENUMS = {
    "stablehlo": frozenset({"comparison_direction", "comparison_type", "precision", "fft_type", "rng_algorithm",
                            "rng_distribution", "transpose"}),
    "chlo": frozenset({"comparison_direction", "comparison_type", "precision"}),
}
#: Every attribute mnemonic of each dialect (jaxlib 0.12's StableHLO and CHLO).
_KNOWN = {
    "stablehlo": _WRAPPED_ENUMS["stablehlo"] | {
        "scatter", "gather", "dot_algorithm", "dot", "output_operand_alias", "channel_handle", "type_extensions",
        "conv", "result_accuracy", "result_accuracy_mode", "sub_axis_info", "axis_ref", "mesh_axis", "mesh",
        "replica_group_mesh_axes", "bounds"},
    "chlo": _WRAPPED_ENUMS["chlo"] | {"ragged_dot"},
}
_UNKNOWN = {"stablehlo": "unknown StableHLO attribute", "chlo": "unknown chlo attribute"}
#: ODS's attribute definition name prefix per dialect (``StableHLO_ComparisonDirectionAttr``).
_ODS_PREFIX = {"stablehlo": "StableHLO", "chlo": "CHLO"}
#: The struct attributes whose parser adds its own error after a failure.
_FAILED_PARSING = {
    ("stablehlo", "gather"): "failed parsing gather dimension numbers attribute",
    ("stablehlo", "scatter"): "failed parsing scatter dimension numbers attribute",
    ("stablehlo", "dot"): "failed parsing dot dimension numbers attribute",
    ("chlo", "ragged_dot"): "failed parsing ragged dot dimension numbers attribute",
}


def check_dialect_attributes(p, start: int, end: int) -> None:
    """Parse every StableHLO/CHLO attribute in ``p.text[start:end]`` (outside string literals); raise the
    ``ParseError`` (with ``more``) of the first one its dialect rejects."""
    text = p.text
    reader = None
    for m in _HEAD_OR_STRING.finditer(text, start, end):
        dialect = m.group(1)
        if dialect is None:
            continue
        dotted, mnemonic = m.group(2) is not None, m.group(3)
        if mnemonic not in _KNOWN[dialect]:
            raise p.error(m.start(3), _UNKNOWN[dialect])
        wrapped_enum = mnemonic in _WRAPPED_ENUMS[dialect]
        after = WS.match(text, m.end(), end).end()
        if dotted and wrapped_enum:  # `#stablehlo.comparison_direction<LT>`: the case is a bare keyword
            raise _with_more(p.error(after, "expected valid keyword or string"),
                             p, after, _enum_failure(dialect, mnemonic))
        if not dotted and not wrapped_enum or dotted and not text.startswith("<", after):
            raise p.error(wrong_token_offset(text, after), "expected '<'")
        reader = reader or AttrReader(text)
        try:
            reader.attribute(m.start(), end)
        except AttrSyntaxError as e:
            raise _located(p, e, dialect, mnemonic) from None


def _enum_failure(dialect: str, mnemonic: str) -> str:
    kind = "".join(w.capitalize() for w in mnemonic.split("_"))
    return (f"failed to parse {_ODS_PREFIX[dialect]}_{kind}Attr parameter 'value' which is to be a "
            f"`::mlir::{dialect}::{kind}`")


def _with_more(error, p, offset: int, message: str | None):
    if message is not None:
        line, column = p.lines.locate(offset)
        error.more = ((line, column, message),)
    return error


def _located(p, e: AttrSyntaxError, dialect: str, mnemonic: str):
    """The ``ParseError`` of ``e``: a wrong token (``expected '>'``) just after the text before it, as MLIR's
    ``emitWrongTokenError``, else at the token itself; the parser's own error after it, where it stopped."""
    text = p.text
    at = wrong_token_offset(text, e.offset) if e.message.startswith("expected '") and \
        not _KEYWORD_EXPECTED.fullmatch(e.message) else e.offset  # (a keyword: parseKeyword reports at the token)
    error = p.error(at, e.message)
    if e.message.startswith("expected ::mlir::"):  # a case name not of the enum: stopped after it
        word = BARE_ID.match(text, e.offset)
        return _with_more(error, p, word.end() if word else e.offset, _enum_failure(dialect, mnemonic))
    if e.message.startswith(f"expected a {mnemonic} value"):
        return _with_more(error, p, e.offset, _enum_failure(dialect, mnemonic))
    return _with_more(error, p, e.offset, _FAILED_PARSING.get((dialect, mnemonic)))
