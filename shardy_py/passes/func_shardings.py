"""Reading and writing the shardings of functions as Shardy's export passes do (``ir/utils.cc``):
the main function, result shardings kept in the result attribute dictionaries, and a pass error
where the C++ dies (``getMainFuncOrDie``)."""
from __future__ import annotations

from shardy_py.ir.attrs import TensorShardingAttr
from shardy_py.ir.ops import Operation
from shardy_py.passes.data_flow import SHARDING
from shardy_py.passes.func_calls import SymbolTable


class MissingMainFunc(ValueError):
    """``getMainFuncOrDie`` found no function to call main (the C++ aborts)."""


def main_func_or_error(module) -> Operation:
    """``getMainFuncOrDie(useSingleFunc=true)``: the only ``func.func`` of the module, else
    ``@main``; ``MissingMainFunc`` (the C++'s message) when there is none."""
    funcs = [op for op in module.ops if op.name == "func.func"]
    if len(funcs) == 1:
        return funcs[0]
    try:
        return SymbolTable(module).lookup_func("main")
    except ValueError as e:
        raise MissingMainFunc(str(e)) from None


def _result_count(func: Operation) -> int:
    return len(func.properties_view.get("result_types") or [])


def set_result_attribute(func: Operation, index: int, name: str, value) -> None:
    """``FuncOp::setResultAttr``: attribute ``name`` of result ``index`` (the dictionary kept
    sorted by name)."""
    res_attrs = list(func.properties_view.get("res_attrs") or [])
    res_attrs += [{} for _ in range(_result_count(func) - len(res_attrs))]
    res_attrs[index] = dict(sorted({**(res_attrs[index] or {}), name: value}.items()))
    func.properties["res_attrs"] = res_attrs


def remove_result_attribute(func: Operation, index: int, name: str) -> bool:
    """``FuncOp::removeResultAttr``; whether the attribute was there."""
    res_attrs = list(func.properties_view.get("res_attrs") or [])
    if index >= len(res_attrs) or not res_attrs[index] or name not in res_attrs[index]:
        return False
    res_attrs[index] = {k: v for k, v in res_attrs[index].items() if k != name}
    func.properties["res_attrs"] = res_attrs
    return True


def set_result_sharding(func: Operation, index: int, sharding: TensorShardingAttr | None) -> None:
    """``setFuncResultSharding``: ``sdy.sharding`` of result ``index``; None removes it (as MLIR's
    ``setResultAttr`` with a null attribute does)."""
    if sharding is None:
        remove_result_attribute(func, index, SHARDING)
    else:
        set_result_attribute(func, index, SHARDING, sharding)


def sharded_size(axes, mesh) -> int:
    """``DimensionShardingAttr::getShardedSize``: the product of the (sub-)axis sizes."""
    size = 1
    for axis in axes:
        size *= axis.size(mesh)
    return size
