"""Kernel: one launch of a PTX or CUDA kernel, with its arguments and the arrays' base addresses."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from . import _engine
from ._args import Float, Int, Struct, Sym, _Array, is_int
from ._errors import CudaError, ManifestError, PTXError
from ._files import content_file


def _dim3(value: Union[int, Sequence[int]], what: str) -> List[int]:
    dims = [int(value)] if is_int(value) else [int(v) for v in value]
    if not 1 <= len(dims) <= 3:
        raise ManifestError(f"{what}: expected 1 to 3 dimensions, got {value!r}")
    return dims + [1] * (3 - len(dims))


_BASE = 0x100000
_ALIGN = 0x10000


def layout(arrays: Iterable[_Array]) -> Dict[str, int]:
    """Base addresses: in order, 64 KiB aligned, with at least 64 KiB unmapped between arrays
    (an access a little past an array lands in no array: an out-of-bounds finding)."""
    sizes: Dict[str, int] = {}
    for a in arrays:
        sizes[a.name] = max(sizes.get(a.name, 0), a.len * a.width)
    bases: Dict[str, int] = {}
    at = _BASE
    for name, size in sizes.items():
        bases[name] = at
        at = (at + size + _ALIGN - 1) // _ALIGN * _ALIGN + _ALIGN
    return bases


def _cuda_file(cuda: Union[str, Path]) -> str:
    """The .cu file `cuda=` names, or a CudaError that says what cuda= takes."""
    text = str(cuda)
    if "\n" in text or "__global__" in text:
        raise CudaError("Kernel: cuda= takes the path of a .cu file, and this is CUDA source "
                        "text: give it as cuda_source=")
    path = Path(cuda)
    try:
        why = None if path.is_file() else "is a folder" if path.is_dir() else "no such file"
    except (OSError, ValueError) as e:  # a name too long, a NUL byte
        why = str(e)
    if why:
        raise CudaError(f"{text}: error: {why} (Kernel's cuda= takes the path of a .cu file; "
                        "CUDA source text goes in cuda_source=)", text)
    return str(path.resolve())


class Kernel:
    """One kernel launch: PTX (a file or its text) or CUDA source (a .cu file, or its text), entry,
    grid, block and the arguments in the order of the kernel's parameters.

    Give exactly one of `ptx=` (a PTX file, or PTX text), `cuda=` (the path of a .cu file) and
    `cuda_source=` (CUDA source text, kept in a file named by its content). Arrays passed in
    `args` are pointer parameters; `arrays=` declares arrays that are reached another way
    (through a Struct field). `ctas="all"` runs every CTA of the grid, `"first"` CTA 0 only
    (Volta's symmetry assumption). CUDA sources are compiled with
    `nvcc -ptx -lineinfo -arch=ARCH` (nvcc on PATH or under CUDA_HOME) and cached by content in
    `cache_dir`/cuda (default: ~/.cache/volta-eg/cuda).
    """

    def __init__(self, ptx: Union[str, Path, None] = None, *, cuda: Union[str, Path, None] = None,
                 cuda_source: Optional[str] = None,
                 entry: Optional[str] = None, grid: Union[int, Sequence[int]] = 1,
                 block: Union[int, Sequence[int]] = 1, args: Sequence[Any] = (),
                 arrays: Sequence[_Array] = (), dynamic_shared: int = 0, ctas: str = "all",
                 globals: Optional[Dict[str, int]] = None,  # noqa: A002 (the manifest's word)
                 arch: str = "sm_80", nvcc_flags: Sequence[str] = (),
                 cache_dir: Union[str, Path, None] = None, name: Optional[str] = None):
        given = [k for k, v in (("ptx", ptx), ("cuda", cuda), ("cuda_source", cuda_source))
                 if v is not None]
        if len(given) != 1:
            raise ManifestError("Kernel: give exactly one of ptx= (a file or PTX text), cuda= (a "
                                ".cu file) and cuda_source= (CUDA source text)"
                                + (f", not {' and '.join(given)}" if given else ""))
        if cuda_source is not None and not isinstance(cuda_source, str):
            raise ManifestError(f"Kernel: cuda_source= takes CUDA source text (a str), got "
                                f"{type(cuda_source).__name__}")
        self.cuda: Optional[str] = None
        if cuda_source is not None:
            self.cuda = str(content_file(cuda_source, ".cu"))
        elif cuda is not None:
            self.cuda = _cuda_file(cuda)
        if self.cuda is not None:
            self.ptx_path = _engine.compile_cuda(self.cuda, arch, list(nvcc_flags),
                                                 str(cache_dir) if cache_dir else "")
        elif isinstance(ptx, str) and ("\n" in ptx or ".entry" in ptx):
            self.ptx_path = str(content_file(ptx, ".ptx"))
        else:
            self.ptx_path = str(Path(ptx).resolve())
        self.entry = self._entry_named(entry) if entry else self._only_entry()
        self.grid = _dim3(grid, "grid")
        self.block = _dim3(block, "block")
        if ctas not in ("all", "first"):
            raise ManifestError(f'Kernel: ctas must be "all" or "first", got {ctas!r}')
        self.ctas = ctas
        self.dynamic_shared = int(dynamic_shared)
        self.globals = dict(globals or {})
        self.args = list(args)
        self.name = name or self.entry
        declared: Dict[str, _Array] = {}
        for a in [*self.args, *arrays, *[x for s in self.args if isinstance(s, Struct)
                                         for x in s.arrays()]]:
            if isinstance(a, _Array):
                other = declared.setdefault(a.name, a)
                if other is not a and (other.shape, other.dtype, other.kind) != (a.shape, a.dtype,
                                                                                  a.kind):
                    raise ManifestError(f"Kernel {self.name}: two different arrays named {a.name}")
            elif not isinstance(a, (Int, Float, Sym, Struct)):
                raise ManifestError(f"Kernel {self.name}: argument {a!r} is not an array, Int, "
                                    "Float, Sym or Struct")
        self.arrays: Dict[str, _Array] = declared
        self.addresses = layout(self.arrays.values())

    def _entries(self) -> List[str]:
        try:
            text = Path(self.ptx_path).read_text(errors="replace")
        except OSError as e:
            raise PTXError(f"{self.ptx_path}: error: cannot read PTX: {e.strerror}",
                           self.ptx_path) from None
        return re.findall(r"\.entry\s+([A-Za-z_$][\w$]*)", text)

    def _entry_named(self, entry: str) -> str:
        """`entry`, or the one C++-mangled kernel of that name (`softmax` -> `_Z7softmaxPKfPfi`)."""
        entries = self._entries()
        if entry in entries:
            return entry
        mangled = [e for e in entries if e.startswith(f"_Z{len(entry)}{entry}")]
        return mangled[0] if len(mangled) == 1 else entry

    def _only_entry(self) -> str:
        entries = self._entries()
        if len(entries) != 1:
            raise ManifestError(f"{self.ptx_path}: {len(entries)} kernels in this PTX "
                                f"({', '.join(entries) or 'none'}): say which with entry=",
                                self.ptx_path)
        return entries[0]

    def symbols(self) -> List[str]:
        """The names of the symbolic scalar parameters (Sym)."""
        return [a.name for a in self.args if isinstance(a, Sym)]

    def config(self, addresses: Optional[Dict[str, int]] = None) -> Dict[str, Any]:
        """This launch as a manifest kernel object."""
        bases = addresses or self.addresses
        params: List[Any] = []
        for a in self.args:
            params.append(f"ptr:{a.name}" if isinstance(a, _Array) else a.param())
        return {
            "ptx": self.ptx_path, "entry": self.entry, "grid": self.grid, "block": self.block,
            "ctas": self.ctas, "dyn_shared_bytes": self.dynamic_shared, "globals": self.globals,
            "arrays": [dict({"name": a.name, "base": bases[a.name], "elem_width": a.width,
                             "len": a.len, "kind": a.kind, "type": a.dtype},
                            **({"range": list(a.range)} if getattr(a, "range", None) else {}))
                       for a in self.arrays.values()],
            "params": params,
        }

    def __repr__(self) -> str:
        return f"Kernel({self.name!r}, grid={tuple(self.grid)}, block={tuple(self.block)})"
