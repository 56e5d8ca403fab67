"""What a kernel is launched with: arrays (In, Out, InOut, Zero, Index), scalars (Int, Float, Sym)
and by-value aggregates (Struct)."""

from __future__ import annotations

import math
import numbers
from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ._errors import ManifestError
from ._files import content_file
from ._numpy import numpy

# Element types: name -> (bytes, the numpy dtype of the stored bits or value). bf16 is held as
# its bits (numpy has no bfloat16).
TYPES: Dict[str, Tuple[int, str]] = {
    "f16": (2, "float16"), "bf16": (2, "uint16"), "f32": (4, "float32"), "f64": (8, "float64"),
    "s8": (1, "int8"), "s16": (2, "int16"), "s32": (4, "int32"), "s64": (8, "int64"),
    "u8": (1, "uint8"), "u16": (2, "uint16"), "u32": (4, "uint32"), "u64": (8, "uint64"),
}
_ALIASES = {"float16": "f16", "half": "f16", "bfloat16": "bf16", "float32": "f32",
            "float": "f32", "float64": "f64", "double": "f64", "int8": "s8", "int16": "s16",
            "int32": "s32", "int": "s32", "int64": "s64", "uint8": "u8", "uint16": "u16",
            "uint32": "u32", "uint64": "u64", "i8": "s8", "i16": "s16", "i32": "s32",
            "i64": "s64"}

Shape = Tuple[int, ...]


def dtype_name(dtype: Any) -> str:
    """The element type's name ("f32") of a name, an alias or a numpy dtype."""
    if isinstance(dtype, str):
        word = _ALIASES.get(dtype, dtype)
        if word in TYPES:
            return word
    elif numpy is not None:
        try:
            word = _ALIASES.get(numpy.dtype(dtype).name)
            if word:
                return word
        except TypeError:
            pass
    raise ManifestError(f"unknown dtype {dtype!r} (expected one of {', '.join(TYPES)})")


def is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


class _Array:
    kind = ""

    def __init__(self, name: str, shape: Union[int, Sequence[int]], dtype: Any = "f32"):
        if not isinstance(name, str) or not name:
            raise ManifestError(f"an array needs a name, got {name!r}")
        self.name = name
        try:
            self.shape: Shape = (int(shape),) if is_int(shape) else tuple(int(s) for s in shape)
        except (TypeError, ValueError):
            raise ManifestError(f"array {name}: shape {shape!r} is not a positive shape") from None
        if not self.shape or any(s <= 0 for s in self.shape):
            raise ManifestError(f"array {name}: shape {shape!r} is not a positive shape")
        self.dtype = dtype_name(dtype)

    @property
    def len(self) -> int:
        """The number of elements."""
        return math.prod(self.shape)

    @property
    def width(self) -> int:
        """The bytes of one element."""
        return TYPES[self.dtype][0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {self.shape}, {self.dtype!r})"


class _Input(_Array):
    """An array the kernel reads, with an optional range of its values: `range=(lo, hi)`
    gives the bound on each kernel's rounding error over every input in it
    (docs/semantics.md, "A bound on the rounding error"; Result.rounding_bounds)."""

    def __init__(self, name: str, shape: Union[int, Sequence[int]], dtype: Any = "f32",
                 range: Optional[Tuple[float, float]] = None):  # noqa: A002 (the manifest's word)
        super().__init__(name, shape, dtype)
        self.range: Optional[Tuple[float, float]] = None
        if range is not None:
            try:
                lo, hi = (float(v) for v in range)
            except (TypeError, ValueError):
                raise ManifestError(f"array {name}: range {range!r} is not (lo, hi)") from None
            if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
                raise ManifestError(f"array {name}: range {range!r} is not finite lo <= hi")
            self.range = (lo, hi)


class In(_Input):
    """A symbolic input array: element i is the real-valued symbol NAME[i]."""
    kind = "in"


class Out(_Array):
    """An output array, uninitialized before the kernel runs."""
    kind = "out"


class InOut(_Input):
    """A symbolic input array that the kernel also writes."""
    kind = "inout"


class Zero(_Array):
    """An output array that starts as zeros (as after a memset)."""
    kind = "zero"


class Index(_Array):
    """A concrete index array a[i] = i (gather indices, so that addresses stay concrete)."""
    kind = "index"

    def __init__(self, name: str, shape: Union[int, Sequence[int]], dtype: Any = "s32"):
        super().__init__(name, shape, dtype)


def decimal_text(value: Union[int, float, str, Decimal, Fraction]) -> str:
    if isinstance(value, Fraction):
        raise ManifestError("give a Float as a decimal (a float, str or Decimal), not a Fraction")
    return format(Decimal(repr(value) if isinstance(value, float) else str(value)), "f")


class Int:
    """An integer kernel parameter."""

    def __init__(self, value: int):
        self.value = int(value)

    def param(self) -> str:
        return f"int:{self.value}"


class Float:
    """A floating-point kernel parameter, exactly the decimal given (a float by its repr)."""

    def __init__(self, value: Union[float, str, Decimal]):
        self.value = value
        self.text = decimal_text(value)

    def param(self) -> str:
        return f"float:{self.text}"


class Sym:
    """A symbolic scalar parameter: the proof holds for every real value of it."""

    def __init__(self, name: str):
        self.name = name

    def param(self) -> str:
        return f"sym:{self.name}"


class Field:
    """A typed field of a Struct: `value` is an array (its address), an int or a float."""

    def __init__(self, offset: int, type: str, value: Any):  # noqa: A002 (the manifest's word)
        self.offset, self.type, self.value = int(offset), type, value


class Struct:
    """A by-value aggregate parameter of `size` bytes: raw `bytes`, then typed `fields`."""

    def __init__(self, size: int, fields: Sequence[Union[Field, tuple]] = (),
                 bytes: Optional[bytes] = None):  # noqa: A002 (the manifest's word)
        self.size = int(size)
        self.fields = [f if isinstance(f, Field) else Field(*f) for f in fields]
        self.raw = bytes
        if bytes is not None and len(bytes) != self.size:
            raise ManifestError(f"Struct: bytes= holds {len(bytes)} bytes, the struct is {size}")

    def arrays(self) -> List[_Array]:
        return [f.value for f in self.fields if isinstance(f.value, _Array)]

    def param(self) -> Dict[str, Any]:
        j: Dict[str, Any] = {"struct": self.size}
        if self.raw is not None:
            j["bytes"] = str(content_file(self.raw, ".bin"))
        if self.fields:
            fields = []
            for f in self.fields:
                if isinstance(f.value, _Array):
                    value = f"ptr:{f.value.name}"
                elif isinstance(f.value, float):
                    value = f"float:{decimal_text(f.value)}"
                else:
                    value = f"int:{int(f.value)}"
                fields.append({"offset": f.offset, "type": f.type, "value": value})
            j["fields"] = fields
        return j
