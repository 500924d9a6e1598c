"""HloSharding speed: shardy_py (numpy) side by side with XLA's C++ in jaxlib.

For meshes of 8, 4,096, 65,536 and 1,048,576 devices (axes of size 8 and 16,
sharding two dims of a rank-2 tensor with a transposed axis order and the rest
replicated) it times:

* export to V2 text: ``str(export_sharding(s, mesh))`` vs ``str(HloSharding.iota_tile(...))``;
* export to the full V1 device array: ``export_sharding(...).tile_assignment`` vs
  ``HloSharding.iota_tile(...).tile_assignment_devices()``;
* export to V1 text: ``to_v1_text()`` vs ``str()`` of XLA's V1 sharding (printing only);
* V1 text -> HloSharding: ``HloSharding.parse`` vs ``xla_client.HloSharding.from_string``;
* V1 text -> import to (mesh, sharding): ``import_sharding`` (XLA has no Python entry point).

Run: ``python benchmarks/bench_hlo.py`` (add ``--quick`` to skip 1M devices).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shardy_py.hlo import HloSharding, export_sharding, import_sharding  # noqa: E402
from shardy_py.ir.attrs import AxisRefAttr, DimensionShardingAttr, MeshAttr, MeshAxisAttr, TensorShardingAttr  # noqa: E402

SIZES = (8, 4096, 65536, 1048576)


def _mesh_for(n: int) -> MeshAttr:
    sizes = []
    while n > 1:
        step = 16 if n % 16 == 0 and n > 16 else n
        sizes.append(step)
        n //= step
    if len(sizes) == 1:
        sizes = [2, sizes[0] // 2]
    return MeshAttr([MeshAxisAttr(f"a{i}", s) for i, s in enumerate(sizes)])


def _case(n: int) -> tuple[MeshAttr, TensorShardingAttr]:
    mesh = _mesh_for(n)
    names = mesh.axis_names
    # dim 0 <- last axis, dim 1 <- first axis: a real transpose; middle axes replicated.
    sharding = TensorShardingAttr("mesh", [DimensionShardingAttr([AxisRefAttr(names[-1])]),
                                           DimensionShardingAttr([AxisRefAttr(names[0])])])
    return mesh, sharding


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _xla():
    try:
        from jax._src.lib import xla_client
    except Exception:  # noqa: BLE001 - jax is optional
        return None
    return xla_client


def run(sizes=SIZES) -> list[dict]:
    """Time every case; returns one row per (size, operation) with seconds for ours and XLA's."""
    xc = _xla()
    rows = []
    for n in sizes:
        repeat = 20 if n <= 65536 else 5
        mesh, sharding = _case(n)
        h = export_sharding(sharding, mesh)
        rank = 2
        ta = h.assignment
        v1 = h.to_v1_text()

        def ours_v2(mesh=mesh, sharding=sharding):
            return str(export_sharding(sharding, mesh))

        def ours_array(mesh=mesh, sharding=sharding):
            return export_sharding(sharding, mesh).tile_assignment

        def ours_v1_text(mesh=mesh, sharding=sharding):
            return export_sharding(sharding, mesh).to_v1_text()

        def ours_parse(v1=v1):
            return HloSharding.parse(v1)

        def ours_import(v1=v1, rank=rank):
            return import_sharding(HloSharding.parse(v1), rank)

        theirs = {}
        if xc is not None:
            tile = list(ta.dims)
            iota = (tile, list(ta.reshape_dims), list(ta.perm))
            subgroups = [xc.OpSharding.Type.REPLICATED] if h.replicate_on_last_tile_dim else []

            def xla_v2(iota=iota, subgroups=subgroups):
                return str(xc.HloSharding.iota_tile(*iota, subgroups))

            def xla_array(iota=iota, subgroups=subgroups):
                return xc.HloSharding.iota_tile(*iota, subgroups).tile_assignment_devices()

            def xla_parse(v1=v1):
                return xc.HloSharding.from_string(v1)

            xla_v1 = xc.HloSharding.from_string(v1)

            def xla_v1_text(xla_v1=xla_v1):
                return str(xla_v1)

            assert xla_v2() == ours_v2(), (xla_v2(), ours_v2())
            theirs = {"export V2 text": xla_v2, "export V1 device array": xla_array, "export V1 text": xla_v1_text,
                      "parse V1 text": xla_parse}
        for name, fn in (("export V2 text", ours_v2), ("export V1 device array", ours_array),
                         ("export V1 text", ours_v1_text), ("parse V1 text", ours_parse),
                         ("V1 text -> import", ours_import)):
            ours_t = _best(fn, repeat)
            xla_t = _best(theirs[name], repeat) if name in theirs else None
            rows.append({"devices": n, "operation": name, "shardy_py_s": ours_t, "xla_s": xla_t})
    return rows


def _fmt(t: float | None) -> str:
    if t is None:
        return "-"
    return f"{t * 1e3:9.3f} ms" if t >= 1e-4 else f"{t * 1e6:9.1f} us"


def print_table(rows: list[dict]) -> None:
    print(f"{'devices':>9}  {'operation':<24} {'shardy_py':>12} {'XLA C++':>12} {'ratio':>7}")
    for r in rows:
        ratio = f"{r['shardy_py_s'] / r['xla_s']:6.2f}x" if r["xla_s"] else "      -"
        print(f"{r['devices']:>9}  {r['operation']:<24} {_fmt(r['shardy_py_s']):>12} {_fmt(r['xla_s']):>12} {ratio}")


def main(argv: list[str] | None = None) -> list[dict]:
    """Entry point for ``python benchmarks/bench_hlo.py`` and ``benchmarks/run.py``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 1M-device mesh")
    args = parser.parse_args(argv)
    sizes = SIZES[:-1] if args.quick else SIZES
    rows = run(sizes)
    print_table(rows)
    return rows


if __name__ == "__main__":
    main()
