"""StableHLO's dimension-number and window syntax (``StablehloOps.cpp``): the ``ConvolutionDimensions``
and ``WindowAttributes`` custom directives and the ``#stablehlo.conv<...>`` model they share.

``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`` is read into a ``ConvDimensionNumbers`` (as
``parseConvolutionDimensions`` reads it, with its error messages) and stored as the attribute
``#stablehlo.conv<...>``; printing reads the stored attribute back (pretty or ``raw`` form) and
writes it as ``printConvolutionDimensions`` does.
"""
from __future__ import annotations

import re

import attrs

from shardy_py.dialects.attr_codecs import i64_array, int_list, ints_of
from shardy_py.ir import attrs as A
from shardy_py.syntax.cursor import Cursor
from shardy_py.syntax.dense import canonical_dense_elements
from shardy_py.syntax.format import PrintGeneric, directive

_INT = re.compile(r"-?\d+")
_WORD = re.compile(r"[A-Za-z_][\w$.]*")
_BOOL_OR_INT = re.compile(r"-?\d+|(?:true|false)(?![\w$.])")


class TextCursor(Cursor):
    """A ``syntax.cursor.Cursor`` over a plain string (a stored attribute's text), so one reader
    serves an op's text and an attribute's."""

    def __init__(self, text: str, pos: int = 0):
        self.text, self.pos, self.end = text, pos, len(text)

    def found(self) -> str:
        self.ws()
        return repr(self.text[self.pos:self.pos + 20]) if self.pos < self.end else "the end"

    def error(self, message: str, offset: int | None = None) -> ValueError:
        return ValueError(f"{message} (at offset {self.pos if offset is None else offset} of {self.text!r})")


# -- convolution dimension numbers --------------------------------------------------------------
#: The raw form's keys, in ``ConvDimensionNumbersAttr``'s parameter order.
CONV_FIELDS = ("input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
               "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions",
               "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions")
#: Per dimension list (input, kernel, output): its prefix and its two non-spatial letters.
_CONV_GROUPS = (("input", ("b", "f"), ("batch", "feature")),
                ("kernel", ("i", "o"), ("input_feature", "output_feature")),
                ("output", ("b", "f"), ("batch", "feature")))


@attrs.frozen
class ConvDimensionNumbers:
    """``ConvDimensionNumbersAttr``'s parameters, by raw-form key (integers and tuples)."""

    fields: tuple[tuple[str, object], ...]

    def get(self, key: str):
        return dict(self.fields).get(key, () if key.endswith("s") else 0)

    def pretty(self) -> str:
        """``printConvolutionDimensions``: ``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]``."""
        parts = []
        for prefix, letters, names in _CONV_GROUPS:
            spatial = self.get(f"{prefix}_spatial_dimensions")
            dims: list[str | None] = [None] * (len(spatial) + 2)
            for letter, name in zip(letters, names, strict=True):
                at = self.get(f"{prefix}_{name}_dimension")
                if not 0 <= at < len(dims):
                    raise ValueError("Invalid non-spatial dimension.")
                dims[at] = letter
            for i, at in enumerate(spatial):
                if not 0 <= at < len(dims):
                    raise ValueError("Invalid spatial dimension.")
                dims[at] = str(i)
            parts.append("[" + ", ".join(d if d is not None else "0" for d in dims) + "]")
        return f"{parts[0]}x{parts[1]}->{parts[2]}"

    def compact_form_holds(self) -> bool:
        """Whether ``pretty`` can say these numbers: per list, the two letters and the spatial dimensions are
        distinct and cover ``0..rank-1``."""
        for prefix, _, names in _CONV_GROUPS:
            dims = [*(self.get(f"{prefix}_{n}_dimension") for n in names), *self.get(f"{prefix}_spatial_dimensions")]
            if sorted(dims) != list(range(len(dims))):
                return False
        return True

    def attr(self) -> A.OpaqueAttr:
        """The stored attribute ``#stablehlo.conv<...>``; numbers the compact form cannot say (which the op's
        verifier rejects) are kept in the raw form, as written."""
        if not self.compact_form_holds():
            fields = ", ".join(f"{k} = " + (f"[{', '.join(map(str, v))}]" if isinstance(v, tuple) else str(v))
                               for k in CONV_FIELDS for v in (self.get(k),))
            return A.OpaqueAttr(f"#stablehlo.conv<raw {fields}>")
        return A.OpaqueAttr(f"#stablehlo.conv<{self.pretty()}>")


