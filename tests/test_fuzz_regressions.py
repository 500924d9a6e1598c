"""Regression tests for what the fuzz target (``tests/fuzz_parse.py``) and the strategies found.

The property every input must satisfy (``fuzz_parse.check_one``): ``shardy_py.parse`` either
raises ``ParseError`` or returns a module whose print parses again and prints identically, and
``verify`` on it does not raise.  Each finding is pinned here, minimised, once it is fixed.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from cpp_oracle import cpp
from fuzz_parse import check_one

import shardy_py


@pytest.mark.parametrize("text", [
    pytest.param("^", id="caret-AttributeError"),
    pytest.param('func.func@s(r<>{d=[{""}{""}]})->t<>{\n}', id="func-arg-without-name-IndexError"),
    pytest.param('sdy.mesh @b = <["\\F2"=2]>', id="non-utf8-escape-in-axis-name-UnicodeEncodeError"),
])
def test_no_crash(text: str) -> None:
    check_one(text.encode())


@pytest.mark.parametrize("text", [
    pytest.param("s=", id="junk-accepted-as-op"),
    pytest.param("func.func @z(%0: tensor<f32>) -> tensor<f32> {\nfunc.#}", id="func-prefix-stripped-junk"),
    pytest.param("func.func@u()->e<>{\n%0=sdy.constant e<>:r<>\nfunc.r}", id="func.r-printed-as-r"),
    pytest.param('f{{{}{//#sdy.sharding_per_value<[<@h,[{""}]>]>}\n}(){}}}', id="comment-eats-newline"),
    pytest.param('f.c=""()({}){}', id="trailing-region-dropped"),
    pytest.param('f.r{A//#sdy.op_sharding_rule<([],[])->([]){i=2,j=3}>}\n}', id="comment-in-attr-dict-becomes-code"),
    pytest.param("y.h{//\nn,\xff}", id="comment-line-in-attr-dict"),
    pytest.param('y.s\n//#sdy.sharding_per_value<[<@m,[{""},{}]>]>\ng', id="comment-line-between-op-lines"),
    pytest.param('o.g{({[{""}]}){//"\n}{#sdy.propagat[{[{""[]}]}{[{[]}]}][[{""}{""}]]}}', id="quote-in-comment"),
    pytest.param("\nfulc.func,", id="comma-after-op-name-looks-like-attr-dict"),
    pytest.param("sd.me==sh==", id="double-equals-after-op-name-looks-like-attr-dict"),
    pytest.param('""', id="empty-generic-name"),
    pytest.param('"2^("', id="generic-name-without-operands"),
])
def test_print_reparses(text: str) -> None:
    """Input is either rejected with ParseError, or its print parses again."""
    try:
        m = shardy_py.parse(text)
    except shardy_py.ParseError:
        return
    shardy_py.parse(str(m))


@pytest.mark.parametrize("text", [
    pytest.param("c.s(){\n%0=y.r{}{}[]}", id="empty-attr-dicts-dropped-one-per-print"),
    pytest.param("f.c {}{} : i32", id="empty-braces-of-custom-op"),
])
def test_print_idempotent(text: str) -> None:
    printed = str(shardy_py.parse(text))
    assert str(shardy_py.parse(printed)) == printed


# Junk after a declared op's syntax was kept as text while StableHLO ops were not modelled; now the op's
# own syntax reads it and, as MLIR does, rejects it at the place it goes wrong.
@pytest.mark.parametrize(("text", "line", "column", "message"), [
    # (jaxlib 0.12: "expected ':'" is a wrong token, reported just after the text before it: 1:59)
    ("%0 = stablehlo.constant() {value = dense<1> : tensor<i32>} junk", 1, 59,
     "'stablehlo.constant': expected ':', found 'junk'"),
    ("x.y {\n  %0 = stablehlo.constant() {value = dense<1> : tensor<i32>} junk {value =sor 2}\n}", 2, 61,
     "'stablehlo.constant': expected ':', found 'junk {value =sor 2}'"),
    ("%0 = stablehlo.constant() {value = dense0:15>>\n  func.r: x\n  %1 = y.z= dense0:15>>\n  func,return\n}",
     1, 35, "expected attribute value"),  # (jaxlib 0.12's error and place: `dense0` starts no attribute)
])
def test_junk_after_a_declared_op_is_a_located_error(text, line, column, message) -> None:
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column, e.value.message) == (line, column, message)


# A '>' that closes nothing in an attribute value: MLIR's attribute dictionary expects its '}' there
# (with unregistered dialects allowed, as in these fuzz inputs, MLIR reports the token after the value).
# (The first input's value also holds `{""}`: an empty quoted name, which MLIR's attribute dictionary parser
# rejects first, "expected valid attribute name", as the attribute reader does now that values are read.)
@pytest.mark.parametrize(("text", "column", "message"), [
    pytest.param('x.g({[{}]}){e=[{""}{""}][{}{""}]>\n e}', 17, "expected valid attribute name",
                 id="multiline-opaque-op-with-stray-closer"),
    pytest.param('x.g({[{}]}){e=[{a}, {b}][{}]>\n e}', 25, "expected '}' in attribute dictionary",
                 id="multiline-opaque-op-with-a-value-after-the-value"),
    pytest.param("x.m {k = [1, 2]>, j = 1}", 16, "expected '}' in attribute dictionary",
                 id="stray-closer-in-attr-dict"),
])
def test_stray_closer_in_an_attribute_value_is_rejected(text: str, column: int, message: str) -> None:
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column, e.value.message) == (1, column, message)


def test_names_an_unknown_op_binds_twice_stay_as_written() -> None:
    # found by the atheris run with MLIR's verdict: the region-argument check met names an unknown op's
    # text binds (no location of their own) and raised AttributeError; such names stay unjudged
    text = ("x.f @main(%arg0: tensor<f32>) d(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
            "  %0 = x.g %arg0 : tensor<8xf32>\n}\n")
    assert "x.f @main(%arg1: tensor<f32>) d(%arg1: tensor<8xf32>) -> tensor<8xf32> {" in str(shardy_py.parse(text))


def test_constant_without_its_value_prints() -> None:
    # found by the atheris run with MLIR's verdict: printing a generic stablehlo.constant that lacks `value`
    # raised KeyError (MLIR's verifier rejects the op; its print still works)
    text = ('func.func @f() -> tensor<i32> {\n  %0 = "stablehlo.constant"() {valu = dense<1> : tensor<i32>} : '
            "() -> tensor<i32>\n  return %0 : tensor<i32>\n}\n")
    assert "valu = dense<1> : tensor<i32>" in str(shardy_py.parse(text))


def test_multiline_junk_attr_value_prints_parsable_text() -> None:
    data = (Path(__file__).parent / "data" / "fuzz" / "multiline_attr_value_print_does_not_reparse.in").read_bytes()
    check_one(data)


def test_percent_without_name_is_not_taken_for_a_name() -> None:
    """Op shapes are keyed by their text without SSA names; a bare ``%`` must not look like a cut name
    (it made an op take the recipe of another shape, with one name fewer: ValueError). MLIR's lexer
    rejects the bare ``%`` (jaxlib 0.12: "3:12: invalid SSA name"), as we now do."""
    text = ("func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = x.y %a {k = 1} : tensor<8xf32>\n"
            "  %1 = x.y % {k = 1} : tensor<8xf32>\n  return %a : tensor<8xf32>\n}\n")
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column, e.value.message) == (3, 12, "invalid SSA name")
    check_one(text.encode())


def test_empty_braces_of_unknown_custom_op_are_kept() -> None:
    """We cannot tell an unknown op's empty ``{}`` from its own syntax, so it prints as written."""
    assert str(shardy_py.parse("c.s(){\n%0=y.r{}{}[]}")) == "module {\n  c.s(){\n    %0 = y.r{}{}[]\n  }\n}\n"


