"""Propagation debugging: where shardings came from (source_sharding)."""