def _conv_dim_list(cur, letters: tuple[str, str]) -> tuple[list[int], dict[str, int]]:
    """One ``[b, 0, 1, f]``: the spatial dimensions' positions (by spatial index) and the letters'."""
    cur.expect("[", "'['")
    allowed = list(letters)
    spatial_at: dict[int, int] = {}
    letter_at: dict[str, int] = {}
    index = 0
    while True:
        cur.ws()
        at = cur.pos
        m = cur.match(_INT)
        if m:
            dim = int(m.group())
            if dim < 0:
                raise cur.error(f"Unexpected dimension {dim}", at)
            if dim in spatial_at:
                raise cur.error(f"Duplicate entries for spatial dimension {dim}", at)
            spatial_at[dim] = index
        else:
            w = cur.match(_WORD)
            if not w:
                raise cur.error(f"expected a dimension, found {cur.found()}", at)
            word = w.group()
            if len(word) != 1 or not allowed:
                raise cur.error(f"Unexpected keyword {word}", at)
            if word not in allowed:
                raise cur.error(f"Unexpected dimension {word}, expecting {', '.join(allowed)}", at)
            allowed.remove(word)
            letter_at[word] = index
        index += 1
        if not cur.accept(","):
            break
    if allowed:
        cur.ws()
        raise cur.error(f"Expected dimensions {', '.join(allowed)} not specified")
    cur.expect("]", "']'")
    count = max(spatial_at, default=-1) + 1
    missing = [d for d in range(count) if d not in spatial_at][:10]
    if missing:
        cur.ws()
        raise cur.error(f"Expected spatial dimensions {', '.join(map(str, missing))} not specified")
    return [spatial_at[d] for d in range(count)], letter_at


def parse_conv_dims(cur) -> ConvDimensionNumbers:
    """``parseConvolutionDimensions``: ``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`` at the cursor."""
    fields: list[tuple[str, object]] = []
    for n, (prefix, letters, names) in enumerate(_CONV_GROUPS):
        if n == 1:
            if not cur.match(re.compile(r"x(?![\w$.])")):
                raise cur.error(f"expected 'x', found {cur.found()}")
        elif n == 2:
            cur.expect("->", "'->'")
        spatial, letter_at = _conv_dim_list(cur, letters)
        for letter, name in zip(letters, names, strict=True):
            fields.append((f"{prefix}_{name}_dimension", letter_at[letter]))
        fields.append((f"{prefix}_spatial_dimensions", tuple(spatial)))
    return ConvDimensionNumbers(tuple(sorted(fields, key=lambda f: CONV_FIELDS.index(f[0]))))


def parse_conv_raw(cur) -> ConvDimensionNumbers:
    """``parseConvolutionDimensionsRaw``: ``key = value, ...`` up to the closing ``>`` (taken)."""
    fields: dict[str, object] = {}
    while not cur.accept(">"):
        w = cur.match(_WORD)
        if not w or w.group() not in CONV_FIELDS:
            raise cur.error("expected one of: " + ", ".join(f"`{k}`" for k in CONV_FIELDS))
        key = w.group()
        if key in fields:
            raise cur.error(f"duplicated `{key}` entry")
        cur.expect("=", "'='")
        if key.endswith("s"):
            fields[key] = tuple(int_list(cur))
        else:
            m = cur.match(_INT)
            if not m:
                raise cur.error(f"expected an integer, found {cur.found()}")
            fields[key] = int(m.group())
        if not cur.accept(","):
            cur.expect(">", "'>'")
            break
    return ConvDimensionNumbers(tuple((k, fields[k]) for k in CONV_FIELDS if k in fields))


def conv_dims_of(attr) -> ConvDimensionNumbers:
    """The dimension numbers a stored ``#stablehlo.conv<...>`` holds (pretty or raw form)."""
    text = str(attr)
    head = "#stablehlo.conv<"
    if not text.startswith(head):
        raise ValueError(f"not a convolution dimension numbers attribute: {text}")
    cur = TextCursor(text, len(head))
    if cur.match(re.compile(r"raw(?![\w$.])")):
        return parse_conv_raw(cur)
    return parse_conv_dims(cur)


def canonical_conv_attr(text: str) -> str:
    """MLIR's print of a ``#stablehlo.conv<...>`` attribute written in either form."""
    return conv_dims_of(A.OpaqueAttr(text)).attr().text


@directive("ConvolutionDimensions")
class ConvolutionDimensions:
    """``custom<ConvolutionDimensions>($dimension_numbers)``."""

    @staticmethod
    def parse(cur, state, target) -> None:
        state.set_attr(target, parse_conv_dims(cur).attr())

    @staticmethod
    def print(out, op, target) -> None:
        try:
            dims = conv_dims_of(target)
            if not dims.compact_form_holds():
                raise ValueError("numbers the compact form cannot say")
            out.write(dims.pretty())
        except ValueError:
            # numbers the compact form cannot show (the C++ aborts): the op prints in generic form,
            # which keeps the attribute as written and reads back
            raise PrintGeneric from None


