"""A readable view of an op sharding rule (``#sdy.op_sharding_rule<...>``), for terminals and notebooks.

A rule names factors ``i, j, k, ...`` and maps every dimension of every operand and result to
some of them.  The view lists the tensors (with the op's value names and types when an op is
given) and, per factor, its size, its kind and every tensor dimension it maps::

    >>> import shardy_py
    >>> text = "#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}>"
    >>> print(describe(shardy_py.parse_attribute(text)))
    #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}>
      tensor     dims
      operand 0  [i, k]
      operand 1  [k, j]
      result 0   [i, j]
      factor  size  kind          dimensions
      i          8  pass-through  operand 0 dim 0, result 0 dim 0
      j         16  pass-through  operand 1 dim 1, result 0 dim 1
      k          4  reduction     operand 0 dim 1, operand 1 dim 0
      custom rule: no

``RuleView(rule, op)`` prints the same text and draws itself as an HTML table in notebooks.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from shardy_py.ir.attrs import OpShardingRuleAttr, TensorMappingAttr
from shardy_py.ir.ops import Operation
from shardy_py.show.palette import nth_colour, text_colour
from shardy_py.syntax.attr_printer import factor_symbol, print_attr, tensor_mapping

PASS_THROUGH = "pass-through"
REDUCTION = "reduction"
NEED_REPLICATION = "need-replication"
PERMUTATION = "permutation"
BLOCKED = "blocked propagation"

_FONT = "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px"
_CELL = "padding:1px 8px;text-align:left;border-bottom:1px solid #d0d7de"
_NOTE = "color:#57606a;margin:2px 0"


@dataclass(frozen=True)
class TensorEntry:
    """One operand or result of the rule: ``kind`` is ``"operand"`` or ``"result"``; ``name`` and
    ``type`` are the op's value name and type text (empty without an op)."""

    kind: str
    index: int
    mapping: TensorMappingAttr
    name: str = ""
    type: str = ""

    @property
    def label(self) -> str:
        """``operand 0``, ``result 1``."""
        return f"{self.kind} {self.index}"


@dataclass(frozen=True)
class DimPlace:
    """Where a factor sits: dimension ``dim`` of ``tensor``, as factor ``position`` (0 = major)
    of the ``count`` factors that dimension is split into."""

    tensor: TensorEntry
    dim: int
    position: int
    count: int

    def text(self) -> str:
        """``operand 0 dim 1``, or ``result 0 dim 0 (factor 2 of 3)`` for a dimension of several factors."""
        out = f"{self.tensor.label} dim {self.dim}"
        if self.count > 1:
            out += f" (factor {self.position + 1} of {self.count})"
        return out


@dataclass(frozen=True)
class FactorEntry:
    """One factor: its symbol (``i``), size, kind, whether propagation is blocked along it, and the
    tensor dimensions it maps (operands first, then results)."""

    index: int
    symbol: str
    size: int | None
    kind: str
    blocked: bool
    places: tuple[DimPlace, ...]

    @property
    def kind_text(self) -> str:
        """The kind, with ``+ blocked propagation`` when propagation along the factor is blocked."""
        return f"{self.kind} + {BLOCKED}" if self.blocked else self.kind

    @property
    def places_text(self) -> str:
        """Every dimension the factor maps, or a note that it maps none."""
        return ", ".join(p.text() for p in self.places) or "no dimension"


def factor_kind(rule: OpShardingRuleAttr, index: int) -> str:
    """The kind of factor ``index``: reduction, need-replication, permutation, else pass-through
    (blocked propagation is orthogonal to the kind: see ``is_blocked``)."""
    if index in rule.reduction_factors:
        return REDUCTION
    if index in rule.need_replication_factors:
        return NEED_REPLICATION
    if index in rule.permutation_factors:
        return PERMUTATION
    return PASS_THROUGH


def is_blocked(rule: OpShardingRuleAttr, index: int) -> bool:
    """Whether shardings may not propagate along factor ``index``."""
    return index in rule.blocked_propagation_factors


def _value_text(values, i: int, names: list[str] | None = None) -> tuple[str, str]:
    value = values[i] if i < len(values) else None
    name = value.name if value is not None and value.name else (names[i] if names and i < len(names) else "")
    type_ = value.type if value is not None else None
    return name or "", str(type_) if type_ is not None else ""


def tensor_entries(rule: OpShardingRuleAttr, op: Operation | None = None) -> list[TensorEntry]:
    """The rule's operands then results, named and typed from ``op`` when given."""
    out = []
    for kind, mappings in (("operand", rule.operand_mappings), ("result", rule.result_mappings)):
        for i, mapping in enumerate(mappings):
            name = type_ = ""
            if op is not None:
                if kind == "operand":
                    name, type_ = _value_text(op.operands, i, op.operand_names)
                    if not type_ and i < len(op.operand_types):
                        type_ = str(op.operand_types[i])
                else:
                    name, type_ = _value_text(op.results, i)
            out.append(TensorEntry(kind, i, mapping, name, type_))
    return out


def factor_entries(rule: OpShardingRuleAttr, tensors: list[TensorEntry]) -> list[FactorEntry]:
    """One entry per factor, in index order (including factors named only in a kind list)."""
    places: dict[int, list[DimPlace]] = {}
    for tensor in tensors:
        for dim, dm in enumerate(tensor.mapping.dim_mappings):
            for position, k in enumerate(dm.factor_indices):
                places.setdefault(k, []).append(DimPlace(tensor, dim, position, len(dm.factor_indices)))
    named = set(places).union(rule.reduction_factors, rule.need_replication_factors, rule.permutation_factors,
                              rule.blocked_propagation_factors)
    count = max([len(rule.factor_sizes), *(k + 1 for k in named)])
    return [FactorEntry(k, factor_symbol(k), rule.factor_sizes[k] if k < len(rule.factor_sizes) else None,
                        factor_kind(rule, k), is_blocked(rule, k), tuple(places.get(k, ())))
            for k in range(count)]


