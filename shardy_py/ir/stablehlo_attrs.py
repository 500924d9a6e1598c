"""StableHLO and CHLO attributes as typed values (``StablehloAttrs.td``, ``StablehloEnums.td``,
``ChloEnums.td``), printed as their C++ printers print them (``StablehloOps.cpp``, ``ChloOps.cpp``,
``AssemblyFormat.cpp``).

Each class has ``mlir_text()`` (the full ``#stablehlo...`` form) and, for the op formats that write the
attribute without its wrapper, ``print_body()`` (``syntax.stablehlo_attr_reader.parse_body`` reads it):

* enums: ``EQ`` (``stablehlo.compare EQ, ...``, ``precision = [DEFAULT, HIGH]``);
* ``ConvDimensionNumbersAttr``: ``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]``;
* ``DotDimensionNumbersAttr``: ``print_pretty()`` (read by ``parse_dot_pretty``) for
  ``batching_dims = [0] x [0], contracting_dims = [2] x [1]``;
* the struct-like ones: ``print_body()`` for ``<field = ..., ...>``.
"""
from __future__ import annotations

import attrs

from shardy_py.ir.attr_text import float_text
from shardy_py.ir.attrs import Attr
from shardy_py.ir.types import K_DYNAMIC, Type


def _frozen(cls):
    return attrs.frozen(cls, cache_hash=True, repr=True, str=False)


def _tuple(xs) -> tuple:
    return tuple(xs)


def dims_text(dims) -> str:
    """``[1, ?, 2]``: StableHLO's ``printDimSizes`` (``?`` for ``K_DYNAMIC``)."""
    return "[" + ", ".join("?" if d == K_DYNAMIC else str(d) for d in dims) + "]"


# ------------------------------------------------------------------------------------------- enums
class EnumAttr(Attr):
    """Base of the enum attributes: ``value`` is the case name (``EQ``); subclasses set ``DIALECT``,
    ``MNEMONIC``, ``CASES`` and ``WRAPPED`` (``#d<mnemonic V>``, else ``#d.mnemonic<V>``)."""

    __slots__ = ()
    DIALECT = "stablehlo"
    MNEMONIC = ""
    CASES: tuple[str, ...] = ()
    WRAPPED = True

    def print_body(self) -> str:
        """The bare case name, as op formats print it."""
        return self.value

    def mlir_text(self) -> str:
        if self.WRAPPED:
            return f"#{self.DIALECT}<{self.MNEMONIC} {self.value}>"
        return f"#{self.DIALECT}.{self.MNEMONIC}<{self.value}>"


def _enum(name: str, dialect: str, mnemonic: str, cases: str, wrapped: bool = True, doc: str = ""):
    body = {"__annotations__": {"value": "str"}, "DIALECT": dialect, "MNEMONIC": mnemonic,
            "CASES": tuple(cases.split()), "WRAPPED": wrapped, "__doc__": doc or f"``#{dialect}<{mnemonic} ...>``.",
            "__module__": __name__}
    return _frozen(type(name, (EnumAttr,), body))


ComparisonDirectionAttr = _enum("ComparisonDirectionAttr", "stablehlo", "comparison_direction",
                                "EQ NE GE GT LE LT")
ComparisonTypeAttr = _enum("ComparisonTypeAttr", "stablehlo", "comparison_type",
                           "NOTYPE FLOAT TOTALORDER SIGNED UNSIGNED")
PrecisionAttr = _enum("PrecisionAttr", "stablehlo", "precision", "DEFAULT HIGH HIGHEST")
FftTypeAttr = _enum("FftTypeAttr", "stablehlo", "fft_type", "FFT IFFT RFFT IRFFT")
RngAlgorithmAttr = _enum("RngAlgorithmAttr", "stablehlo", "rng_algorithm", "DEFAULT THREE_FRY PHILOX")
RngDistributionAttr = _enum("RngDistributionAttr", "stablehlo", "rng_distribution", "UNIFORM NORMAL")
TransposeAttr = _enum("TransposeAttr", "stablehlo", "transpose", "TRANSPOSE_INVALID NO_TRANSPOSE TRANSPOSE ADJOINT")
ResultAccuracyModeAttr = _enum("ResultAccuracyModeAttr", "stablehlo", "result_accuracy_mode",
                               "DEFAULT HIGHEST TOLERANCE", False, "``#stablehlo.result_accuracy_mode<HIGHEST>``.")
