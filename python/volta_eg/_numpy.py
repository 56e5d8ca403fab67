"""numpy is optional: prove, check, explain and prove_batch work without it; `run` (arrays in and
out) and `Counterexample.inputs` (the inputs as arrays) need it and say so."""

from __future__ import annotations

from typing import Any

try:
    import numpy
except ImportError:  # numpy is an optional dependency (`pip install volta-eg[numpy]`)
    numpy = None


def require(what: str) -> Any:
    """The numpy module, or an ImportError naming `what` needs it."""
    if numpy is None:
        raise ImportError(f"volta_eg: {what} needs numpy, which this Python does not have "
                          "(pip install numpy; everything else in volta_eg works without it)")
    return numpy
