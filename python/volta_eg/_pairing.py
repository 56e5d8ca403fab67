"""Whether the two kernels of a pair declare corresponding arrays. The engine matches arrays by
name: an array of the reference and one of the optimized kernel with the same name are one
array (one base address, compared element by element). So a renamed input is a second, unrelated
input (the counterexample is then meaningless), and one name declared with two sizes describes
no single problem (an `Out` of another size was proved EQUIVALENT)."""

from __future__ import annotations

import sys
import warnings
from typing import List

from ._args import _Array
from ._errors import ArrayMismatchWarning, ManifestError

# Arrays that commonly belong to one kernel only: scratch space and index tables.
_ONE_SIDED_KINDS = ("zero", "index")
# Kinds that describe the same data on entry (an input the optimized kernel updates in place).
_SAME_INPUT = {"in", "inout"}


def _describe(a: _Array) -> str:
    return f"{type(a).__name__}({a.name!r}, {a.shape}, {a.dtype!r})"


def _caller_stacklevel() -> int:
    """The stack level of the first frame outside volta_eg (the user's call)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("volta_eg"):
        frame, level = frame.f_back, level + 1
    return level


def check_correspondence(reference, optimized, name: str) -> None:
    """Raises ManifestError for one array name with two dtypes or sizes; warns
    (ArrayMismatchWarning) for an array in one kernel only, or declared with two shapes of one
    size or two kinds."""
    ref, opt = reference.arrays, optimized.arrays
    errors: List[str] = []
    notes: List[str] = []
    for n in ref.keys() & opt.keys():
        a, b = ref[n], opt[n]
        if a.dtype != b.dtype or a.len != b.len:
            errors.append(f"{n} is {_describe(a)} in the reference and {_describe(b)} in the "
                          "optimized kernel")
        elif a.shape != b.shape:
            notes.append(f"{n} has shape {a.shape} in the reference and {b.shape} in the "
                         "optimized kernel")
        if a.kind != b.kind and {a.kind, b.kind} != _SAME_INPUT:
            notes.append(f"{n} is {type(a).__name__} in the reference and {type(b).__name__} in "
                         "the optimized kernel")
    if errors:
        raise ManifestError(f"pair {name}: arrays are matched by name, and "
                            + "; ".join(sorted(errors)))
    for side, mine, other in (("reference", ref, opt), ("optimized kernel", optimized.arrays, ref)):
        lone = sorted(n for n, a in mine.items()
                      if n not in other and a.kind not in _ONE_SIDED_KINDS)
        if lone:
            notes.append(f"the {side} has {', '.join(_describe(mine[n]) for n in lone)} that the "
                         "other kernel lacks")
    if notes:
        warnings.warn(f"pair {name}: the kernels' arrays do not correspond ("
                      + "; ".join(notes) + "): arrays are matched by name, so a renamed array is "
                      "another array", ArrayMismatchWarning, stacklevel=_caller_stacklevel())