ChloComparisonDirectionAttr = _enum("ChloComparisonDirectionAttr", "chlo", "comparison_direction",
                                    "EQ NE GE GT LE LT")
ChloComparisonTypeAttr = _enum("ChloComparisonTypeAttr", "chlo", "comparison_type",
                               "NOTYPE FLOAT TOTALORDER SIGNED UNSIGNED")
ChloPrecisionAttr = _enum("ChloPrecisionAttr", "chlo", "precision", "DEFAULT HIGH HIGHEST")

ENUM_CLASSES = (ComparisonDirectionAttr, ComparisonTypeAttr, PrecisionAttr, FftTypeAttr, RngAlgorithmAttr,
                RngDistributionAttr, TransposeAttr, ResultAccuracyModeAttr, ChloComparisonDirectionAttr,
                ChloComparisonTypeAttr, ChloPrecisionAttr)


# ------------------------------------------------------------------------------------ struct-likes
def _struct_text(fields) -> str:
    """``printStruct``: ``<name = [..], ...>``, empty lists and zero integers left out."""
    parts = []
    for name, value in fields:
        if isinstance(value, tuple):
            if value:
                parts.append(f"{name} = [" + ", ".join(map(str, value)) + "]")
        elif value != 0:
            parts.append(f"{name} = {value}")
    return "<" + ", ".join(parts) + ">"


class _StructAttr(Attr):
    """Struct-like attributes printed with ``printStruct`` (read with ``parseStruct``, in any order)."""

    __slots__ = ()
    PREFIX = ""

    def print_body(self) -> str:
        """``<field = ..., ...>`` (without the ``#dialect.mnemonic``)."""
        return _struct_text((f.name, getattr(self, f.name)) for f in attrs.fields(type(self)))

    def mlir_text(self) -> str:
        return self.PREFIX + self.print_body()


@_frozen
class GatherDimensionNumbersAttr(_StructAttr):
    """``#stablehlo.gather<offset_dims = [...], collapsed_slice_dims = [...], ...>``."""

    PREFIX = "#stablehlo.gather"
    offset_dims: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    collapsed_slice_dims: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    operand_batching_dims: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    start_indices_batching_dims: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    start_index_map: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    index_vector_dim: int = 0


@_frozen
class ScatterDimensionNumbersAttr(_StructAttr):
    """``#stablehlo.scatter<update_window_dims = [...], ...>``."""

    PREFIX = "#stablehlo.scatter"
    update_window_dims: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    inserted_window_dims: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    input_batching_dims: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    scatter_indices_batching_dims: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    scatter_dims_to_operand_dims: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    index_vector_dim: int = 0


@_frozen
class DotDimensionNumbersAttr(_StructAttr):
    """``#stablehlo.dot<lhs_batching_dimensions = [0], ...>``; op form ``batching_dims = [0] x [0],
    contracting_dims = [2] x [1]`` through ``print_pretty``."""

    PREFIX = "#stablehlo.dot"
    lhs_batching_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    rhs_batching_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    lhs_contracting_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    rhs_contracting_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())

    def print_pretty(self) -> str:
        """``printDotDimensionNumbers``: ``[batching_dims = [..] x [..], ]contracting_dims = [..] x [..]``."""
        def pair(lhs, rhs):
            return f"[{', '.join(map(str, lhs))}] x [{', '.join(map(str, rhs))}]"
        out = ""
        if self.lhs_batching_dimensions or self.rhs_batching_dimensions:
            out = f"batching_dims = {pair(self.lhs_batching_dimensions, self.rhs_batching_dimensions)}, "
        return out + f"contracting_dims = {pair(self.lhs_contracting_dimensions, self.rhs_contracting_dimensions)}"

@_frozen
class RaggedDotDimensionNumbersAttr(_StructAttr):
    """``#chlo.ragged_dot<lhs_batching_dimensions = [...], ..., rhs_group_dimensions = [...]>``."""

    PREFIX = "#chlo.ragged_dot"
    lhs_batching_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    rhs_batching_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    lhs_contracting_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    rhs_contracting_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    lhs_ragged_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    rhs_group_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())


@_frozen
class ChannelHandleAttr(_StructAttr):
    """``#stablehlo.channel_handle<handle = 1, type = 0>`` (both printed, even when 0)."""

    PREFIX = "#stablehlo.channel_handle"
    handle: int = 0
    type: int = 0

    def print_body(self) -> str:
        return f"<handle = {self.handle}, type = {self.type}>"

