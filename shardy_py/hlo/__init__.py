"""GSPMD interop: ``HloSharding`` text (V1/V2 tile assignments), export from and import to Shardy,
and per-device shard shapes and slices.  Device arrays are numpy, built only on demand."""
from shardy_py.hlo.errors import HloShardingError, HloShardingParseError, UnsupportedShardingError
from shardy_py.hlo.export import export_sharding
from shardy_py.hlo.sharding import HloSharding
from shardy_py.hlo.tile_assignment import TileAssignment

__all__ = [
    "HloSharding", "HloShardingError", "HloShardingParseError", "TileAssignment", "UnsupportedShardingError",
    "export_sharding",
]
