"""The first error of a dialect attribute or type written without its body: ``#sdy.`` (a line cut after the
dialect's dot), ``#sdy.sharding`` with no ``<`` after it, ``!stablehlo.`` and the like.

MLIR lexes ``#sdy.sharding`` as one token; only a ``<`` right after it makes a body the lexer balances.
Without one, the dialect's own parser is handed the text from the dot on and reads it token by token, past
blank lines, comments and line ends: first a keyword (the mnemonic, the token after the dot when the name
stops there), then what that attribute starts with.  So the error is met in the text after the name: at the
next token ("expected valid keyword", "unknown attribute `return` in dialect `sdy`"), or just after the
mnemonic when the token after it is not the bracket the attribute opens with ("expected '<'", as
``parseLess`` reports a wrong token).  ``pretty_name_error`` finds that error; the parser asks for it on the
error path only (``parse_module``), where its own error comes at or after such a name.
"""
from __future__ import annotations

import re

from shardy_py.errors import AttrSyntaxError
from shardy_py.syntax.attr_values import sdy_error_offset
from shardy_py.syntax.registered_ops_data import MNEMONICS, NO_ATTRIBUTE_PARSER, NO_TYPE_PARSER
from shardy_py.syntax.scan_errors import scan_pretty_body
from shardy_py.syntax.scanner import wrong_token_offset
from shardy_py.syntax.sdy_parser import parse_sdy
from shardy_py.syntax.type_reader import BARE_ID, WS

#: A dialect attribute or type name (``#sdy.sharding``, ``#stablehlo``, ``!foo.bar``), or a string literal or
#: resource block to skip.
_HEAD = re.compile(r'"(?:[^"\\\n]|\\.)*"|\{-#.*?#-\}|(?<![\w$.%@#!-])([#!])([A-Za-z_][\w$.-]*)', re.DOTALL)

#: The case of an enum attribute (``#stablehlo.comparison_direction LT``) or a keyword-led body.
_ENUM = "keyword"
#: What the body of each attribute opens with (jaxlib 0.12: the token its parser wants after the mnemonic).
_OPENER = {
    ("#", "sdy"): {
        "mesh": "<", "sharding": "<", "sharding_per_value": "<", "op_sharding_rule": "<",
        "propagation_edges": "<", "sub_axis_info": "(", "dimension_sharding": "{", "all_to_all_param": "{",
        "axis_to_propagation_details": "{", "propagation_one_step": "{", "manual_axes": "{",
        "axis_ref_list": "{", "tensor_mapping": "[", "list_of_axis_ref_lists": "[",
        "all_to_all_param_list": "[", "mesh_axis": '"', "axis_ref": '"', "edge_value_ref": _ENUM,
        "dim_mapping": None},
    ("#", "stablehlo"): {
        **dict.fromkeys(("scatter", "gather", "dot_algorithm", "dot", "output_operand_alias", "channel_handle",
                         "type_extensions", "conv", "result_accuracy", "sub_axis_info", "axis_ref", "mesh_axis",
                         "mesh", "replica_group_mesh_axes", "bounds"), "<"),
        **dict.fromkeys(("comparison_direction", "comparison_type", "precision", "fft_type", "rng_algorithm",
                         "rng_distribution", "transpose"), _ENUM), "result_accuracy_mode": None},
    ("#", "chlo"): {"ragged_dot": "<",
                    **dict.fromkeys(("comparison_direction", "comparison_type", "precision"), _ENUM)},
    ("!", "stablehlo"): {"future": "<", "token": None},
}

#: What the dialect's parser says of a keyword it has no attribute or type for.
_UNKNOWN = {
    ("#", "sdy"): "unknown attribute `{}` in dialect `sdy`",
    ("#", "stablehlo"): "unknown StableHLO attribute",
    ("#", "chlo"): "unknown chlo attribute",
    ("!", "stablehlo"): "unknown stablehlo type: {}",
}


#: The dialects (registered in jaxlib) that have no parser for their attributes ('#') or types ('!').
_NO_PARSER = {"#": NO_ATTRIBUTE_PARSER, "!": NO_TYPE_PARSER}
_NO_PARSER_MESSAGE = {"#": "dialect '{}' provides no attribute parsing hook", "!": "dialect '{}' provides no type "
                                                                                   "parsing hook"}
#: A name of such a dialect with a body (``#func.x``, ``!builtin<...>``, ``#tensor.``): the success path looks
#: for one (one search of the text) before it asks ``pretty_name_error`` where MLIR fails.
NO_PARSER_NAME = re.compile("|".join(
    rf"{'#' if sigil == '#' else '!'}(?:{'|'.join(sorted(names))})[.<]" for sigil, names in _NO_PARSER.items()))
#: The other registered dialects we check the attribute and type names of (``MNEMONICS``: every name their
#: parsers know; their bodies are kept as written, unread): a name, and its mnemonic (after the '.', or the
#: keyword a pretty body opens with).
_MNEMONIC_NAME = re.compile(r"([#!])(?<![\w$.%@#!-].)(" + "|".join(sorted({d for _, d in MNEMONICS}))
                            + r")(?:\.|<\s*)([A-Za-z_][\w$.]*)?")
for _kind, (_message, _names) in MNEMONICS.items():
    _OPENER[_kind] = dict.fromkeys(_names)  # (what follows the name is not checked)
    _UNKNOWN[_kind] = _message