def test_empty_attr_dict_of_generic_op_is_dropped() -> None:
    assert str(shardy_py.parse('"f.c"() {} : () -> ()')) == 'module {\n  "f.c"() : () -> ()\n}\n'


def test_comment_inside_op_is_dropped() -> None:
    text = "x.r {a = 1, // first\n b = 2}\n"
    assert str(shardy_py.parse(text)) == "module {\n  x.r {a = 1 : i64, b = 2 : i64}\n}\n"


def test_equals_after_op_name_is_located_error() -> None:
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse('f.c=""()')
    assert (e.value.line, e.value.column) == (1, 4)
    assert "results come before the name" in e.value.message


@pytest.mark.parametrize(("text", "column", "message"), [
    pytest.param("fulc.func, 3", 10, "unexpected ',' after the op name 'fulc.func'", id="comma"),
    pytest.param('""()', 1, "expected an op name in the generic form", id="empty-generic-name"),
    pytest.param('"x.y" : () -> ()', 6, "expected '(' to start operand list",
                 id="generic-without-operands"),
])
def test_malformed_op_head_is_located_error(text: str, column: int, message: str) -> None:
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column, e.value.message) == (1, column, message)


@pytest.mark.parametrize(("text", "line", "column"), [
    pytest.param('func.func @f() {\n  sdy.named_computation<"\\2">() () {\n    sdy.return\n  } : () -> ()\n}\n', 2, 26,
                 id="named-computation-name"),
    pytest.param('sdy.mesh @"\\x" = <["a"=2]>', 1, 12, id="mesh-symbol-name"),
    pytest.param('sdy.mesh @m = <["a\\q"=2]>', 1, 19, id="mesh-axis-name"),
    pytest.param('func.func @f(%a: tensor<8xf32> {"x\\y" = 1}) {\n return\n}', 1, 35, id="attribute-name"),
])
def test_bad_escape_is_located_parse_error(text: str, line: int, column: int) -> None:
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column) == (line, column)
    assert "unknown escape sequence" in e.value.message


