"""What ``simulate`` reports: the text of a ``SimulationResult`` (outputs against the unpartitioned run,
devices with the bytes they held and the collectives they ran)."""
from __future__ import annotations

import math

import attrs


def human_bytes(n: int) -> str:
    """``n`` bytes as ``512 B``, ``1.5 KiB``, ``2.0 MiB``, ..."""
    if n < 1024:
        return f"{n} B"
    value = float(n)
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        value /= 1024
        if value < 1024 or unit == "TiB":
            return f"{value:.1f} {unit}"
    return f"{n} B"


def _sharding_text(sharding, mesh_name: str | None, mesh) -> str:
    if sharding is None:
        return "replicated"
    if mesh_name is not None and sharding.mesh_or_ref == mesh:
        sharding = attrs.evolve(sharding, mesh_or_ref=mesh_name)
    return str(sharding)


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def _difference_text(value: float, exact: bool) -> str:
    if value == 0:
        return "0"
    if math.isinf(value):
        return "inf"
    return f"{int(value)}" if exact else f"{value:.3g}"


def _position_text(position) -> str:
    if not position:
        return "-"
    return ", ".join(f"{k}={v}" for k, v in position.items())


def _collectives_text(counts) -> str:
    return ", ".join(f"{name} x{n}" for name, n in sorted(counts.items())) or "-"


def _device_cells(d) -> list[str]:
    return [human_bytes(d.input_bytes), human_bytes(d.result_bytes), human_bytes(d.peak_bytes),
            _collectives_text(d.collective_counts), human_bytes(d.sent_bytes), human_bytes(d.received_bytes)]


def _ranges(ids: list[int]) -> str:
    """``[0, 1, 2, 3, 6]`` as ``0-3, 6``."""
    out, start = [], None
    for i, d in enumerate(ids):
        if start is None:
            start = d
        if i + 1 == len(ids) or ids[i + 1] != d + 1:
            out.append(str(start) if start == d else f"{start}-{d}")
            start = None
    return ", ".join(out)


def report_text(result, name: str = "", each_device: bool = False) -> str:
    """The report of a ``SimulationResult`` (see ``simulate``): devices that held and ran the same are one
    row unless ``each_device`` (then one row each, with its position on the mesh)."""
    n = len(result.devices)
    where = f"simulate {name}: " if name else "simulate: "
    mesh = ""
    if result.mesh is not None:
        label = f"@{result.mesh_name} " if result.mesh_name else ""
        mesh = f", mesh {label}{str(result.mesh).removeprefix('#sdy.mesh')}"
    inputs = f"random inputs (seed {result.seed})" if result.seed is not None else "the given inputs"
    lines = [f"{where}{n} device{'s' if n != 1 else ''}{mesh}, {inputs}", "",
             "outputs (put together from the devices' pieces) against the unpartitioned run:"]
    rows = [["#", "type", "sharding", "largest difference", "between replicas", ""]]
    for o in result.outputs:
        exact = getattr(o.expected, "dtype", None) is not None and o.expected.dtype.kind in "iub"
        rows.append([str(o.index), str(o.type), _sharding_text(o.sharding, result.mesh_name, result.mesh),
                     _difference_text(o.difference, exact), _difference_text(o.replica_difference, exact),
                     "equal" if o.equal else "DIFFERENT"])
    lines += _table(rows, {0, 3, 4}) if result.outputs else ["  (no outputs)"]
    lines += ["", "devices: bytes held (inputs, results, most alive at once) and collectives run:"]
    if each_device:
        rows = [["device", "position", "inputs", "results", "peak", "collectives", "sent", "received"]]
        rows += [[str(d.device), _position_text(d.position), *_device_cells(d)] for d in result.devices]
        lines += _table(rows, {0, 2, 3, 4, 6, 7})
    else:
        groups: dict[tuple, list[int]] = {}
        for d in result.devices:
            groups.setdefault(tuple(_device_cells(d)), []).append(d.device)
        rows = [["devices", "inputs", "results", "peak", "collectives", "sent", "received"]]
        rows += [[_ranges(ids), *cells] for cells, ids in groups.items()]
        lines += _table(rows, {1, 2, 3, 5, 6})
    total_in = sum(v.nbytes for v in result.inputs if hasattr(v, "nbytes"))
    total_out = sum(o.expected.nbytes for o in result.outputs if hasattr(o.expected, "nbytes"))
    lines.append(f"  unpartitioned (one device): inputs {human_bytes(total_in)}, results {human_bytes(total_out)}, "
                 f"peak {human_bytes(result.global_peak_bytes)}")
    different = [o for o in result.outputs if not o.equal]
    lines.append("")
    if different:
        lines.append(f"{len(different)} of {len(result.outputs)} outputs DIFFER from the unpartitioned run: "
                     + ", ".join(f"result {o.index}" for o in different))
        lines += [f"note: {note}" for note in result.notes]
    else:
        lines.append(f"all {len(result.outputs)} outputs equal to the unpartitioned run "
                     "(integers bit-exact, floats within 1e-4)")
    return "\n".join(lines) + "\n"
