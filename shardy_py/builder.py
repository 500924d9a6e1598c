"""``named_sharding`` / ``mark_sharding``: shardings from PartitionSpecs (JAX / torch_xla semantics),
built in ``shardy_py.ir.partition_spec`` (where ``Module.mark_sharding`` finds them)."""
from shardy_py.ir.partition_spec import (
    UNCONSTRAINED,
    ShardingSpecError,
    _find_value,
    func_result,
    mark_sharding,
    named_sharding,
)

__all__ = ["UNCONSTRAINED", "ShardingSpecError", "_find_value", "func_result", "mark_sharding", "named_sharding"]
