"""The functions: prove, check, prove_batch (the runner `volta-eg prove` uses), explain (`volta-eg
explain`), run (the bit-exact emulator) and find_nvcc."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import _engine, _numpy
from ._args import TYPES, _Array
from ._errors import ManifestError
from ._kernel import Kernel, layout
from ._pairing import check_correspondence
from ._results import Counterexample, Explanation, Result, Shapes


def _tolerance_dict(t: Optional[Dict[str, float]]) -> Optional[Dict[str, float]]:
    """A float tolerance as the manifest's "float_tolerance" object: {"rel": R, "abs": A}
    (either or both; the manifest reader checks the values and says where one is wrong)."""
    if t is None:
        return None
    if not isinstance(t, dict):
        raise TypeError(f"float_tolerance: expected a dict {{'rel': R, 'abs': A}}, got {t!r}")
    return dict(t)


class Pair:
    """An equivalence entry of a batch: `optimized` must compute what `reference` computes.

    Arrays are matched by name: a name declared with two dtypes or sizes is a ManifestError; an
    array in one kernel only (a renamed input), or one declared with two shapes or kinds, is an
    ArrayMismatchWarning (Zero and Index arrays may belong to one kernel: scratch space).
    """

    def __init__(self, reference: Kernel, optimized: Kernel, name: Optional[str] = None,
                 expected: Optional[str] = None, check_arrays: Optional[Sequence[str]] = None,
                 float_tolerance: Optional[Dict[str, float]] = None):
        self.reference, self.optimized = reference, optimized
        self.float_tolerance = _tolerance_dict(float_tolerance)
        self.name = name or f"({reference.name}, {optimized.name})"
        self.expected = expected
        self.check_arrays = list(check_arrays) if check_arrays else None
        check_correspondence(reference, optimized, self.name)

    def entry(self) -> Dict[str, Any]:
        bases = layout([*self.reference.arrays.values(), *self.optimized.arrays.values()])
        e = {"name": self.name, "kind": "equivalence",
             "reference": self.reference.config(bases), "optimized": self.optimized.config(bases)}
        if self.expected:
            e["expected"] = self.expected
        if self.check_arrays:
            e["check_arrays"] = self.check_arrays
        if self.float_tolerance is not None:
            e["float_tolerance"] = self.float_tolerance
        return e

    def shapes(self) -> Shapes:
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

    def shapes(self) -> Shapes:
        return {n: a.shape for n, a in self.kernel.arrays.items() if a.kind in ("in", "inout")}


class _Guards:
    KEYS = ("cache_dir", "timeout", "max_instructions", "max_terms", "z3_timeout_ms", "z3",
            "mutual", "reuse", "cross_check", "strict_races", "assume_converged_waits",
            "float_tolerance")

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
            if key == "float_tolerance":  # the CLI's --float-tolerance rel=R,abs=A
                t = _tolerance_dict(value) or {}
                value = ",".join(f"{k}={float(v)!r}" for k, v in t.items())
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
    the CLI's --no-cross-check), strict_races (True: the CLI's --strict-races),
    assume_converged_waits (True: the CLI's --assume-converged-waits), float_tolerance
    ({"rel": R, "abs": A}: the CLI's --float-tolerance, for every pair without its own; a Pair's
    float_tolerance= or a manifest entry's "float_tolerance" wins). Closing the
    iterator, or Ctrl-C while it waits, cancels the entries still running.
    """
    settings = _Guards.settings(jobs, guards)
    if isinstance(entries, (str, Path)):
        entry_set = _engine.read_manifest(str(entries))
        shapes_of: List[Shapes] = [{} for _ in range(len(entry_set))]
    else:
        items = _entries_of(entries)
        if not items:
            return iter(())
        entry_set = _parse(items, guards.get("cache_dir"))
        shapes_of = [e.shapes() for e in items]
    batch = _engine.Batch(entry_set, list(range(len(entry_set))), settings)
    return _stream(batch, shapes_of)


