"""The dialects jaxlib 0.12's MLIR context registers beyond those shardy_py models (issue 26): an op name such
a dialect does not register is MLIR's unknown op (llvm, nvvm and shape take one in generic form), and an
attribute or type of a dialect that has no parser for them (func, builtin, tensor, ...) is MLIR's "provides no
attribute/type parsing hook" error at its body, while what jaxlib accepts of these dialects is kept as written
and printed as jaxlib prints it.  ``syntax/registered_ops_data.py`` is generated from jaxlib by
``benchmarks/registered_ops_table.py``."""
from __future__ import annotations

import importlib.util
import pathlib

import pytest
from cpp_oracle import context, cpp
from first_error_helpers import case_table_tests

import shardy_py
from shardy_py.syntax import registered_ops_data
from shardy_py.syntax.known_ops import REGISTERED_OPS, REGISTERED_TERMINATORS
from shardy_py.verify import verify

_FUNC = "func.func private @f(%a: f32) {{\n  {line}\n  return\n}}"

#: name -> (text, jaxlib 0.12's line, column and message).
CASES = {
    "func attribute": ("module attributes {x = #func.x} {}", 1, 30,
                       "dialect 'func' provides no attribute parsing hook"),
    "builtin attribute": ("module attributes {x = #builtin.x} {}", 1, 33,
                          "dialect 'builtin' provides no attribute parsing hook"),
    "tensor attribute in an array": ("module attributes {x = [1, #tensor.x]} {}", 1, 36,
                                     "dialect 'tensor' provides no attribute parsing hook"),
    "func attribute with no name": ("module attributes {x = #func.} {}", 1, 30,
                                    "dialect 'func' provides no attribute parsing hook"),
    "builtin attribute with no name": ("module attributes {x = #builtin.} {}", 1, 33,
                                       "dialect 'builtin' provides no attribute parsing hook"),
    "scf attribute, pretty body": ("module attributes {x = #scf<x>} {}", 1, 29,
                                   "dialect 'scf' provides no attribute parsing hook"),
    "math attribute with a body": ("module attributes {x = #math.x<1>} {}", 1, 30,
                                   "dialect 'math' provides no attribute parsing hook"),
    "memref attribute, a string body": ('module attributes {x = #memref."x"} {}', 1, 32,
                                        "dialect 'memref' provides no attribute parsing hook"),
    "func attribute of a function": ("func.func private @f() attributes {x = #func.zzz} {\n  return\n}", 1, 46,
                                     "dialect 'func' provides no attribute parsing hook"),
    "func attribute as a tensor encoding": ("func.func private @f(%a: tensor<2xf32, #func.zzz>)", 1, 46,
                                            "dialect 'func' provides no attribute parsing hook"),
    "func attribute in an alias": ("#a = #func.zzz\nmodule attributes {x = #a} {}", 1, 12,
                                   "dialect 'func' provides no attribute parsing hook"),
    "builtin type": ("func.func private @f(%a: !builtin.x) -> !builtin.x", 1, 35,
                     "dialect 'builtin' provides no type parsing hook"),
    "func type": ("func.func private @f(%a: !func.x)", 1, 32, "dialect 'func' provides no type parsing hook"),
    "func type, pretty body": ('func.func private @f(%a: !func<"x">)', 1, 32,
                               "dialect 'func' provides no type parsing hook"),
    "arith type": ("func.func private @f(%a: !arith.x)", 1, 33, "dialect 'arith' provides no type parsing hook"),
    "chlo type": ("func.func private @f(%a: !chlo.x)", 1, 32, "dialect 'chlo' provides no type parsing hook"),
    "sdy type": ("func.func private @f(%a: !sdy.x)", 1, 31, "dialect 'sdy' provides no type parsing hook"),
    "func type in an alias": ("!a = !func.zzz\nfunc.func private @f(%a: !a)", 1, 12,
                              "dialect 'func' provides no type parsing hook"),
    "the first of two": ("func.func private @f(%a: !arith.x) attributes {x = #func.zzz}", 1, 33,
                         "dialect 'arith' provides no type parsing hook"),
    "an undefined alias before it wins": ("module attributes {x = #a, y = #func.x} {}", 1, 26,
                                          "undefined symbol alias id 'a'"),
    "before an undefined alias": ("module attributes {x = #func.x, y = #a} {}", 1, 30,
                                  "dialect 'func' provides no attribute parsing hook"),
    "unknown arith attribute": ("module attributes {a.x = #arith.cmpi<slt>} {}", 1, 33,
                                "unknown attribute `cmpi` in dialect `arith`"),
    "unknown arith attribute, pretty body": ("module attributes {a.x = #arith<zzz>} {}", 1, 33,
                                             "unknown attribute `zzz` in dialect `arith`"),
    "unknown gpu attribute, a type's name": ("module attributes {a.x = #gpu.async.token} {}", 1, 31,
                                             "unknown attribute `async.token` in dialect `gpu`"),
    "unknown llvm attribute": ("module attributes {a.x = #llvm.zzz<1>} {}", 1, 32,
                               "unknown attribute `zzz` in dialect `llvm`"),
    "unknown mpmd attribute": ("module attributes {a.x = #mpmd.mesh<x>} {}", 1, 32,
                               "unknown attribute `mesh` in dialect `mpmd`"),
    "unknown mhlo attribute": ("module attributes {a.x = #mhlo.zzz} {}", 1, 32, "unknown mhlo attribute"),
    "unknown vhlo attribute": ("module attributes {a.x = #vhlo.bool_v9<true>} {}", 1, 32, "unknown vhlo attribute"),
    "unknown gpu type": ("func.func private @f(%a: !gpu.zzz)", 1, 31, "unknown gpu type: zzz"),
    "unknown nvgpu type": ("func.func private @f(%a: !nvgpu.zzz)", 1, 33, "unknown  type `zzz` in dialect `nvgpu`"),
    "unknown shape type, pretty body": ("func.func private @f(%a: !shape<zzz>)", 1, 33,
                                        "unknown  type `zzz` in dialect `shape`"),
    "unknown vhlo type": ("func.func private @f(%a: !vhlo.tf32_v1)", 1, 32, "unknown vhlo type: tf32_v1"),
    "unknown mhlo type in an alias": ("!a = !mhlo.zzz\nfunc.func private @f(%a: !a)", 1, 12,
                                      "unknown mhlo type: zzz"),
    "unknown math op": (_FUNC.format(line="%0 = math.frobnicate %a : f32"), 2, 8,
                        "custom op 'math.frobnicate' is unknown"),
    "unknown scf op, generic": (_FUNC.format(line='"scf.frob"() : () -> ()'), 2, 3,
                                "unregistered operation 'scf.frob' found in dialect ('scf') that does not allow "
                                "unknown operations"),
    "unknown mhlo op": (_FUNC.format(line="%0 = mhlo.abss %a : f32"), 2, 8, "custom op 'mhlo.abss' is unknown"),
    "unknown vhlo op, generic": (_FUNC.format(line='"vhlo.abs_v9"(%a) : (f32) -> f32'), 2, 3,
                                 "unregistered operation 'vhlo.abs_v9' found in dialect ('vhlo') that does not "
                                 "allow unknown operations"),
    "unknown llvm op, custom form": (_FUNC.format(line="llvm.frob"), 2, 3, "custom op 'llvm.frob' is unknown"),
    "unknown cf op": (_FUNC.format(line="cf.jump ^bb1"), 2, 3, "custom op 'cf.jump' is unknown"),
    "unknown affine op": (_FUNC.format(line="affine.loop"), 2, 3, "custom op 'affine.loop' is unknown"),
    "unknown gpu op, generic": (_FUNC.format(line='"gpu.frob"() : () -> ()'), 2, 3,
                                "unregistered operation 'gpu.frob' found in dialect ('gpu') that does not allow "
                                "unknown operations"),
    "unknown mpmd op": (_FUNC.format(line="mpmd.frob"), 2, 3, "custom op 'mpmd.frob' is unknown"),
}