@_frozen
class OutputOperandAliasAttr(_StructAttr):
    """``#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0,
    operand_tuple_indices = []>``."""

    PREFIX = "#stablehlo.output_operand_alias"
    output_tuple_indices: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    operand_index: int = 0
    operand_tuple_indices: tuple[int, ...] = attrs.field(converter=_tuple, default=())

    def print_body(self) -> str:
        return (f"<output_tuple_indices = {dims_text(self.output_tuple_indices)}, operand_index = "
                f"{self.operand_index}, operand_tuple_indices = {dims_text(self.operand_tuple_indices)}>")

@_frozen
class TypeExtensionsAttr(Attr):
    """``#stablehlo.type_extensions<bounds = [4, ?]>``, printed ``#stablehlo.bounds<4, ?>`` (``?`` is ``K_DYNAMIC``)."""

    bounds: tuple[int, ...] = attrs.field(converter=_tuple, default=())

    def print_body(self) -> str:
        return "<" + ", ".join("?" if b == K_DYNAMIC else str(b) for b in self.bounds) + ">"

    def mlir_text(self) -> str:
        return "#stablehlo.bounds" + self.print_body()


@_frozen
class ResultAccuracyAttr(Attr):
    """``#stablehlo.result_accuracy<atol = ..., rtol = ..., ulps = N, mode = #stablehlo.result_accuracy_mode<M>>``;
    ``atol``/``rtol`` are float64 bit patterns, left out of the print when zero (as is ``ulps``)."""

    atol: int = 0
    rtol: int = 0
    ulps: int = 0
    mode: ResultAccuracyModeAttr = ResultAccuracyModeAttr("DEFAULT")

    def print_body(self) -> str:
        out = "<"
        for name, bits in (("atol", self.atol), ("rtol", self.rtol)):
            if bits & ~(1 << 63):
                out += f"{name} = {float_text(bits, 'f64')}, "
        if self.ulps:
            out += f"ulps = {self.ulps}, "
        return out + f"mode = {self.mode}>"

    def verify(self) -> str | None:
        """``verifyResultAccuracyAttr``: the error message, or None when valid."""
        sign = 1 << 63
        if self.atol & sign or self.rtol & sign or self.ulps < 0:
            return "Negative tolerance"
        if self.mode.value in ("DEFAULT", "HIGHEST") and (self.atol & ~sign or self.rtol & ~sign or self.ulps):
            return f"Invalid tolerances for ResultAccuracyAttr with mode {self.mode.value}, must be all zero."
        return None

    def mlir_text(self) -> str:
        return "#stablehlo.result_accuracy" + self.print_body()