def _stream(batch: "_engine.Batch", shapes_of: List[Shapes]) -> Iterator[Result]:
    try:
        while True:
            try:
                item = batch.next(0.05)  # short waits: Ctrl-C is delivered between them
            except StopIteration:
                return
            if item is not None:
                index, text = item
                yield Result.from_report(json.loads(text), shapes_of[index], index,
                                         batch.cache_stats())
    finally:
        batch.cancel()
        batch.join()


def _one(entry: Any, guards: Dict[str, Any]) -> Result:
    results = list(prove_batch([entry], jobs=1, **guards))
    return results[0]


def prove(reference: Kernel, optimized: Kernel, *, expected: Optional[str] = None,
          check_arrays: Optional[Sequence[str]] = None, name: Optional[str] = None,
          float_tolerance: Optional[Dict[str, float]] = None, **guards: Any) -> Result:
    """Whether `optimized` computes what `reference` computes, for every input (over the reals),
    with the safety checks of both on the way. Options as for prove_batch. Arrays are matched by
    name (see Pair). float_tolerance={"rel": R, "abs": A}: an EQUIVALENT whose stores on the
    emulator are further apart than A + R * |reference| is not ok (result.float_error says how far
    apart they are, with or without a tolerance)."""
    return _one(Pair(reference, optimized, name=name, expected=expected,
                     check_arrays=check_arrays, float_tolerance=float_tolerance), guards)


def check(kernel: Kernel, *, expected: Optional[str] = None, **guards: Any) -> Result:
    """The safety check of one kernel: RACE_FREE, or a race, out-of-bounds access, deadlock,
    barrier divergence or uninitialized output with where it happens."""
    return _one(_Check(kernel, expected=expected), guards)


def _explanation_text(x: Explanation) -> str:
    """The console output of `volta-eg explain --color never` for `x`."""
    lines = [f"{x.name}  {x.element}"]
    if x.stopped:
        lines += ["  the entry ends before its elements are compared: " + x.verdict,
                  f"    {x.detail}"]
        return "\n".join(lines) + "\n"
    lines += [f"  {line}" for line in x.values]
    if x.verdict == "EQUIVALENT":
        lines.append(f"  EQUIVALENT ({x.how})")
        if x.rules_used:
            lines.append("  rules that fired: " + ", ".join(x.rules_used))
    elif x.verdict == "NOT_EQUIVALENT":
        lines.append("  NOT_EQUIVALENT")
        cx = x.counterexample
        if cx is not None:
            inputs = ", ".join(f"{k}={v}" for k, v in x._inputs_in_order)
            lines.append(f"  counterexample: {inputs or 'all inputs 0'} (every other input 0): "
                         f"{cx.reference_value} (reference) vs {cx.optimized_value} (optimized)"
                         + (", confirmed by exact evaluation" if cx.confirmed else ""))
    else:
        lines.append(f"  UNKNOWN: {x.reason}")
    if x.steps:
        shown = (f", the first {len(x.steps)} shown" if x.total_steps > len(x.steps) else "")
        lines.append(f"  rewrite chain from the reference to the optimized value "
                     f"({x.total_steps} step{'' if x.total_steps == 1 else 's'}{shown}):")
        lines += [f"  {s}" for s in x.steps]
        lines.append(f"  checker: {x.check}")
    elif x.note:
        lines.append(f"  {x.note}")
    return "\n".join(lines) + "\n"


