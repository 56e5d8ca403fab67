"""Shared fixtures: the example kernels of examples/python and helpers to build them."""

import os
from pathlib import Path

import pytest

import volta_eg as ve

SOURCE = Path(os.environ.get("VOLTA_SOURCE_DIR", Path(__file__).resolve().parents[2]))
KERNELS = SOURCE / "examples" / "python" / "kernels"
ROWS, COLS = 4, 40


def softmax_kernel(name, launch="row", rows=ROWS, **kw):
    grid, block = ((1,), (rows,)) if launch == "row" else ((rows,), (64,))
    args = [ve.In("x", (rows, COLS)), ve.Out("y", (rows, COLS))]
    source = kw.pop("source", None) or {"ptx": KERNELS / f"{name}.ptx"}
    return ve.Kernel(**source, entry=name, grid=grid, block=block, args=args, **kw)


@pytest.fixture
def reference():
    return softmax_kernel("softmax_ref")


@pytest.fixture
def kernels_dir():
    return KERNELS
