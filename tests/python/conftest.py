"""Shared fixtures: the example kernels of examples/python and helpers to build them."""

import os
from pathlib import Path

import pytest

import volta_eg as ve

SOURCE = Path(os.environ.get("VOLTA_SOURCE_DIR", Path(__file__).resolve().parents[2]))
KERNELS = SOURCE / "examples" / "python" / "kernels"
ROWS, COLS = 4, 40

# tests/python/venv_install.py runs these tests against an installed package: make sure that it
# is the one imported (not a build tree's, through PYTHONPATH or a .pth file).
_INSTALLED_IN = os.environ.get("VOLTA_EG_INSTALLED_IN")
assert not _INSTALLED_IN or Path(ve.__file__).resolve().is_relative_to(
    Path(_INSTALLED_IN).resolve()), f"volta_eg imported from {ve.__file__}, not {_INSTALLED_IN}"


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
