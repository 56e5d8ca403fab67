"""The exceptions and warnings of volta_eg (the compiled engine raises the errors by name)."""

from __future__ import annotations

from typing import Optional


class VoltaError(Exception):
    """A problem with the input, located: `file`, `line`, `column` (None when unknown)."""

    def __init__(self, message: str, file: Optional[str] = None, line: Optional[int] = None,
                 column: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column


class ManifestError(VoltaError, ValueError):
    """A kernel description (or manifest) that cannot be used: its message names the value."""


class PTXError(VoltaError, ValueError):
    """PTX that does not parse or lower: `file:line:column: error: ...`."""


class CudaError(VoltaError, RuntimeError):
    """A CUDA source that could not be compiled (no such file, nvcc absent, or nvcc's errors)."""


class EmulationError(VoltaError, RuntimeError):
    """A concrete run stopped: out of bounds, deadlock, an unsupported instruction, bad input."""


class ArrayMismatchWarning(UserWarning):
    """The two kernels of a pair declare arrays that do not correspond: an array of one kernel
    that the other lacks (arrays are matched by name: a renamed input is another input), or one
    array declared with two shapes or two kinds. `warnings.simplefilter("error",
    ArrayMismatchWarning)` makes it an error. (Two dtypes or two sizes for one name is always an
    error: ManifestError.)"""