_F8_TYPES = frozenset({"f8E3M4", "f8E4M3", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E4M3B11FNUZ", "f8E5M2FNUZ"})
_KNOWN_DOT_ALGORITHMS = frozenset({
    ("f16", "f16", "f16", 1), ("f16", "f16", "f32", 1), ("bf16", "bf16", "bf16", 1), ("bf16", "bf16", "f32", 1),
    ("bf16", "bf16", "f32", 3), ("bf16", "bf16", "f32", 6), ("bf16", "bf16", "f32", 9), ("tf32", "tf32", "f32", 1),
    ("tf32", "tf32", "f32", 3), ("f32", "f32", "f32", 1), ("f64", "f64", "f64", 1)})


@_frozen
class DotAlgorithmAttr(Attr):
    """``#stablehlo.dot_algorithm<lhs_precision_type = tf32, ..., allow_imprecise_accumulation = false>``."""

    lhs_precision_type: Type
    rhs_precision_type: Type
    accumulation_type: Type
    lhs_component_count: int
    rhs_component_count: int
    num_primitive_operations: int
    allow_imprecise_accumulation: bool

    def print_body(self) -> str:
        return (f"<lhs_precision_type = {self.lhs_precision_type}, rhs_precision_type = {self.rhs_precision_type}, "
                f"accumulation_type = {self.accumulation_type}, lhs_component_count = {self.lhs_component_count}, "
                f"rhs_component_count = {self.rhs_component_count}, num_primitive_operations = "
                f"{self.num_primitive_operations}, allow_imprecise_accumulation = "
                f"{'true' if self.allow_imprecise_accumulation else 'false'}>")

    def verify(self) -> str | None:
        """``verifyDotAlgorithmAttr``: the error message, or None for a known algorithm."""
        if self.lhs_component_count < 1:
            return "lhs component count must be positive"
        if self.rhs_component_count < 1:
            return "rhs component count must be positive"
        if self.num_primitive_operations < 1:
            return "num primitive operations must be positive"
        if not self._known():
            return (f"dot algorithm not known to be supported on any hardware: {{lhs:'{self.lhs_precision_type}', "
                    f"rhs:'{self.rhs_precision_type}', accum:'{self.accumulation_type}', lhs_components:"
                    f"{self.lhs_component_count}, rhs_components:{self.rhs_component_count}, primitive_ops:"
                    f"{self.num_primitive_operations}, imprecise:{int(self.allow_imprecise_accumulation)}}}")
        return None

    def _known(self) -> bool:
        """``getKnownDotAlgorithm`` succeeds."""
        if self.lhs_component_count != 1 or self.rhs_component_count != 1:
            return False
        lhs, rhs, acc = (str(t) for t in (self.lhs_precision_type, self.rhs_precision_type, self.accumulation_type))
        if lhs in _F8_TYPES and rhs in _F8_TYPES and acc == "f32" and self.num_primitive_operations == 1:
            return True
        if self.allow_imprecise_accumulation:
            return False
        return (lhs, rhs, acc, self.num_primitive_operations) in _KNOWN_DOT_ALGORITHMS

    def mlir_text(self) -> str:
        return "#stablehlo.dot_algorithm" + self.print_body()


@_frozen
class ConvDimensionNumbersAttr(Attr):
    """``#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`` (``raw`` struct form also read)."""

    input_batch_dimension: int = 0
    input_feature_dimension: int = 0
    input_spatial_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    kernel_input_feature_dimension: int = 0
    kernel_output_feature_dimension: int = 0
    kernel_spatial_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    output_batch_dimension: int = 0
    output_feature_dimension: int = 0
    output_spatial_dimensions: tuple[int, ...] = attrs.field(converter=_tuple, default=())

    def print_body(self) -> str:
        """``printConvolutionDimensions``: ``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]``."""
        def dims(spatial, nonspatial) -> str:
            slots: list[int | str] = [0] * (len(spatial) + len(nonspatial))
            for index, letter in nonspatial:
                if 0 <= index < len(slots):
                    slots[index] = letter
            for i, d in enumerate(spatial):
                if 0 <= d < len(slots):
                    slots[d] = i
            return "[" + ", ".join(map(str, slots)) + "]"
        return (dims(self.input_spatial_dimensions, ((self.input_batch_dimension, "b"),
                                                     (self.input_feature_dimension, "f")))
                + "x" + dims(self.kernel_spatial_dimensions, ((self.kernel_input_feature_dimension, "i"),
                                                              (self.kernel_output_feature_dimension, "o")))
                + "->" + dims(self.output_spatial_dimensions, ((self.output_batch_dimension, "b"),
                                                               (self.output_feature_dimension, "f"))))

    def mlir_text(self) -> str:
        return f"#stablehlo.conv<{self.print_body()}>"


STABLEHLO_ATTR_CLASSES = (*ENUM_CLASSES, GatherDimensionNumbersAttr, ScatterDimensionNumbersAttr,
                          DotDimensionNumbersAttr, RaggedDotDimensionNumbersAttr, ChannelHandleAttr,
                          OutputOperandAliasAttr, TypeExtensionsAttr, ResultAccuracyAttr, DotAlgorithmAttr,
                          ConvDimensionNumbersAttr)

ENUMS_BY_KEY = {(c.DIALECT, c.MNEMONIC): c for c in ENUM_CLASSES}
STRUCTS_BY_KEY = {
    ("stablehlo", "gather"): GatherDimensionNumbersAttr, ("stablehlo", "scatter"): ScatterDimensionNumbersAttr,
    ("stablehlo", "dot"): DotDimensionNumbersAttr, ("chlo", "ragged_dot"): RaggedDotDimensionNumbersAttr,
    ("stablehlo", "channel_handle"): ChannelHandleAttr, ("stablehlo", "output_operand_alias"): OutputOperandAliasAttr,
    ("stablehlo", "result_accuracy"): ResultAccuracyAttr, ("stablehlo", "dot_algorithm"): DotAlgorithmAttr,
}
