"""The short version of ``benchmarks/differential_rules.py`` (the long run of the populate pass
against jaxlib 0.12): its ``registry`` part, Shardy's rule-registry tests, run as a user runs it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from cpp_oracle import require_jax

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "differential_rules.py"


def test_every_rule_of_shardys_registry_tests_is_jaxlib_0_12s(conformance_dir, tmp_path):
    require_jax()
    env = {**os.environ, "SHARDY_CONFORMANCE": str(conformance_dir)}
    r = subprocess.run([sys.executable, str(SCRIPT), "--parts", "registry", "--out", str(tmp_path / "out")],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == {"registry": {
        "op_sharding_rule_registry.mlir:rules": 151,
        "op_sharding_rule_registry.mlir:rules_equal": 151,
        "op_sharding_rule_registry.mlir:module_equal": 1,
        "op_sharding_rule_registry_conservative.mlir:rules": 10,
        "op_sharding_rule_registry_conservative.mlir:rules_equal": 10,
        "op_sharding_rule_registry_conservative.mlir:module_equal": 1,
    }}
    assert not (tmp_path / "out").exists()
