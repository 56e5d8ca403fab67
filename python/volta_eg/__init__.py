"""volta-eg from Python: prove that an optimized GPU kernel computes what its reference computes.

    import volta_eg as ve
    args = [ve.In("A", (64, 64)), ve.In("B", (64, 64)), ve.Out("C", (64, 64))]
    ref = ve.Kernel(ptx="gemm_naive.ptx", grid=(4, 4), block=(16, 16), args=args)
    opt = ve.Kernel(cuda="gemm_tiled.cu", grid=(4, 4), block=(16, 16), args=args)
    print(ve.prove(ref, opt).verdict)          # EQUIVALENT

The engine is the library `volta-eg` is made of (not the command run in a subprocess): entries are
read by the manifest reader, run by the runner `volta-eg prove` uses, and `cache_dir=` is the
folder of the CLI's `--cache DIR`. Base addresses of arrays are assigned here (`Kernel.addresses`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

__all__ = [
    "In", "Out", "InOut", "Zero", "Index", "Int", "Float", "Sym", "Struct", "Field", "Kernel",
    "Pair", "Result", "Counterexample", "prove", "check", "run", "prove_batch", "find_nvcc",
    "VoltaError", "ManifestError", "PTXError", "CudaError", "EmulationError",
]


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
    """A CUDA source that could not be compiled (nvcc absent, or nvcc's errors)."""


class EmulationError(VoltaError, RuntimeError):
    """A concrete run stopped: out of bounds, deadlock, an unsupported instruction, bad input."""


from . import _engine  # noqa: E402  (the exceptions above must exist before it raises them)

# Element types: name -> (bytes, numpy dtype of the stored bits or value).
_TYPES = {
    "f16": (2, np.float16), "bf16": (2, np.uint16), "f32": (4, np.float32),
    "f64": (8, np.float64), "s8": (1, np.int8), "s16": (2, np.int16), "s32": (4, np.int32),
    "s64": (8, np.int64), "u8": (1, np.uint8), "u16": (2, np.uint16), "u32": (4, np.uint32),
    "u64": (8, np.uint64),
}
_ALIASES = {"float16": "f16", "half": "f16", "bfloat16": "bf16", "float32": "f32",
            "float": "f32", "float64": "f64", "double": "f64", "int8": "s8", "int16": "s16",
            "int32": "s32", "int": "s32", "int64": "s64", "uint8": "u8", "uint16": "u16",
            "uint32": "u32", "uint64": "u64", "i8": "s8", "i16": "s16", "i32": "s32",
            "i64": "s64"}


def _dtype_name(dtype: Any) -> str:
    if isinstance(dtype, str):
        word = _ALIASES.get(dtype, dtype)
        if word in _TYPES:
            return word
    else:
        try:
            word = _ALIASES.get(np.dtype(dtype).name)
            if word:
                return word
        except TypeError:
            pass
    raise ManifestError(f"unknown dtype {dtype!r} (expected one of {', '.join(_TYPES)})")


class _Array:
    kind = ""

    def __init__(self, name: str, shape: Union[int, Sequence[int]], dtype: Any = "f32"):
        if not isinstance(name, str) or not name:
            raise ManifestError(f"an array needs a name, got {name!r}")
        self.name = name
        self.shape = (int(shape),) if np.isscalar(shape) else tuple(int(s) for s in shape)
        if not self.shape or any(s <= 0 for s in self.shape):
            raise ManifestError(f"array {name}: shape {shape!r} is not a positive shape")
        self.dtype = _dtype_name(dtype)

    @property
    def len(self) -> int:
        return int(np.prod(self.shape))

    @property
    def width(self) -> int:
        return _TYPES[self.dtype][0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {self.shape}, {self.dtype!r})"


class In(_Array):
    """A symbolic input array: element i is the real-valued symbol NAME[i]."""
    kind = "in"


class Out(_Array):
    """An output array, uninitialized before the kernel runs."""
    kind = "out"


class InOut(_Array):
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


def _decimal(value: Union[int, float, str, Decimal, Fraction]) -> str:
    if isinstance(value, Fraction):
        raise ManifestError("give a Float as a decimal (a float, str or Decimal), not a Fraction")
    text = format(Decimal(repr(value) if isinstance(value, float) else str(value)), "f")
    return text


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
        self.text = _decimal(value)

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

    def __init__(self, offset: int, type: str, value: Any):
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
            j["bytes"] = str(_content_file(self.raw, ".bin"))
        if self.fields:
            fields = []
            for f in self.fields:
                if isinstance(f.value, _Array):
                    value = f"ptr:{f.value.name}"
                elif isinstance(f.value, float):
                    value = f"float:{_decimal(f.value)}"
                else:
                    value = f"int:{int(f.value)}"
                fields.append({"offset": f.offset, "type": f.type, "value": value})
            j["fields"] = fields
        return j


def _scratch_dir() -> Path:
    root = Path(os.environ.get("VOLTA_EG_SCRATCH", Path(tempfile.gettempdir()) /
                               f"volta-eg-{os.getuid()}"))
    root.mkdir(parents=True, exist_ok=True)
    return root


def _content_file(data: Union[bytes, str], suffix: str) -> Path:
    """A file holding `data`, named by its content (so that it is never rewritten under a reader)."""
    raw = data.encode() if isinstance(data, str) else data
    path = _scratch_dir() / (hashlib.sha256(raw).hexdigest()[:32] + suffix)
    if not path.exists():
        tmp = path.with_suffix(suffix + f".{os.getpid()}.tmp")
        tmp.write_bytes(raw)
        os.replace(tmp, path)
    return path


def _dim3(value: Union[int, Sequence[int]], what: str) -> List[int]:
    dims = [int(value)] if np.isscalar(value) else [int(v) for v in value]
    if not 1 <= len(dims) <= 3:
        raise ManifestError(f"{what}: expected 1 to 3 dimensions, got {value!r}")
    return dims + [1] * (3 - len(dims))


_BASE = 0x100000
_ALIGN = 0x10000


def _layout(arrays: Iterable[_Array]) -> Dict[str, int]:
    """Base addresses: in order, 64 KiB aligned, with at least 64 KiB unmapped between arrays
    (an access a little past an array lands in no array: an out-of-bounds finding)."""
    bases: Dict[str, int] = {}
    sizes: Dict[str, int] = {}
    for a in arrays:
        sizes[a.name] = max(sizes.get(a.name, 0), a.len * a.width)
    at = _BASE
    for name, size in sizes.items():
        bases[name] = at
        at = (at + size + _ALIGN - 1) // _ALIGN * _ALIGN + _ALIGN
    return bases


class Kernel:
    """One kernel launch: PTX (a file or its text) or CUDA source, entry, grid, block and the
    arguments in the order of the kernel's parameters.

    Arrays passed in `args` are pointer parameters; `arrays=` declares arrays that are reached
    another way (through a Struct field). `ctas="all"` runs every CTA of the grid, `"first"` CTA
    0 only (Volta's symmetry assumption). CUDA sources are compiled with
    `nvcc -ptx -lineinfo -arch=ARCH` (nvcc on PATH or under CUDA_HOME) and cached by content in
    `cache_dir`/cuda (default: ~/.cache/volta-eg/cuda).
    """

    def __init__(self, ptx: Union[str, Path, None] = None, *, cuda: Union[str, Path, None] = None,
                 entry: Optional[str] = None, grid: Union[int, Sequence[int]] = 1,
                 block: Union[int, Sequence[int]] = 1, args: Sequence[Any] = (),
                 arrays: Sequence[_Array] = (), dynamic_shared: int = 0, ctas: str = "all",
                 globals: Optional[Dict[str, int]] = None,  # noqa: A002 (the manifest's word)
                 arch: str = "sm_80", nvcc_flags: Sequence[str] = (),
                 cache_dir: Union[str, Path, None] = None, name: Optional[str] = None):
        if (ptx is None) == (cuda is None):
            raise ManifestError("Kernel: give either ptx= (a file or PTX text) or cuda= (a .cu file)")
        self.cuda = str(Path(cuda).resolve()) if cuda is not None else None
        if cuda is not None:
            self.ptx_path = _engine.compile_cuda(self.cuda, arch, list(nvcc_flags),
                                                 str(cache_dir) if cache_dir else "")
        elif isinstance(ptx, str) and ("\n" in ptx or ".entry" in ptx):
            self.ptx_path = str(_content_file(ptx, ".ptx"))
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
        self.addresses = _layout(self.arrays.values())

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

    def config(self, addresses: Optional[Dict[str, int]] = None) -> Dict[str, Any]:
        """This launch as a manifest kernel object."""
        bases = addresses or self.addresses
        params: List[Any] = []
        for a in self.args:
            params.append(f"ptr:{a.name}" if isinstance(a, _Array) else a.param())
        return {
            "ptx": self.ptx_path, "entry": self.entry, "grid": self.grid, "block": self.block,
            "ctas": self.ctas, "dyn_shared_bytes": self.dynamic_shared, "globals": self.globals,
            "arrays": [{"name": a.name, "base": bases[a.name], "elem_width": a.width,
                        "len": a.len, "kind": a.kind, "type": a.dtype}
                       for a in self.arrays.values()],
            "params": params,
        }

    def __repr__(self) -> str:
        return f"Kernel({self.name!r}, grid={tuple(self.grid)}, block={tuple(self.block)})"


class Pair:
    """An equivalence entry of a batch: `optimized` must compute what `reference` computes."""

    def __init__(self, reference: Kernel, optimized: Kernel, name: Optional[str] = None,
                 expected: Optional[str] = None, check_arrays: Optional[Sequence[str]] = None):
        self.reference, self.optimized = reference, optimized
        self.name = name or f"({reference.name}, {optimized.name})"
        self.expected = expected
        self.check_arrays = list(check_arrays) if check_arrays else None

    def entry(self) -> Dict[str, Any]:
        bases = _layout([*self.reference.arrays.values(), *self.optimized.arrays.values()])
        e = {"name": self.name, "kind": "equivalence",
             "reference": self.reference.config(bases), "optimized": self.optimized.config(bases)}
        if self.expected:
            e["expected"] = self.expected
        if self.check_arrays:
            e["check_arrays"] = self.check_arrays
        return e

    def shapes(self) -> Dict[str, Tuple[int, ...]]:
        """The shapes of the symbolic input arrays (those a counterexample gives values to)."""
        return {n: a.shape for k in (self.optimized, self.reference) for n, a in k.arrays.items()
                if a.kind in ("in", "inout")}


class _Check:
    def __init__(self, kernel: Kernel, name: Optional[str] = None, expected: Optional[str] = None):
        self.kernel, self.name, self.expected = kernel, name or kernel.name, expected

    def entry(self) -> Dict[str, Any]:
        e = {"name": self.name, "kind": "race_check", "kernel": self.kernel.config()}
        if self.expected:
            e["expected"] = self.expected
        return e

    def shapes(self) -> Dict[str, Tuple[int, ...]]:
        return {n: a.shape for n, a in self.kernel.arrays.items() if a.kind in ("in", "inout")}


_ELEMENT = re.compile(r"^(.*)\[(\d+)\]$")


def _exact(text: str) -> Union[Fraction, str]:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return text


class Counterexample:
    """Inputs on which the two kernels differ (every input not listed is 0), the element that
    differs, its value in each kernel over the reals, and what each stores on the emulator."""

    def __init__(self, j: Dict[str, Any], shapes: Dict[str, Tuple[int, ...]]):
        self.element: str = j["element"]
        self.reference_value: str = j["reference_value"]
        self.optimized_value: str = j["optimized_value"]
        self.reference_device: Optional[str] = j.get("reference_device")
        self.optimized_device: Optional[str] = j.get("optimized_device")
        self.device_note: Optional[str] = j.get("device_note")
        self.confirmed: bool = j.get("confirmed", False)
        # {array: {flat index: exact value}} and {symbol: exact value} for scalar symbols.
        self.values: Dict[str, Any] = {}
        for key, text in j.get("inputs", {}).items():
            m = _ELEMENT.match(key)
            if m:
                self.values.setdefault(m.group(1), {})[int(m.group(2))] = _exact(text)
            else:
                self.values[key] = _exact(text)
        # Every input array as numpy (float64, shaped as declared); scalars as exact values.
        self.inputs: Dict[str, Any] = {}
        for name, shape in shapes.items():
            a = np.zeros(int(np.prod(shape)), dtype=np.float64)
            for i, x in self.values.get(name, {}).items():
                a[i] = float(x) if isinstance(x, Fraction) else np.nan
            self.inputs[name] = a.reshape(shape)
        for name, v in self.values.items():
            if name not in self.inputs:
                self.inputs[name] = v

    def __repr__(self) -> str:
        return (f"Counterexample({self.element}: {self.reference_value} (reference) vs "
                f"{self.optimized_value} (optimized))")


class Result:
    """The outcome of one entry; `report()` is its object in the CLI's JSON report."""

    def __init__(self, j: Dict[str, Any], shapes: Dict[str, Tuple[int, ...]],
                 index: int = 0, cache: Optional[Dict[str, int]] = None):
        self._json = j
        self.index = index
        self.name: str = j.get("name", "")
        self.verdict: str = j["verdict"]
        self.expected: Optional[str] = j.get("expected")
        self.detail: str = j.get("detail", "")
        self.seconds: float = j.get("seconds", 0.0)
        self.elements: Dict[str, int] = dict(j.get("elements") or {})
        cx = j.get("counterexample")
        self.counterexample: Optional[Counterexample] = Counterexample(cx, shapes) if cx else None
        self.safety: Optional[Dict[str, Any]] = j.get("safety")
        self.kernels: List[Dict[str, Any]] = list(j.get("kernels") or [])
        # The emulator cross-check of an EQUIVALENT (the report's `cross_check` object: ran,
        # inputs, elements, notes, the per-array divergence, the contradiction of an
        # INCONSISTENT); None when it did not run (another verdict, or cross_check=False).
        self.cross_check: Optional[Dict[str, Any]] = j.get("cross_check")
        self.cache: Dict[str, int] = dict(cache or {})

    @property
    def ok(self) -> bool:
        """EQUIVALENT or RACE_FREE (or, with an expected verdict, that one); never INCONSISTENT
        (the emulator contradicts the proof: a bug of volta-eg)."""
        if self.verdict == "INCONSISTENT":
            return False
        if self.expected:
            return self.verdict == self.expected
        return self.verdict in ("EQUIVALENT", "RACE_FREE")

    @property
    def executed(self) -> List[str]:
        """The roles of the kernels executed by this entry (not read from the cache)."""
        return [k["role"] for k in self.kernels if not k.get("cached")]

    def report(self) -> Dict[str, Any]:
        return json.loads(json.dumps(self._json))

    def __repr__(self) -> str:
        tail = f": {self.detail}" if self.detail else ""
        return f"<Result {self.name} {self.verdict} {self.seconds:.3f}s{tail}>"


class _Guards:
    KEYS = ("cache_dir", "timeout", "max_instructions", "max_terms", "z3_timeout_ms", "z3",
            "mutual", "reuse", "cross_check", "strict_races")

    @staticmethod
    def settings(jobs: int, guards: Dict[str, Any]) -> "_engine.Settings":
        unknown = set(guards) - set(_Guards.KEYS)
        if unknown:
            raise TypeError(f"unknown option(s) {', '.join(sorted(unknown))} "
                            f"(known: {', '.join(_Guards.KEYS)})")
        s = _engine.Settings()
        s.jobs = int(jobs)
        for key, value in guards.items():
            if value is None:
                continue
            setattr(s, key, str(value) if key == "cache_dir" else value)
        return s


def _entries_of(items: Sequence[Any]) -> List[Any]:
    out = []
    for item in items:
        if isinstance(item, (Pair, _Check)):
            out.append(item)
        elif isinstance(item, Kernel):
            out.append(_Check(item))
        elif isinstance(item, tuple) and 2 <= len(item) <= 3:
            out.append(Pair(item[0], item[1], expected=item[2] if len(item) == 3 else None))
        else:
            raise ManifestError(f"prove_batch: {item!r} is not a Pair, a (reference, optimized"
                                "[, expected]) tuple or a Kernel")
    names: Dict[str, int] = {}
    for e in out:  # entry names are unique in a manifest
        n = names[e.name] = names.get(e.name, 0) + 1
        if n > 1:
            e.name = f"{e.name}#{n}"
    return out


_ENTRY_PATH = re.compile(r"\$\.benchmarks\[(\d+)\]\.?")


def _parse(entries: List[Any], cache_dir: Optional[str] = None) -> "_engine.EntrySet":
    text = json.dumps({"benchmarks": [e.entry() for e in entries]})
    try:
        return _engine.parse_entries(text, "<volta_eg>", str(cache_dir or ""))
    except ManifestError as e:
        # The JSON path of a value names the entry by its position in JSON the user never saw:
        # name it by the entry's name ("(softmax_ref, cand) reference.block: ...").
        def by_name(m: "re.Match[str]") -> str:
            i = int(m.group(1))
            return f"{entries[i].name} " if i < len(entries) else m.group(0)
        message = _ENTRY_PATH.sub(by_name, e.message)
        raise ManifestError(message, e.file if e.file != "<volta_eg>" else None, e.line,
                            e.column) from None


def prove_batch(entries: Union[Sequence[Any], str, Path], jobs: int = 1,
                **guards: Any) -> Iterator[Result]:
    """Runs a batch, yielding each Result as it finishes (`.index`: its position in `entries`).

    `entries`: Pairs, (reference, optimized[, expected]) tuples and Kernels (race checks), or the
    path of a manifest file. Options: cache_dir (the CLI's --cache DIR), timeout (seconds per
    entry), max_instructions, max_terms, z3_timeout_ms, z3, mutual, reuse, cross_check (False:
    the CLI's --no-cross-check), strict_races (True: the CLI's --strict-races). Closing the iterator,
    or Ctrl-C while it waits, cancels the entries still running.
    """
    settings = _Guards.settings(jobs, guards)
    if isinstance(entries, (str, Path)):
        entry_set = _engine.read_manifest(str(entries))
        shapes_of: List[Dict[str, Tuple[int, ...]]] = [{} for _ in range(len(entry_set))]
    else:
        items = _entries_of(entries)
        if not items:
            return iter(())
        entry_set = _parse(items, guards.get("cache_dir"))
        shapes_of = [e.shapes() for e in items]
    batch = _engine.Batch(entry_set, list(range(len(entry_set))), settings)
    return _stream(batch, shapes_of)


def _stream(batch: "_engine.Batch", shapes_of: List[Dict[str, Tuple[int, ...]]]) -> Iterator[Result]:
    try:
        while True:
            try:
                item = batch.next(0.05)  # short waits: Ctrl-C is delivered between them
            except StopIteration:
                return
            if item is not None:
                index, text = item
                yield Result(json.loads(text), shapes_of[index], index, batch.cache_stats())
    finally:
        batch.cancel()
        batch.join()


def _one(entry: Any, guards: Dict[str, Any]) -> Result:
    results = list(prove_batch([entry], jobs=1, **guards))
    return results[0]


def prove(reference: Kernel, optimized: Kernel, *, expected: Optional[str] = None,
          check_arrays: Optional[Sequence[str]] = None, name: Optional[str] = None,
          **guards: Any) -> Result:
    """Whether `optimized` computes what `reference` computes, for every input (over the reals),
    with the safety checks of both on the way. Options as for prove_batch."""
    return _one(Pair(reference, optimized, name=name, expected=expected,
                     check_arrays=check_arrays), guards)


def check(kernel: Kernel, *, expected: Optional[str] = None, **guards: Any) -> Result:
    """The safety check of one kernel: RACE_FREE, or a race, out-of-bounds access, deadlock,
    barrier divergence or uninitialized output with where it happens."""
    return _one(_Check(kernel, expected=expected), guards)


def _to_bf16_bits(values: np.ndarray) -> np.ndarray:
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # nearest, ties to even
    return rounded.astype(np.uint16)


def run(kernel: Kernel, inputs: Dict[str, Any], max_instructions: int = 0) -> Dict[str, np.ndarray]:
    """Runs `kernel` on the bit-exact emulator (IEEE arithmetic, no GPU): `inputs` gives every
    In/InOut array (any array-like of its shape) and every Sym's value; returns every output
    array (Out, InOut, Zero), shaped. bf16 arrays come back as float32 values."""
    entry_set = _parse([_Check(kernel)])
    arrays: Dict[str, bytes] = {}
    symbols: Dict[str, float] = {}
    sym_names = {a.name for a in kernel.args if isinstance(a, Sym)}
    for name, value in inputs.items():
        if name in sym_names:
            symbols[name] = float(value)
            continue
        a = kernel.arrays.get(name)
        if a is None:
            raise ManifestError(f"run: {kernel.name} has no array or Sym named {name!r}")
        data = np.asarray(value)
        if data.size != a.len:
            raise ManifestError(f"run: {name} has {data.size} elements, the kernel's array {a.len}"
                                f" (shape {a.shape})")
        if a.dtype == "bf16":
            raw = _to_bf16_bits(data.ravel()) if data.dtype != np.uint16 else data.ravel()
        else:
            raw = data.ravel().astype(_TYPES[a.dtype][1])
        arrays[name] = np.ascontiguousarray(raw).astype(raw.dtype.newbyteorder("<")).tobytes()
    missing = [a.name for a in kernel.arrays.values()
               if a.kind in ("in", "inout") and a.name not in arrays]
    missing += sorted(sym_names - set(symbols))
    if missing:
        raise ManifestError(f"run: no value for {', '.join(missing)}")
    out = _engine.emulate(entry_set, 0, "kernel", arrays, symbols, int(max_instructions))
    result: Dict[str, np.ndarray] = {}
    for name, (type_name, raw, _written) in out.items():
        values = np.frombuffer(raw, dtype=np.dtype(_TYPES[type_name][1]).newbyteorder("<"))
        if type_name == "bf16":
            values = (values.astype(np.uint32) << 16).view(np.float32)
        shape = kernel.arrays[name].shape if name in kernel.arrays else (values.size,)
        result[name] = values.astype(values.dtype.newbyteorder("=")).reshape(shape).copy()
    return result


def find_nvcc() -> Optional[str]:
    """The nvcc CUDA sources are compiled with (PATH, then $CUDA_HOME/bin/nvcc), or None."""
    return _engine.find_nvcc()