# -- window attributes --------------------------------------------------------------------------
#: (attribute, keyword) in ``printWindowAttributes``'s order.
WINDOW_KEYS = (("window_strides", "stride"), ("padding", "pad"), ("lhs_dilation", "lhs_dilate"),
               ("rhs_dilation", "rhs_dilate"), ("window_reversal", "reverse"))


def padding_attr(rows: list[list[int]]) -> A.OpaqueAttr:
    """The ``I64ElementsAttr`` of an Nx2 padding, as MLIR prints it (splat when all equal)."""
    flat = ", ".join("[" + ", ".join(map(str, r)) + "]" for r in rows)
    type_text = f"tensor<{len(rows)}x2xi64>"
    body = canonical_dense_elements(f"[{flat}]", type_text) or f"dense<[{flat}]>"
    return A.OpaqueAttr(f"{body} : {type_text}")


def padding_rows(attr) -> list[tuple[int, int]]:
    """The (low, high) pairs of a stored Nx2 padding (a splat repeated to its shape)."""
    body, _, type_text = str(attr).partition(" : ")
    nums = ints_of(body)
    m = re.match(r"tensor<(\d+)x2x", type_text)
    rows = int(m.group(1)) if m else len(nums) // 2
    if len(nums) == 1:
        nums = nums * (2 * rows)
    return [(nums[i], nums[i + 1]) for i in range(0, len(nums) - 1, 2)]


def _bool_words(cur) -> list[str]:
    """``[1, 0]`` or ``[true, false]`` as ``true``/``false`` (non-zero is true)."""
    cur.expect("[", "'[' and a list")
    out: list[str] = []
    while not cur.accept("]"):
        if out:
            cur.expect(",", "',' or ']'")
        m = cur.match(_BOOL_OR_INT)
        if not m:
            raise cur.error(f"expected an integer, found {cur.found()}")
        word = m.group()
        out.append(word if word in ("true", "false") else ("true" if int(word) else "false"))
    return out


def _pad_rows(cur) -> list[list[int]]:
    cur.expect("[", "'[' and the padding")
    rows: list[list[int]] = []
    while not cur.accept("]"):
        if rows:
            cur.expect(",", "',' or ']'")
        row = int_list(cur)
        if len(row) != 2:
            raise cur.error(f"Expected array with 2 elements, got {len(row)} elements instead")
        rows.append(row)
    return rows


@directive("WindowAttributes")
class WindowAttributes:
    """``custom<WindowAttributes>($window_strides, $padding, $lhs_dilation, $rhs_dilation,
    $window_reversal)``: ``stride = [...], pad = [[lo, hi], ...], ...``, each at most once."""

    @staticmethod
    def parse(cur, state, *targets) -> None:
        by_word = {word: t for (_, word), t in zip(WINDOW_KEYS, targets, strict=True)}
        while True:
            m = cur.match(_WORD)
            if not m:
                return
            word = m.group()
            if word not in by_word:  # (MLIR: at the token after the keyword, the next line's too)
                raise cur.error(f"Unexpected keyword {word}", cur.p.scanner.skip_ws(m.end()))
            cur.expect("=", "'='")
            if word == "pad":
                attr = padding_attr(_pad_rows(cur))
            elif word == "reverse":
                words = _bool_words(cur)
                attr = A.OpaqueAttr("array<i1: " + ", ".join(words) + ">" if words else "array<i1>")
            else:
                attr = i64_array(int_list(cur))
            state.set_attr(by_word.pop(word), attr)
            if not cur.accept(","):
                return

    @staticmethod
    def print(out, op, *values) -> None:
        parts = []
        for (_, word), v in zip(WINDOW_KEYS, values, strict=True):
            if v is None:
                continue
            if word == "pad":
                if not re.search(r":\s*tensor<\d+x2xi64>\s*$", str(v)):
                    raise PrintGeneric  # a padding not Nx2 (the verifier rejects it): kept as written
                body = ", ".join(f"[{lo}, {hi}]" for lo, hi in padding_rows(v))
            elif word == "reverse":
                body = ", ".join(re.findall(r"true|false", str(v)))
            else:
                body = ", ".join(map(str, ints_of(v)))
            parts.append(f"{word} = [{body}]")
        out.write(", ".join(parts))