(test_first_error_is_where_mlir_stops, test_fast_paths_off_give_the_same_first_error,
 test_jaxlib_stops_at_the_same_place) = case_table_tests(CASES)

#: Modules jaxlib 0.12 accepts, with attributes, types and ops of the registered dialects.
VALID = {
    "arith fastmath": "module attributes {a.x = #arith.fastmath<fast>} {\n}\n",
    "llvm linkage": "module attributes {a.x = #llvm.linkage<internal>} {\n}\n",
    "gpu address space": "module attributes {a.x = #gpu.address_space<workgroup>} {\n}\n",
    "vector kind": "module attributes {a.x = #vector.kind<add>} {\n}\n",
    "mhlo gather": "module attributes {a.x = #mhlo.gather<offset_dims = [1]>} {\n}\n",
    "ub poison": "module attributes {a.x = #ub.poison} {\n}\n",
    "a string holding a func attribute": 'module attributes {a.x = "#func.x"} {\n}\n',
    "nvvm target": "module attributes {a.x = #nvvm.target} {\n}\n",
    "gpu block": "module attributes {a.x = #gpu.block<x>} {\n}\n",
    "vhlo bool": "module attributes {a.x = #vhlo.bool_v1<true>} {\n}\n",
    "a string holding an unknown arith attribute": 'module attributes {a.x = "#arith.zzz"} {\n}\n',
    "vhlo f8 type": "module {\n  func.func private @f(!vhlo.f8E4M3FN_v1)\n}\n",
    "mhlo token": "module {\n  func.func private @f(!mhlo.token)\n}\n",
    "llvm pointer": "module {\n  func.func private @f(!llvm.ptr)\n}\n",
    "gpu token": "module {\n  func.func private @f(!gpu.async.token)\n}\n",
    "llvm struct": "module {\n  func.func private @f(!llvm.struct<(i32, f32)>)\n}\n",
    "shape witness": "module {\n  func.func private @f(!shape.witness)\n}\n",
    "mpmd mesh tensor": 'module {\n  func.func private @f(!mpmd.mesh_tensor<"m", tensor<4xf32>>)\n}\n',
    "math op": "module {\n  func.func private @f(%arg0: f32) -> f32 {\n    %0 = math.sin %arg0 : f32\n"
               "    return %0 : f32\n  }\n}\n",
    "unknown llvm op, generic": 'module {\n  func.func private @f() {\n    "llvm.frob"() : () -> ()\n    return\n'
                                "  }\n}\n",
    "unknown nvvm op, generic": 'module {\n  func.func private @f() {\n    "nvvm.frob"() : () -> ()\n    return\n'
                                "  }\n}\n",
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_what_jaxlib_accepts_verifies_clean_and_prints_as_written(name: str) -> None:
    module = shardy_py.parse(VALID[name])
    assert verify(module) == []
    assert str(module) == VALID[name]


@pytest.mark.parametrize("name", sorted(VALID))
def test_jaxlib_prints_the_valid_modules_the_same(name: str) -> None:
    assert cpp(VALID[name], "builtin.module()") == VALID[name]


def test_a_block_may_end_in_a_registered_terminator() -> None:
    text = "func.func private @f(%a: i1) {\n  cf.cond_br %a, ^bb1, ^bb2\n^bb1:\n  return\n^bb2:\n  return\n}"
    assert verify(shardy_py.parse(text)) == []
    assert cpp(text, "builtin.module()").count("cf.cond_br %arg0, ^bb1, ^bb2") == 1  # (jaxlib: valid)


def test_a_block_ending_in_a_registered_op_that_is_no_terminator_has_none() -> None:
    module = shardy_py.parse("func.func private @f(%a: f32) -> f32 {\n  %0 = math.sin %a : f32\n}")
    assert [(f.line, f.column, f.message) for f in verify(module)] == [
        (2, 8, "block with no terminator, has 'math.sin'")]


def _generator():
    path = pathlib.Path(__file__).parent.parent / "benchmarks" / "registered_ops_table.py"
    spec = importlib.util.spec_from_file_location("registered_ops_table", path)
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    return generator


def test_the_generated_ops_and_dialects_are_what_jaxlib_registers_now() -> None:
    table = _generator().table(context(), with_mnemonics=False)
    assert registered_ops_data.REGISTERED_OPS == {d: frozenset(names) for d, names in table["ops"].items()}
    assert registered_ops_data.REGISTERED_DIALECTS == frozenset(table["dialects"])
    assert registered_ops_data.UNKNOWN_OPS_ALLOWED == frozenset(table["unknown_generic"])
    assert registered_ops_data.NO_ATTRIBUTE_PARSER == frozenset(table["no_attr"])
    assert registered_ops_data.NO_TYPE_PARSER == frozenset(table["no_type"])


def test_every_generated_mnemonic_is_one_its_dialect_knows() -> None:
    from jax._src.lib.mlir import ir

    probe = _generator()._PROBE
    ctx = context()
    for (sigil, dialect), (message, names) in registered_ops_data.MNEMONICS.items():
        for name in names:
            try:
                ir.Module.parse(probe[sigil].format(d=dialect, w=name), context=ctx)
            except Exception as e:  # noqa: BLE001 (MLIR's parse error: any but the unknown name's)
                assert message.format(name) not in str(e)


def test_every_op_of_the_table_is_registered_and_a_made_up_one_is_not() -> None:
    ctx = context()
    for dialect, names in REGISTERED_OPS.items():
        assert all(ctx.is_registered_operation(name) for name in names), dialect
        assert not ctx.is_registered_operation(f"{dialect}.zz_not_an_op")


def test_the_terminators_are_registered_ops_of_the_table() -> None:
    assert all(name in REGISTERED_OPS[name.split(".", 1)[0]] for name in REGISTERED_TERMINATORS)