def test_first_diagnostic_is_the_one_cpp_reports_first() -> None:
    """Found by the mutated-module differential test: the collective's out_sharding (phase O) is
    reported before the sharding_constraint's sharding (phase S), although it comes later."""
    from shardy_py.verify import verify

    text = ('sdy.mesh @mesh = <["x"=2]>\n'
            'func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
            '  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"z"}]> : tensor<8xf32>\n'
            '  %1 = sdy.all_gather [{}] %0 out_sharding=<@mesh, [{"z"}]> : tensor<8xf32>\n'
            '  return %1 : tensor<8xf32>\n}\n')
    assert [d.line for d in verify(shardy_py.parse(text))][0] == 4


def test_verify_stays_callable() -> None:
    m = shardy_py.parse('sdy.mesh @m = <["x"=2]>')
    assert shardy_py.verify(m) == []
    assert shardy_py.verify(m) == []  # second call: shardy_py.verify is now the subpackage


def test_fuzz_seed_inputs_hold() -> None:
    """Inputs near the findings that are handled correctly today."""
    for text in ["", "module {\n}", 'sdy.mesh @m = <["a"=2]>\n' * 3, "\x00\xff", "{" * 10_000, "<" * 10_000,
                 '#sdy.sharding<@m, [{"a":(2)4, ?}p1]>', 'sdy.mesh @m = <["\\0A"=2]>']:
        check_one(text.encode("utf-8", "surrogatepass"))