def _op_heading(op: Operation) -> str:
    loc = getattr(op, "loc", None)
    where = f" at line {loc.line}" if loc is not None and getattr(loc, "line", 0) else ""
    return f"{op.name}{where}"


def _table(rows: list[list[str]], right: frozenset[int] = frozenset()) -> list[str]:
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [cell.rjust(widths[c]) if c in right else cell.ljust(widths[c]) for c, cell in enumerate(r)]
        lines.append("  ".join(cells).rstrip())
    return lines


class RuleView:
    """A sharding rule seen through its factors: ``str()`` is the text of ``describe``; in notebooks
    it draws as HTML tables with one colour per factor."""

    def __init__(self, rule: OpShardingRuleAttr, op: Operation | None = None):
        if not isinstance(rule, OpShardingRuleAttr):
            raise TypeError(f"RuleView needs an OpShardingRuleAttr, not {type(rule).__name__}")
        self.rule = rule
        self.op = op
        self.tensors = tensor_entries(rule, op)
        self.factors = factor_entries(rule, self.tensors)

    @property
    def rule_text(self) -> str:
        """The rule as MLIR prints it (``#sdy.op_sharding_rule<...>``)."""
        return print_attr(self.rule)

    def _tensor_rows(self) -> list[list[str]]:
        named = self.op is not None
        head = ["tensor", "value", "type", "dims"] if named else ["tensor", "dims"]
        rows = [head]
        for t in self.tensors:
            dims = tensor_mapping(t.mapping)
            rows.append([t.label, t.name or "?", t.type or "?", dims] if named else [t.label, dims])
        return rows

    def text(self) -> str:
        """The plain-text view (what ``describe`` returns)."""
        lines = []
        if self.op is not None:
            lines.append(f"sharding rule of {_op_heading(self.op)}")
        lines.append(self.rule_text)
        if self.tensors:
            lines.extend("  " + line for line in _table(self._tensor_rows()))
        if self.factors:
            rows = [["factor", "size", "kind", "dimensions"]]
            rows += [[f.symbol, "?" if f.size is None else str(f.size), f.kind_text, f.places_text]
                     for f in self.factors]
            lines.extend("  " + line for line in _table(rows, right=frozenset({1})))
        else:
            lines.append("  no factors")
        lines.append(f"  custom rule: {'yes' if self.rule.is_custom_rule else 'no'}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"RuleView({self.rule_text})"

    def _factor_span(self, k: int) -> str:
        bg = nth_colour(k)
        return (f'<span style="background:{bg};color:{text_colour(bg)};padding:0 3px;border-radius:3px">'
                f"{escape(factor_symbol(k))}</span>")

    def _mapping_html(self, mapping: TensorMappingAttr) -> str:
        dims = ["".join(self._factor_span(k) for k in dm.factor_indices) for dm in mapping.dim_mappings]
        return "[" + ", ".join(dims) + "]"

    def _html_table(self, head: list[str], rows: list[list[str]]) -> str:
        th = "".join(f'<th style="{_CELL}">{escape(h)}</th>' for h in head)
        body = "".join("<tr>" + "".join(f'<td style="{_CELL}">{cell}</td>' for cell in r) + "</tr>" for r in rows)
        return f'<table style="border-collapse:collapse;margin:4px 0"><tr>{th}</tr>{body}</table>'

    def _repr_html_(self) -> str:
        from shardy_py.show.highlight import highlight_html

        parts = []
        if self.op is not None:
            parts.append(f"<div><b>sharding rule of {escape(_op_heading(self.op))}</b></div>")
        parts.append(f"<div><code>{highlight_html(self.rule_text)}</code></div>")
        named = self.op is not None
        if self.tensors:
            head = ["tensor", "value", "type", "dims"] if named else ["tensor", "dims"]
            rows = [[escape(t.label), f"<code>{escape(t.name or '?')}</code>", f"<code>{escape(t.type or '?')}</code>",
                     self._mapping_html(t.mapping)] if named else [escape(t.label), self._mapping_html(t.mapping)]
                    for t in self.tensors]
            parts.append(self._html_table(head, rows))
        if self.factors:
            rows = [[self._factor_span(f.index), "?" if f.size is None else str(f.size), escape(f.kind_text),
                     escape(f.places_text)] for f in self.factors]
            parts.append(self._html_table(["factor", "size", "kind", "dimensions"], rows))
        else:
            parts.append(f'<div style="{_NOTE}">no factors</div>')
        parts.append(f'<div style="{_NOTE}">custom rule: {"yes" if self.rule.is_custom_rule else "no"}</div>')
        return f'<div class="shardy-rule" style="{_FONT};margin:0 0 14px 0">{"".join(parts)}</div>'


def describe(rule: OpShardingRuleAttr, op: Operation | None = None) -> str:
    """The rule as readable text: its MLIR form, each operand and result with the factors of its
    dimensions (named and typed from ``op`` when given), and each factor's size, kind and the
    dimensions it maps; last, whether the rule is custom."""
    return RuleView(rule, op).text()
