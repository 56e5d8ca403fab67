"""volta-eg from Python: prove that an optimized GPU kernel computes what its reference computes.

    import volta_eg as ve
    args = [ve.In("A", (64, 64)), ve.In("B", (64, 64)), ve.Out("C", (64, 64))]
    ref = ve.Kernel(ptx="gemm_naive.ptx", grid=(4, 4), block=(16, 16), args=args)
    opt = ve.Kernel(cuda="gemm_tiled.cu", grid=(4, 4), block=(16, 16), args=args)
    print(ve.prove(ref, opt).verdict)          # EQUIVALENT

The engine is the library `volta-eg` is made of (not the command run in a subprocess): entries are
read by the manifest reader, run by the runner `volta-eg prove` uses, and `cache_dir=` is the
folder of the CLI's `--cache DIR`. Base addresses of arrays are assigned here (`Kernel.addresses`).

numpy is optional: `run` and `Counterexample.inputs` need it (and say so); prove, check,
prove_batch and explain do not. docs/python.md documents everything.
"""

from __future__ import annotations

# The exceptions first: the compiled engine raises them by name (volta_eg.PTXError, ...).
from ._errors import (ArrayMismatchWarning, CudaError, EmulationError, ManifestError, PTXError,
                      VoltaError)
from ._version import __version__
from ._args import Field, Float, In, Index, InOut, Int, Out, Struct, Sym, Zero
from ._kernel import Kernel
from ._results import Counterexample, Explanation, Result
from ._api import Pair, check, explain, find_nvcc, prove, prove_batch, run

__all__ = [
    "In", "Out", "InOut", "Zero", "Index", "Int", "Float", "Sym", "Struct", "Field", "Kernel",
    "Pair", "Result", "Counterexample", "Explanation", "prove", "check", "run", "prove_batch",
    "explain", "find_nvcc", "VoltaError", "ManifestError", "PTXError", "CudaError",
    "EmulationError", "ArrayMismatchWarning", "__version__",
]

# Tracebacks and help() name the public classes by the package, not its private modules.
for _name in __all__:
    _obj = globals()[_name]
    if isinstance(_obj, type) or callable(_obj):
        _obj.__module__ = __name__
del _name, _obj