def _seconds(text: str) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        try:
            check_one(text.encode())
        except Exception:  # noqa: BLE001 - only the time matters here (known findings are tested above)
            pass
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize("unit", [
    pytest.param('  %{i} = sdy.sharding_constraint %arg0 <@m, [{{"x", ?}}p1, {{}}]> : tensor<8x8xf32>\n', id="ops"),
    pytest.param("{{", id="open-braces"),
    pytest.param('"a",', id="strings"),
])
def test_no_super_linear_input(unit: str) -> None:
    """Parse+print+verify time grows about linearly: 8x the input costs well under 64x the time."""
    def make(n: int) -> str:
        body = "".join(unit.format(i=i) for i in range(n))
        if unit.startswith("  %"):
            return ('sdy.mesh @m = <["x"=4]>\nfunc.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {\n'
                    + body + "  return %arg0 : tensor<8x8xf32>\n}\n")
        return body

    _seconds(make(10))  # warm-up (lazy imports, caches)
    small, large = _seconds(make(250)), _seconds(make(2000))
    assert large < 24 * max(small, 1e-3), (small, large)


def test_reduce_of_a_value_of_no_known_type_prints_its_written_type() -> None:
    # found by the 30-minute atheris run with MLIR's verdict: the compact reduce printed its operand types from the
    # values, and a value an unknown op defines with a type that does not read printed as 'None' (the finding's type
    # held a non-ASCII character, which MLIR's lexer, and now ours, rejects: here '|', a token)
    text = ("func.func @f(%a: tensor<8xf32>, %i: tensor<f32>) -> tensor<f32> {\n"
            "  %2 = x.y %a : tensor<8|f32>\n"
            "  %3 = stablehlo.reduce(%2 init: %i) applies stablehlo.add across dimensions = [0] : "
            "(tensor<8xf32>, tensor<f32>) -> tensor<f32>\n  return %3 : tensor<f32>\n}\n")
    printed = str(shardy_py.parse(text))
    assert ": (tensor<8xf32>, tensor<f32>) -> tensor<f32>" in printed
    assert str(shardy_py.parse(printed)) == printed


@pytest.mark.parametrize(("text", "column", "message"), [
    pytest.param("!unc.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n  return %arg0 : tensor<2xf32>\n}\n",
                 1, "type names with a '.' are reserved for dialect-defined names", id="type-name-with-dot"),
    pytest.param("#unc.func @f", 1, "attribute names with a '.' are reserved for dialect-defined names",
                 id="attribute-name-with-dot"),
    pytest.param("#unc @f", 5, "expected '=' in attribute alias definition", id="attribute-without-equals"),
    pytest.param("!a\n", 3, "expected '=' in type alias definition", id="type-alone"),
    pytest.param('#loc1 loc("x")', 6, "expected '=' in attribute alias definition", id="location-without-equals"),
])
def test_top_level_hash_or_bang_is_an_alias_definition(text: str, column: int, message: str) -> None:
    """At the top level MLIR reads ``#name``/``!name`` as an alias definition only (jaxlib 0.12's
    errors and columns); the mutant ``!unc.func @f(...) {...}`` was kept as preamble text and accepted
    (found by the 30-minute atheris run with MLIR's verdict)."""
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column, e.value.message) == (1, column, message)


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    pytest.param("d.m3bg0\ufffd1\n", 1, 8, "unexpected character", id="unknown-op-non-ascii"),
    pytest.param("x.y & 1\n", 1, 5, "unexpected character", id="unknown-op-ampersand"),
    pytest.param("x.y 'a'\n", 1, 5, "unexpected character", id="unknown-op-quote"),
    pytest.param("x.y $a\n", 1, 5, "unexpected character", id="unknown-op-dollar"),
    pytest.param("x.y %\n", 1, 5, "invalid SSA name", id="unknown-op-percent"),
    pytest.param("x.y ^ 3\n", 1, 5, "invalid block name", id="unknown-op-caret"),
    pytest.param("x.y @1\n", 1, 6, "@ identifier expected to start with letter or '_'", id="unknown-op-at"),
    pytest.param("x.y ({^bb0: x.z \ufffd})\n", 1, 17, "unexpected character", id="unknown-op-in-a-region"),
    pytest.param("func.func @f(%a: tensor<f32>) -> tensor<f32> {\n  %0 = stablehlo.add %a,\x1d%a : tensor<f32>\n"
                 "  return %0 : tensor<f32>\n}\n", 2, 25, "unexpected character", id="python-white-space"),
    pytest.param("func.func @f(%a: tensor<f32>) -> tensor<f32> {\n  %0 = stablehlo.add %a,\xa0%a : tensor<f32>\n"
                 "  return %0 : tensor<f32>\n}\n", 2, 25, "unexpected character", id="non-ascii-space"),
    pytest.param("func.func @f(%a\u00e9: tensor<f32>) -> tensor<f32> {\n  return %a\u00e9 : tensor<f32>\n}\n", 1, 16,
                 "unexpected character", id="python-letter"),
])
def test_what_mlir_lexes_as_no_token_is_rejected(text: str, line: int, column: int, message: str) -> None:
    """jaxlib 0.12's lexer errors (its lines, columns and messages) for text MLIR lexes as no token: in
    the text of an op we keep as written, and anywhere for what Python reads as white space or a letter
    (found by the 30-minute atheris run with MLIR's verdict)."""
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column, e.value.message) == (line, column, message)


