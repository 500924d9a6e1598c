"""The JSON form of a ``CostReport`` (``cost --format json``), version ``shardy_py.cost/1``.

``SCHEMA`` is its JSON Schema (draft 2020-12); fields are only ever added within a version.
Bytes are per device; ``time_s`` is the alpha-beta estimate on ``topology``.  Top level:

* ``schema``: ``"shardy_py.cost/1"``; ``module``: the file name; ``num_devices``; ``entry``: the
  function ``per_device`` describes (``main``, or the only public function);
* ``topology``: ``name``, ``description``, ``source``, the ``default`` link and per-``axes`` links,
  each ``bandwidth_bytes_per_s``, ``latency_s`` and ``kind``;
* ``per_device``: ``arguments_bytes``, ``results_bytes``, ``peak_bytes`` (with ``peak_op`` and
  ``peak_line``, the innermost op at the peak), ``bytes_sent``, ``bytes_received``, ``time_s``
  (collectives in counted loops times their trip count);
* ``functions``: per function ``name``, ``arguments``/``results`` (``index``, ``name``, ``type``,
  ``local_type``, ``sharding``, ``bytes``, ``padded``, ``device``: null for every device, else the one
  device of a maximal sharding), ``arguments_bytes``, ``results_bytes``, ``peak_bytes``, ``peak``
  (the ops to the peak, outermost first, each ``op`` and ``line``) and ``timeline`` (``index``,
  ``op``, ``line``, ``live_bytes`` per op of the body);
* ``collectives``, most bytes first: ``kind`` (``all_gather``, ``all_slice``, ``all_reduce``,
  ``reduce_scatter``, ``all_to_all``, ``collective_permute``, ``collective_broadcast``,
  ``sharded_to_unreduced``, ``replicated_to_unreduced``, ``reshard``: between two meshes),
  ``collective`` (the op: ``sdy.all_gather``,
  ``stablehlo.all_reduce``), ``function``, ``tensor_type`` (the operand's global type; a StableHLO
  collective's local ones), ``mesh``, ``axes``, ``group_size``, ``input_bytes``, ``output_bytes``,
  ``bytes_sent``, ``bytes_received`` (one execution), ``executions``, ``executions_known``,
  ``time_s`` (one execution), ``op``/``line``/``column`` (the op the collective was made for: the
  one its reason names), and ``reason``: ``kind``, ``op``, ``line``, ``column``, ``text``,
  ``from_sharding``, ``to_sharding`` and ``origins`` (per axis explained: ``side`` ``from``/``to``,
  ``tensor``, ``dimension``, ``axis``, ``user_sharding``, ``priority``, ``line``, ``column``,
  ``chain``);
* ``per_op``: the collectives summed per op they were made for (``op``, ``line``, ``count``,
  ``bytes_sent``, ``time_s``), most bytes first; ``notes``.
"""
from __future__ import annotations

VERSION = "shardy_py.cost/1"

_INT = {"type": "integer", "minimum": 0}
_NUM = {"type": "number", "minimum": 0}
_LINE = {"type": ["integer", "null"]}
_STR = {"type": "string"}
_OPT_STR = {"type": ["string", "null"]}


def _obj(required: dict, optional: dict | None = None) -> dict:
    props = dict(required)
    props.update(optional or {})
    return {"type": "object", "properties": props, "required": sorted(required)}


_LINK = _obj({"bandwidth_bytes_per_s": _NUM, "latency_s": _NUM, "kind": {"enum": ["ring", "bidirectional-ring",
                                                                                   "switch"]}})
_TENSOR = _obj({"index": _INT, "name": _STR, "type": _STR, "local_type": _STR, "sharding": _OPT_STR, "bytes": _INT,
                "padded": {"type": "boolean"}, "device": {"type": ["integer", "null"]}})
_ORIGIN = _obj({"side": {"enum": ["from", "to"]}, "tensor": _STR, "dimension": _INT, "axis": _STR,
                "user_sharding": _OPT_STR, "priority": {"type": ["integer", "null"]}, "line": _LINE, "column": _LINE,
                "chain": {"type": "array", "items": _STR}})
_REASON = _obj({"kind": {"enum": ["operand", "result", "reduction", "constraint", "reshard", "call",
                                  "manual", "func_result", "program"]},
                "op": _STR, "line": _LINE, "column": _LINE, "text": _STR, "from_sharding": _OPT_STR,
                "to_sharding": _OPT_STR}, {"origins": {"type": "array", "items": _ORIGIN}})
_COLLECTIVE = _obj({
    "kind": {"enum": ["all_gather", "all_slice", "all_reduce", "reduce_scatter", "all_to_all", "collective_permute",
                      "collective_broadcast", "sharded_to_unreduced", "replicated_to_unreduced", "reshard"]},
    "collective": _STR, "function": _STR, "tensor_type": _STR, "mesh": _OPT_STR,
    "axes": {"type": "array", "items": _STR}, "group_size": _INT, "input_bytes": _INT, "output_bytes": _INT,
    "bytes_sent": _INT, "bytes_received": _INT, "executions": _INT, "executions_known": {"type": "boolean"},
    "time_s": _NUM, "op": _STR, "line": _LINE, "column": _LINE, "reason": _REASON})