def may_hold_an_unknown_dialect_name(text: str) -> bool:
    """Whether ``text`` may name an attribute or type that a registered dialect does not have (``NO_PARSER_NAME``,
    or a name of a dialect of ``MNEMONICS`` its parser does not know): ``pretty_name_error`` says where.  Led by
    ``str.find`` of the two sigils, rare in a module, rather than a regex scan of every character."""
    for sigil in "#!":
        pos = text.find(sigil)
        while pos >= 0:
            if NO_PARSER_NAME.match(text, pos) is not None:
                return True
            m = _MNEMONIC_NAME.match(text, pos)
            if m is not None:
                names = MNEMONICS.get((m.group(1), m.group(2)))
                if names is not None and m.group(3) not in names[1]:
                    return True
            pos = text.find(sigil, pos + 1)
    return False


def pretty_name_error(text: str, source: str, limit: int, unread: int | None = None) -> tuple[int, str] | None:
    """``(offset, message)`` of MLIR's error at the first dialect attribute or type of ``text`` (comments
    blanked; ``source`` as written) that starts at or before ``limit`` and fails where MLIR reads it: a pretty
    body (``#sdy.sharding<...``) that does not close (MLIR's lexer scans it to its matching '>'), or an sdy,
    StableHLO or CHLO name with no '<' right after it whose dialect's parser fails on the text after it.
    None when there is none (or it reads on into text this does not model: its body after blanks).
    ``unread``: where the parser stopped reading (a bracket no closer matches): an sdy attribute after it
    whose body closes is read here, by the sdy grammar, as MLIR reads it (its first error)."""
    pos = 0
    while (m := _HEAD.search(text, pos)) is not None and m.start() <= limit:
        pos = m.end()
        if m.group(1) is None:
            continue
        if text.startswith("<", pos):
            scanned = scan_pretty_body(source, pos)
            if not isinstance(scanned, int):
                return scanned
            if (error := _no_parser_error(m) or _body_mnemonic_error(text, m, pos)) is not None:
                return error
            if unread is not None and scanned > unread and m.group(2).startswith("sdy"):
                if (error := _sdy_body_error(text, m.start(), scanned)) is not None:
                    return error
            pos = scanned
            continue
        dialect, dot, name = m.group(2).partition(".")
        if dot and (error := _no_parser_error(m)) is not None:
            return error
        if dot and (error := _error_after(text, (m.group(1), dialect), m.start(2) + len(dialect) + 1, name)):
            return error
    return None


def _no_parser_error(m: re.Match) -> tuple[int, str] | None:
    """MLIR's error at a dialect attribute or type (``m``: ``_HEAD``'s match) whose dialect has no parser for it:
    at its body, just after the dialect's name and its '.' or '<'."""
    dialect = m.group(2).partition(".")[0]
    sigil = m.group(1)
    if dialect not in _NO_PARSER[sigil]:
        return None
    return m.start(2) + len(dialect) + 1, _NO_PARSER_MESSAGE[sigil].format(dialect)


def _body_mnemonic_error(text: str, m: re.Match, lt: int) -> tuple[int, str] | None:
    """The error of a dialect of ``MNEMONICS`` at a name with a pretty body (``m``: ``_HEAD``'s match; ``lt``:
    its '<') whose mnemonic (after its '.', else the body's first keyword) its parser does not know."""
    dialect, dot, name = m.group(2).partition(".")
    kind = (m.group(1), dialect)
    if kind not in MNEMONICS:
        return None
    if dot:
        return _error_after(text, kind, m.start(2) + len(dialect) + 1, name) if name else None
    at = WS.match(text, lt + 1).end()
    word = BARE_ID.match(text, at)
    if word is None or word.group() in MNEMONICS[kind][1]:
        return None
    return at, MNEMONICS[kind][0].format(word.group())


def _sdy_body_error(text: str, start: int, end: int) -> tuple[int, str] | None:
    """The sdy grammar's first error in the attribute ``text[start:end]``, placed as MLIR places it; None when
    it reads."""
    try:
        parse_sdy(text[start:end], "attribute")
    except AttrSyntaxError as e:
        return sdy_error_offset(text, start + e.offset, e.message), e.message
    return None


def _error_after(text: str, kind: tuple[str, str], at: int, name: str) -> tuple[int, str] | None:
    """The error of ``kind``'s parser reading the text from ``at`` (just after the dialect's dot), where the
    lexer's token holds ``name``."""
    openers = _OPENER.get(kind)
    if openers is None:
        return None
    if not name:  # (the name stops at the dot: the parser's keyword is the next token)
        at = WS.match(text, at).end()
        word = BARE_ID.match(text, at)
        if word is None:
            return at, "expected valid keyword"
        name = word.group()
    elif BARE_ID.fullmatch(name) is None:
        return None  # (a name a keyword does not spell: '-' in it, a digit first)
    if name not in openers:
        return at, _UNKNOWN[kind].format(name)
    opener = openers[name]
    token = WS.match(text, at + len(name)).end()
    if opener == _ENUM:  # (its case: a keyword or a string)
        word = BARE_ID.match(text, token) is not None or text.startswith('"', token)
        return None if word else (token, "expected valid keyword or string")
    if opener is None or text.startswith(opener, token):
        return None
    if opener == '"':
        return token, "expected string"
    return wrong_token_offset(text, token), f"expected '{opener}'"