@pytest.mark.parametrize("text", [
    'x.y #foo<a/b & "\u00e9"> !bar.t<&> "\u00e9" %a$b @c$d\n',
    'func.func @f(%a: tensor<f32>) -> tensor<f32> {\n  %0 = stablehlo.add %a, %a : tensor<f32> loc("\u00e9/\x1d")\n'
    '  return %0 : tensor<f32>\n}\n',
])
def test_what_mlir_lexes_as_a_token_or_reads_as_a_body_parses(text: str) -> None:
    """Strings, dialect attribute and type bodies (read character by character) and identifiers with '$'."""
    shardy_py.parse(text)


@pytest.mark.parametrize(("value", "column", "message"), [
    pytest.param("dense<[1, 7&&6, 3]> : tensor<3xi32>", 32, "expected ']' to close the tensor literal list, found '&'",
                 id="junk-in-the-list"),  # (jaxlib 0.12: "unexpected character", at the same place)
    pytest.param("dense<0. 00000e+00> : tensor<f32>", 29, "expected '>' to close the dense elements literal, found '0'",
                 id="split-float"),
    pytest.param("dense<[1, 2]> : tensor<3xi32>", 21,
                 "inferred shape of elements literal ([2]) does not match type ([3])", id="shape"),
    pytest.param("dense<1.5> : tensor<3xi32>", 27, "expected integer elements, but parsed floating-point",
                 id="element-type"),
])
def test_sdy_constant_reads_its_value_as_mlir_does(value: str, column: int, message: str) -> None:
    """``sdy.constant``'s elements literal read as ``stablehlo.constant``'s (jaxlib 0.12's lines and
    columns; found by the 30-minute atheris run with MLIR's verdict)."""
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(f"func.func @f() -> tensor<3xi32> {{\n  %0 = sdy.constant {value}\n"
                        "  return %0 : tensor<3xi32>\n}\n")
    assert (e.value.line, e.value.column, e.value.message) == (2, column, message)


@pytest.mark.parametrize(("text", "line", "column"), [
    pytest.param('sdy.mesh @mesh7 = <["x"=16, "y"=2\\>\n', 1, 34, id="in-an-op-the-scanner-cannot-close"),
    pytest.param('func.func @f(%a: tensor<2xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"\\}]>}) {\n  return\n}\n',
                 1, 71, id="in-a-registered-dialect-attribute"),
])
def test_a_character_mlir_lexes_as_no_token_is_the_first_error(text: str, line: int, column: int) -> None:
    """On the error path the whole text is read as MLIR's lexer reads it (the bodies of attributes of the
    dialects jaxlib registers too): the first such character is MLIR's error when the parser gets there
    first (the scanner's unclosed '<' was reported 100 lines later; found by the atheris run)."""
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column) == (line, column)
    assert e.value.message.startswith("unexpected character")


def test_a_comment_ends_at_a_carriage_return() -> None:
    """MLIR's lexer ends a ``//`` comment at '\\r' as at '\\n': what follows is text to parse."""
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse("func.func @f() {\n  // expected\rerror @+1 {{x}}\n  return\n}\n")
    assert e.value.line == 2
    shardy_py.parse("func.func @f() {\n  // a comment\r\n  return\n}\n")