_FUNCTION = _obj({
    "name": _STR, "arguments": {"type": "array", "items": _TENSOR}, "results": {"type": "array", "items": _TENSOR},
    "arguments_bytes": _INT, "results_bytes": _INT, "peak_bytes": _INT,
    "peak": {"type": "array", "items": _obj({"op": _STR, "line": _LINE})},
    "timeline": {"type": "array", "items": _obj({"index": _INT, "op": _STR, "line": _LINE, "live_bytes": _INT})}})

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "shardy_py cost report",
    **_obj({
        "schema": {"const": VERSION}, "module": _STR, "num_devices": _INT, "entry": _OPT_STR,
        "topology": _obj({"name": _STR, "description": _STR, "source": _STR, "default": _LINK,
                          "axes": {"type": "object", "additionalProperties": _LINK}}),
        "per_device": _obj({"arguments_bytes": _INT, "results_bytes": _INT, "peak_bytes": _INT, "peak_op": _OPT_STR,
                            "peak_line": _LINE, "bytes_sent": _INT, "bytes_received": _INT, "time_s": _NUM}),
        "functions": {"type": "array", "items": _FUNCTION},
        "collectives": {"type": "array", "items": _COLLECTIVE},
        "per_op": {"type": "array", "items": _obj({"op": _STR, "line": _LINE, "count": _INT, "bytes_sent": _INT,
                                                   "time_s": _NUM})},
        "notes": {"type": "array", "items": _STR},
    }),
}


def _tensor(t) -> dict:
    return {"index": t.index, "name": t.name, "type": t.type, "local_type": t.local_type, "sharding": t.sharding,
            "bytes": t.bytes, "padded": t.padded, "device": t.device}


def _function(f) -> dict:
    return {"name": f.name, "arguments": [_tensor(t) for t in f.arguments], "results": [_tensor(t) for t in f.results],
            "arguments_bytes": f.arguments_bytes, "results_bytes": f.results_bytes, "peak_bytes": f.peak_bytes,
            "peak": [{"op": op, "line": line} for op, line in f.peak_path],
            "timeline": [{"index": p.index, "op": p.op, "line": p.line, "live_bytes": p.live_bytes}
                         for p in f.timeline]}


def _collective(c, origins: bool) -> dict:
    r = c.reason
    loc = r.loc if r is not None else c.operation.loc
    return {"kind": c.kind, "collective": c.op_name, "function": c.function, "tensor_type": c.tensor_type,
            "mesh": c.mesh, "axes": list(c.axes), "group_size": c.group_size, "input_bytes": c.input_bytes,
            "output_bytes": c.output_bytes, "bytes_sent": c.bytes_sent, "bytes_received": c.bytes_received,
            "executions": c.executions, "executions_known": c.executions_known, "time_s": c.time_s,
            "op": r.op if r is not None else c.op_name, "line": loc.line if loc else None,
            "column": loc.column if loc else None, "reason": r.as_json(origins) if r is not None else None}


def report_json(report, *, origins: bool = True) -> dict:
    """``report`` (a ``CostReport``) as data of ``SCHEMA``; ``origins=False`` leaves the origins out
    (they need the propagation to run once more with origin tracking)."""
    entry = report.entry_function
    return {
        "schema": VERSION, "module": report.name, "num_devices": report.num_devices, "entry": report.entry,
        "topology": report.topology.as_json(),
        "per_device": {"arguments_bytes": report.arguments_bytes, "results_bytes": report.results_bytes,
                       "peak_bytes": report.peak_bytes, "peak_op": entry.peak_op if entry else None,
                       "peak_line": entry.peak_line if entry else None, "bytes_sent": report.bytes_sent,
                       "bytes_received": report.bytes_received, "time_s": report.time_s},
        "functions": [_function(f) for f in report.functions],
        "collectives": [_collective(c, origins) for c in report.collectives],
        "per_op": [{"op": g.op, "line": g.line, "count": g.count, "bytes_sent": g.bytes_sent, "time_s": g.time_s}
                   for g in report.per_op()],
        "notes": list(report.notes),
    }


def validate(data, schema: dict = SCHEMA, path: str = "$") -> list[str]:
    """The places where ``data`` breaks ``schema`` (the subset of JSON Schema ``SCHEMA`` uses: type,
    enum, const, minimum, properties, required, items, additionalProperties); empty when it fits."""
    errors: list[str] = []
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(data, k) for k in kinds):
            return [f"{path}: expected {' or '.join(kinds)}, got {type(data).__name__}"]
    if "enum" in schema and data not in schema["enum"]:
        errors.append(f"{path}: {data!r} is not one of {schema['enum']}")
    if "const" in schema and data != schema["const"]:
        errors.append(f"{path}: expected {schema['const']!r}")
    if "minimum" in schema and isinstance(data, (int, float)) and data < schema["minimum"]:
        errors.append(f"{path}: {data} < {schema['minimum']}")
    if isinstance(data, dict):
        for key in schema.get("required", ()):
            if key not in data:
                errors.append(f"{path}: missing {key!r}")
        for key, value in data.items():
            sub = schema.get("properties", {}).get(key, schema.get("additionalProperties"))
            if sub is not None:
                errors += validate(value, sub, f"{path}.{key}")
    if isinstance(data, list) and "items" in schema:
        for i, item in enumerate(data):
            errors += validate(item, schema["items"], f"{path}[{i}]")
    return errors


def _is(value, kind: str) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, {"string": str, "array": list, "object": dict}[kind])