def explain(reference: Kernel, optimized: Kernel, element: str, *, steps: int = 60,
            z3: bool = True, z3_timeout_ms: int = 10_000, name: Optional[str] = None
            ) -> Explanation:
    """How one output element ("y[5]") of a pair is decided, as `volta-eg explain` shows it: the
    e-graph's rewrite chain (replayed by the explanation checker) for an EQUIVALENT element, the
    counterexample for a NOT_EQUIVALENT one, the reason for an UNKNOWN one; or the entry's
    verdict when it ends before its elements are compared (a race, out of bounds...).
    `str(explanation)` is the CLI's text. An element the kernels do not store is a
    ManifestError. Not interruptible by Ctrl-C (it runs one element)."""
    pair = Pair(reference, optimized, name=name)
    entry_set = _parse([pair])
    d = _engine.explain(entry_set, 0, str(element), int(steps), bool(z3), int(z3_timeout_ms))
    x = Explanation(name=pair.name, element=d["element"], verdict="")
    if d["stopped"] is not None:
        x.verdict, x.detail, bad_input = d["stopped"]
        x.stopped = True
        if bad_input:
            raise ManifestError(f"explain {pair.name}: {x.detail}")
    elif not d["reference_expr"]:
        raise ManifestError(f"explain {pair.name} {element}: {d['note']}")
    else:
        x.verdict, x.how, x.reason = d["verdict"], d["how"], d["reason"]
        x.reference_value, x.optimized_value = d["reference_expr"], d["optimized_expr"]
        x.values, x.rules_used = list(d["values"]), list(d["rules_used"])
        x.steps, x.total_steps, x.check, x.note = (list(d["steps"]), d["total_steps"],
                                                   d["check"], d["note"])
        cx = d["counterexample"]
        if cx is not None:
            x.counterexample = Counterexample.from_report(cx, pair.shapes())
            x._inputs_in_order = [tuple(kv) for kv in cx["input_order"]]
    x.text = _explanation_text(x)
    return x


def _to_bf16_bits(np: Any, values: Any) -> Any:
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # nearest, ties to even
    return rounded.astype(np.uint16)


def _input_bytes(np: Any, kernel: Kernel, name: str, a: _Array, value: Any) -> bytes:
    """The bytes of input array `a` from `value`, which must have the array's declared shape."""
    data = np.asarray(value)
    if data.shape != a.shape:
        raise ManifestError(f"run: {name} has shape {data.shape}, the kernel's array {name} is "
                            f"{a.shape} ({a.len} elements): give it in the declared shape "
                            "(reshape it if the layout is the same)")
    if a.dtype == "bf16":
        raw = _to_bf16_bits(np, data.ravel()) if data.dtype != np.uint16 else data.ravel()
    else:
        raw = data.ravel().astype(TYPES[a.dtype][1])
    return np.ascontiguousarray(raw).astype(raw.dtype.newbyteorder("<")).tobytes()


def run(kernel: Kernel, inputs: Dict[str, Any], max_instructions: int = 0) -> Dict[str, Any]:
    """Runs `kernel` on the bit-exact emulator (IEEE arithmetic, no GPU): `inputs` gives every
    In/InOut array (any array-like of its declared shape; another shape is a ManifestError) and
    every Sym's value; returns every output array (Out, InOut, Zero) as a numpy array of its
    declared shape. bf16 arrays come back as float32 values. Needs numpy."""
    np = _numpy.require("volta_eg.run (numpy arrays in and out)")
    entry_set = _parse([_Check(kernel)])
    arrays: Dict[str, bytes] = {}
    symbols: Dict[str, float] = {}
    sym_names = set(kernel.symbols())
    for name, value in inputs.items():
        if name in sym_names:
            symbols[name] = float(value)
            continue
        a = kernel.arrays.get(name)
        if a is None:
            raise ManifestError(f"run: {kernel.name} has no array or Sym named {name!r}")
        arrays[name] = _input_bytes(np, kernel, name, a, value)
    missing = [a.name for a in kernel.arrays.values()
               if a.kind in ("in", "inout") and a.name not in arrays]
    missing += sorted(sym_names - set(symbols))
    if missing:
        raise ManifestError(f"run: no value for {', '.join(missing)}")
    out = _engine.emulate(entry_set, 0, "kernel", arrays, symbols, int(max_instructions))
    result: Dict[str, Any] = {}
    for name, (type_name, raw, _written) in out.items():
        values = np.frombuffer(raw, dtype=np.dtype(TYPES[type_name][1]).newbyteorder("<"))
        if type_name == "bf16":
            values = (values.astype(np.uint32) << 16).view(np.float32)
        shape = kernel.arrays[name].shape if name in kernel.arrays else (values.size,)
        result[name] = values.astype(values.dtype.newbyteorder("=")).reshape(shape).copy()
    return result


def find_nvcc() -> Optional[str]:
    """The nvcc CUDA sources are compiled with (PATH, then $CUDA_HOME/bin/nvcc), or None."""
    return _engine.find_nvcc()