def test_an_alias_value_with_a_hash_inside_a_word_is_still_read() -> None:
    """``#0 = stable2 st#abl>``: the ``#abl`` inside ``st#abl`` is no alias use, so the value is read at its
    definition and fails there as in MLIR (the 30-minute atheris session with MLIR's verdict: it was taken for
    a value written with aliases, left unread, and the module accepted; jaxlib 0.12: 2:7 'expected attribute
    value')."""
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse("// -\n  #0 = stable2 st#abl>\ns\n")
    assert (e.value.line, e.value.column) == (2, 7)
    assert e.value.message.startswith("expected attribute value")


def test_cached_attribute_errors_hold_no_frames() -> None:
    """The memoised outcome of a bad attribute is a fresh error without a traceback, and raising it raises a
    copy: a cached error holding the failed call's frames kept every parse around it alive (the 30-minute
    atheris session grew past 4 GB and stopped)."""
    from shardy_py.syntax import attr_reader, sdy_parser

    for text in ("#sdy.sharding<@m, [{\"a\"}p01]>", "dense<[1, 2> : tensor<2xi32>"):
        with pytest.raises(shardy_py.ParseError):
            shardy_py.parse_attribute(text)
    _, err = sdy_parser._parse_cached("#sdy.sharding<@m, [{\"a\"}p01]>", "attribute")
    assert err is not None and err.__traceback__ is None
    _, err = attr_reader._cached_attribute("dense<[1, 2> : tensor<2xi32>")
    assert err is not None and err.__traceback__ is None


def test_a_dot_that_starts_no_token_after_an_unknown_op_is_the_lexers_ellipsis_error() -> None:
    """The 30-minute atheris run (mlir-verdict-261f5a91dd36): an unknown dialect's op kept as written took
    the next lines, a '.sdy.mesh ...' among them, as its own text; MLIR's lexer meets the lone '.' first."""
    text = 'sdy.mesh @mesh = <["x"=1]>\nfun.fucnc\n\n.sdy.mesh @m2 = <["a"=2]>\n'
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column, e.value.message) == (4, 2, "expected three consecutive dots for an ellipsis")


def test_dots_of_identifiers_numbers_and_ellipses_are_no_lexer_error() -> None:
    from shardy_py.syntax.lexer_check import first_lexer_error

    text = 'foo.bar %a.b 1.5 ... x.y.z "a . b" #d.e<f . g>'
    assert first_lexer_error(text, 0, len(text)) is None


_SPLIT_AFTER_EQUALS = ("func.func @main(%arg1: tensor<f32>) -> tensor<f32> {{\n"
                       "  %0 = stablehlo.add %arg1, %arg1 : tensor<f32>\n{rest}}}\n")


@pytest.mark.parametrize("rest", [
    "  %1 =\n    stablehlo.abs %0 : tensor<f32>\n  return %1 : tensor<f32>\n",
    "  %1 =\n\n  // the op below\n  stablehlo.abs %0 : tensor<f32>\n  return %1 : tensor<f32>\n",
    '  %1 =\n  "stablehlo.abs"(%0) : (tensor<f32>) -> tensor<f32>\n  return %1 : tensor<f32>\n',
])
def test_an_op_whose_name_is_on_the_line_after_its_results_is_read(rest: str) -> None:
    """`.ci/fuzz` at d1f6224 (mlir-verdict-0fff0b3a34ef): jaxlib 0.12 reads `%1 =` then the op on the next line;
    the scanner ended the op at the line break (3:7 'expected operation name in quotes': valid IR rejected)."""
    module = shardy_py.parse(_SPLIT_AFTER_EQUALS.format(rest=rest))
    assert shardy_py.verify(module) == []
    assert "    %1 = stablehlo.abs %0 : tensor<f32>\n" in str(module)


@pytest.mark.parametrize(("rest", "expected"), [
    ("  %1 =\n", (3, 7, "expected operation name in quotes")),
    ("  %1 =\n  %2 = stablehlo.abs %0 : tensor<f32>\n  return %0 : tensor<f32>\n",
     (3, 7, "expected operation name in quotes")),
    ("  %1, %2 =\n  stablehlo.abs %0 : tensor<f32>\n  return %0 : tensor<f32>\n",
     (3, 3, "operation defines 1 results but was provided 2 to bind")),
    ("  %1 = \n  return %0 : tensor<f32>\n", (3, 3, "cannot name an operation with no results")),
])
def test_results_with_no_op_after_them_fail_where_mlir_fails(rest: str, expected: tuple) -> None:
    """jaxlib 0.12's line, column and message for each."""
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(_SPLIT_AFTER_EQUALS.format(rest=rest))
    assert (e.value.line, e.value.column, e.value.message) == expected


_DIALECT_DOT_ATTR = ("func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> attributes {{x = {value}}} {{\n"
                     "  return %a : tensor<8xf32>\n}}\n")


@pytest.mark.parametrize("text", [
    pytest.param("#qd=!c.", id="alias-of-a-type-with-an-empty-name"),
    pytest.param("func.func @f(%a: !c.) -> !c. {\n  return %a : !c.\n}\n", id="type-with-an-empty-name"),
    pytest.param(_DIALECT_DOT_ATTR.format(value="#c."), id="attribute-with-an-empty-name"),
])
def test_a_dialect_name_with_nothing_after_its_dot_is_valid(text: str) -> None:
    """atheris at 67070dc (mlir-verdict-67c15b2086e2): `!c.` is one token to MLIR's lexer (an identifier may end
    in '.'), an opaque type of dialect `c` with an empty name, which jaxlib 0.12 accepts; we stopped the name at
    `!c` ("unexpected '.' after the value of alias #qd")."""
    assert shardy_py.verify(shardy_py.parse(text)) == []


@pytest.mark.parametrize(("value", "column"), [("#sdy.", 71), ("#sdy. ", 72), ("[#sdy., 1]", 72)])
def test_an_sdy_attribute_with_nothing_after_its_dot_is_an_error(value: str, column: int) -> None:
    """The sdy dialect's parser wants a keyword after `#sdy.` (jaxlib 0.12: "expected valid keyword" there)."""
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(_DIALECT_DOT_ATTR.format(value=value))
    assert (e.value.line, e.value.column, e.value.message) == (1, column, "expected valid keyword")


def test_a_return_of_an_unknown_op_s_result_prints_its_own_written_type() -> None:
    """atheris at 80c117b (crash-65e19f4e5b99: "fast paths print otherwise than the full parse"): the printer's
    template cache keyed `return %0` by its operand's type, None for a result of an unknown op, and printed the
    written type of another module's `return` of the same shape."""
    first = 'func.func @f() -> tensor<8xf32> {\n  %0 = foo.op <k>\n  return %0 : tensor<8xf32>\n}\n'
    second = 'func.func @g() -> tensor<2xi32> {\n  %0 = foo.op <k>\n  return %0 : tensor<2xi32>\n}\n'
    assert "return %0 : tensor<8xf32>" in str(shardy_py.parse(first))
    assert "return %0 : tensor<2xi32>" in str(shardy_py.parse(second))


_SPLIT_TYPE = ("func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {{\n  %0 = {op}\n"
               "  return %0 : tensor<2xf32>\n}}\n")


@pytest.mark.parametrize("text", [
    pytest.param(_SPLIT_TYPE.format(op="stablehlo.add %arg0, %arg0 : tensor\n<2xf32>"), id="op-type"),
    pytest.param(_SPLIT_TYPE.format(op="stablehlo.add %arg0, %arg0 : tensor   \n   <2xf32>"), id="blanks-around"),
    pytest.param(_SPLIT_TYPE.format(op="stablehlo.abs %arg0 : (tensor\n<2xf32>) -> tensor<2xf32>"), id="function-type"),
    pytest.param(_SPLIT_TYPE.format(op='"stablehlo.abs"(%arg0) : (tensor<2xf32>) -> tensor\n<2xf32>'), id="generic"),
    pytest.param("func.func @main(%arg0: tensor\n<2xf32>) -> tensor<2xf32> {\n  return %arg0 : tensor<2xf32>\n}\n",
                 id="signature"),
    pytest.param("func.func @main(%arg0: vector\n<2xf32>) -> vector<2xf32> {\n  return %arg0 : vector<2xf32>\n}\n",
                 id="vector"),
    pytest.param('sdy.mesh @m = <["x"=2]>\n' + _SPLIT_TYPE.format(op="sdy.reshard %arg0 <@m, [{?}]> : tensor\n<2xf32>"),
                 id="sdy-op"),
])
def test_a_builtin_type_s_angle_bracket_may_follow_on_the_next_line(text: str) -> None:
    """atheris at 80c117b (mlir-verdict-3db81313a513): `: tensor` at a line's end and `<2xf32>` on the next is one
    type to MLIR (its '<' is a token of its own); we said "expected '<' in tensor type". Prints as jaxlib 0.12."""
    module = shardy_py.parse(text)
    assert shardy_py.verify(module) == []
    assert "tensor\n" not in str(module) and "vector\n" not in str(module)
    assert str(module) == cpp(text, "builtin.module()")


def test_kept_text_keeps_a_result_number_of_a_renamed_value() -> None:
    """atheris at beb5250 (crash-2b3c7c10c312, 6 inputs): an unknown op's kept text naming `%zer#0` printed it as
    `%arg1`; `%arg1=` at a line's start then read as another op's results, and the print did not parse."""
    text = ('fun.cfug_on_token(%arg0: !stablehlo.token) -> a\n'
            '  %zer#0=  orrding_on_token(%arg5: !stablehlo.token) -> b {\n}\n')
    printed = str(shardy_py.parse(text))
    assert "%arg1#0=" in printed
    assert str(shardy_py.parse(printed)) == printed


@pytest.mark.parametrize(("text", "expected"), [
    ("#0abc = unit\n", (1, 3, "expected '=' in attribute alias definition")),
    ("  #0qqq =unit\n", (1, 5, "expected '=' in attribute alias definition")),
    ("!12ab = i32\n", (1, 4, "expected '=' in type alias definition")),
])
def test_an_alias_name_led_by_digits_is_digits_only(text: str, expected: tuple) -> None:
    """atheris at beb5250 (mlir-verdict-8e2f0e48b3f4): MLIR's lexer reads `#0abc` as the alias `#0` and a word;
    jaxlib 0.12's error is at the word (we accepted the definition)."""
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column, e.value.message) == expected


def test_an_alias_name_of_digits_is_valid() -> None:
    assert shardy_py.verify(shardy_py.parse("#7 = unit\nfunc.func @f() attributes {x = #7} {\n  return\n}\n")) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("func.func @f() -> tensor<*xf74>\n", (1, 28, "expected non-function type")),
    ("func.func @f(%a: tensor<*xf74>) -> tensor<*xf32>\n", (1, 27, "expected non-function type")),
])
def test_an_unranked_tensor_of_no_element_type_is_an_error(text: str, expected: tuple) -> None:
    """`.ci/fuzz` at 19d0320 (mlir-verdict, 2 inputs): `tensor<*xf74>` was accepted (the lenient type reader kept
    it as an unranked tensor and the strict one was not asked); jaxlib 0.12's error is at `f74`."""
    with pytest.raises(shardy_py.ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column, e.value.message) == expected


def test_an_unranked_tensor_of_an_element_type_is_valid() -> None:
    text = "func.func @f(%a: tensor<*xf32>) -> tensor<*xf32> {\n  return %a : tensor<*xf32>\n}\n"
    assert shardy_py.verify(shardy_py.parse(text)) == []
