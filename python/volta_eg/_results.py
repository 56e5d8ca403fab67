"""What volta_eg returns: Result (one entry), Counterexample (inputs on which two kernels differ)
and Explanation (how one element is decided). Typed dataclasses: `help(volta_eg.Result)` lists
every field with its meaning."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple, Union

from . import _numpy

Shapes = Dict[str, Tuple[int, ...]]
Exact = Union[Fraction, str]

_ELEMENT = re.compile(r"^(.*)\[(\d+)\]$")


def _exact(text: str) -> Exact:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return text


@dataclass
class Counterexample:
    """Inputs on which the two kernels differ (every input not listed is 0).

    Attributes:
        element: the output element that differs, "y[37]".
        reference_value: its value in the reference kernel, exact over the reals (text).
        optimized_value: its value in the optimized kernel, exact over the reals (text).
        reference_device: what the reference stores there on the bit-exact emulator (IEEE
            arithmetic) at these inputs; None when it was not executed (see device_note).
        optimized_device: the same for the optimized kernel.
        device_note: why the kernels were not executed, when they were not.
        device_witness: where the two device values above are equal (the difference over the
            reals is below rounding at these inputs), a nearby point where the emulator shows
            them differ: {"inputs": {name: value}, "reference_device": ...,
            "optimized_device": ...} (every other input 0); None otherwise.
        confirmed: the difference was checked by exact (or interval) evaluation.
        values: array -> {flat index: exact value}, and symbol -> exact value for a Sym:
            the input values the counterexample gives (Fraction; text where not a number).
        inputs (property, needs numpy): every input array of the pair as a float64 numpy array
            of its declared shape, 0 where the counterexample gives no value; Sym values exact.
    """

    element: str
    reference_value: str
    optimized_value: str
    reference_device: Optional[str] = None
    optimized_device: Optional[str] = None
    device_note: Optional[str] = None
    device_witness: Optional[Dict[str, Any]] = None
    confirmed: bool = False
    values: Dict[str, Any] = field(default_factory=dict)
    shapes: Shapes = field(default_factory=dict, repr=False)

    @classmethod
    def from_report(cls, j: Dict[str, Any], shapes: Shapes) -> "Counterexample":
        """From the report's `counterexample` object; `shapes`: the input arrays' shapes."""
        values: Dict[str, Any] = {}
        for key, text in j.get("inputs", {}).items():
            m = _ELEMENT.match(key)
            if m:
                values.setdefault(m.group(1), {})[int(m.group(2))] = _exact(text)
            else:
                values[key] = _exact(text)
        return cls(element=j["element"], reference_value=j["reference_value"],
                   optimized_value=j["optimized_value"],
                   reference_device=j.get("reference_device"),
                   optimized_device=j.get("optimized_device"),
                   device_note=j.get("device_note"), device_witness=j.get("device_witness"),
                   confirmed=j.get("confirmed", False),
                   values=values, shapes=dict(shapes))

    @property
    def inputs(self) -> Dict[str, Any]:
        """Every input array as a float64 numpy array of its shape (0 where no value is given;
        NaN where the value is not a number); Sym values as exact Fractions. Needs numpy."""
        np = _numpy.require("Counterexample.inputs (the inputs as numpy arrays; .values has them "
                            "as {index: Fraction})")
        inputs: Dict[str, Any] = {}
        for name, shape in self.shapes.items():
            a = np.zeros(int(np.prod(shape)), dtype=np.float64)
            for i, x in self.values.get(name, {}).items():
                a[i] = float(x) if isinstance(x, Fraction) else np.nan
            inputs[name] = a.reshape(shape)
        for name, v in self.values.items():
            if name not in inputs:
                inputs[name] = v
        return inputs

    def __str__(self) -> str:
        return (f"{self.element}: {self.reference_value} (reference) vs "
                f"{self.optimized_value} (optimized)")


@dataclass
class FloatError:
    """How far apart the two kernels of an EQUIVALENT are in IEEE arithmetic: measured on the
    bit-exact emulator's cross-check, on its input sets (docs/semantics.md, "Float divergence"),
    over the inputs where neither kernel left the reals (an overflow, an underflow, a NaN from
    numbers). EQUIVALENT is over the reals; this is the float story beside it.

    Attributes:
        max_abs: the largest |reference - optimized| over the real output arrays.
        max_rel: the largest |reference - optimized| / |reference| (reference != 0).
        max_ulp: the largest distance in units in the last place.
        max_scaled: the largest |reference - optimized| over the largest |reference| of its array
            on that input (robust where the reference itself is near 0).
        arrays: per compared array, the report's object (array, compared_as, elements, max_abs,
            max_rel, max_ulp, max_scaled, max_element, max_input, beyond_rounding,
            beyond_tolerance, beyond_tolerance_example).
        warnings: the console's lines (the divergence beyond a few ulps, a precision-loss warning
            such as a catastrophic cancellation, the tolerance's failure).
        tolerance: the float tolerance held to ({"rel": R, "abs": A}), or None.
        tolerance_status: "within", "beyond", "not_measured" (the cross-check was skipped), or
            None without a tolerance.
        beyond_tolerance (property): some element is beyond the tolerance (the Result is not ok).
        precision_loss (property): some element is apart beyond rounding (a warning).
    """

    max_abs: float = 0.0
    max_rel: float = 0.0
    max_ulp: int = 0
    max_scaled: float = 0.0
    arrays: List[Dict[str, Any]] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)
    tolerance: Optional[Dict[str, float]] = None
    tolerance_status: Optional[str] = None

    @classmethod
    def from_cross_check(cls, c: Dict[str, Any], lines: List[str]) -> "FloatError":
        real = [a for a in c.get("arrays") or [] if a.get("compared_as") == "real"]
        t = c.get("float_tolerance")
        return cls(max_abs=max((a["max_abs"] for a in real), default=0.0),
                   max_rel=max((a["max_rel"] for a in real), default=0.0),
                   max_ulp=max((a["max_ulp"] for a in real), default=0),
                   max_scaled=max((a.get("max_scaled", 0.0) for a in real), default=0.0),
                   arrays=list(c.get("arrays") or []), warnings=list(lines),
                   tolerance={"rel": t["rel"], "abs": t["abs"]} if t else None,
                   tolerance_status=t["status"] if t else None)

    @property
    def beyond_tolerance(self) -> bool:
        return self.tolerance_status == "beyond"

    @property
    def precision_loss(self) -> bool:
        return any(a.get("beyond_rounding", 0) > 0 for a in self.arrays
                   if a.get("compared_as") == "real")

    def __str__(self) -> str:
        text = (f"max abs {self.max_abs:.3g}, rel {self.max_rel:.3g}, {self.max_ulp} ulp "
                f"({self.max_scaled:.3g} of the largest magnitude)")
        if self.tolerance is not None:
            text += (f"; tolerance rel={self.tolerance['rel']:g}, abs={self.tolerance['abs']:g}: "
                     f"{self.tolerance_status}")
        return text


@dataclass
class Result:
    """The outcome of one entry (a pair's proof, or one kernel's safety check).

    Attributes:
        verdict: EQUIVALENT, NOT_EQUIVALENT, RACE_FREE, DATA_RACE, OUT_OF_BOUNDS, DEADLOCK,
            BARRIER_DIVERGENCE, UNINITIALIZED_READ, UNKNOWN, UNSUPPORTED, INCONSISTENT or ERROR
            (docs/semantics.md says what each proves).
        detail: the one-line reason, as the CLI prints it.
        counterexample: for NOT_EQUIVALENT, the inputs on which the kernels differ
            (a Counterexample); else None.
        races: every distinct data race found, each the report's object (kind, access,
            conflicting_access, space, location with the CUDA line...); [] when none.
        elements: the counts of output elements: total, direct, reused, rules, z3, cached,
            not_equivalent, unknown.
        seconds: the entry's wall time.
        cta_scope: "CTA 0 of 16" when a kernel ran CTA (0,0,0) alone (ctas="first") of a launch
            of several CTAs: the verdict says nothing of the others; None for the whole launch.
        assumptions: the scheduling assumptions the verdict holds under (["converged-waits"]
            with assume_converged_waits=True or a manifest entry's "assume"); [] when none.
        name: the entry's name.
        expected: the verdict the caller expected (expected=), or None.
        safety: the first safety finding of a failing kernel (the report's `safety` object).
        kernels: the kernels run, one report object per role.
        cross_check: the emulator cross-check of an EQUIVALENT or INCONSISTENT pair (the
            report's `cross_check` object); None when it did not run.
        float_error (property): for an EQUIVALENT whose cross-check ran (or held a tolerance),
            how far apart the kernels are in float (a FloatError: max_abs, max_rel, max_ulp,
            max_scaled, arrays, warnings, tolerance, tolerance_status); else None.
        rounding_bounds (property): where input ranges were given (In(..., range=(lo, hi))),
            per real output array the bound on each kernel's rounding error over them: the
            report's object (reference, optimized, apart, apart_element, bounded, unbounded,
            why_unbounded); {} without ranges.
        cache: the cache's hits and stores so far in this call (with cache_dir=).
        index: the entry's position in a prove_batch call.
        ok (property): EQUIVALENT or RACE_FREE, or with expected= that verdict; never
            INCONSISTENT, nor an EQUIVALENT beyond its float tolerance.
        executed (property): the roles of the kernels executed, not read from the cache.
        report(): the entry's object in the CLI's JSON report (docs/report-schema.md).
    """

    verdict: str
    detail: str = ""
    counterexample: Optional[Counterexample] = None
    races: List[Dict[str, Any]] = field(default_factory=list)
    elements: Dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    cta_scope: Optional[str] = None
    assumptions: List[str] = field(default_factory=list)
    name: str = ""
    expected: Optional[str] = None
    safety: Optional[Dict[str, Any]] = None
    kernels: List[Dict[str, Any]] = field(default_factory=list)
    cross_check: Optional[Dict[str, Any]] = None
    cache: Dict[str, int] = field(default_factory=dict)
    index: int = 0
    _report: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_report(cls, j: Dict[str, Any], shapes: Shapes, index: int = 0,
                    cache: Optional[Dict[str, int]] = None) -> "Result":
        """From the entry's object in the CLI's JSON report."""
        cx = j.get("counterexample")
        return cls(verdict=j["verdict"], detail=j.get("detail", ""),
                   counterexample=Counterexample.from_report(cx, shapes) if cx else None,
                   races=list(j.get("races") or []), elements=dict(j.get("elements") or {}),
                   seconds=j.get("seconds", 0.0), cta_scope=j.get("cta_scope"),
                   assumptions=list(j.get("assumptions") or []),
                   name=j.get("name", ""),
                   expected=j.get("expected"), safety=j.get("safety"),
                   kernels=list(j.get("kernels") or []), cross_check=j.get("cross_check"),
                   cache=dict(cache or {}), index=index, _report=j)

    @property
    def ok(self) -> bool:
        """EQUIVALENT or RACE_FREE (or, with an expected verdict, that one); never INCONSISTENT
        (the emulator contradicts the proof: a bug of volta-eg)."""
        if self.verdict == "INCONSISTENT":
            return False
        if self.float_error is not None and self.float_error.beyond_tolerance:
            return False
        if self.expected:
            return self.verdict == self.expected
        return self.verdict in ("EQUIVALENT", "RACE_FREE")

    @property
    def float_error(self) -> Optional[FloatError]:
        """How far apart the kernels of an EQUIVALENT are in float (FloatError), or None."""
        c = self.cross_check
        if self.verdict != "EQUIVALENT" or not c or not (c.get("ran") or c.get("float_tolerance")):
            return None
        return FloatError.from_cross_check(c, list(c.get("float_lines") or []))

    @property
    def rounding_bounds(self) -> Dict[str, Dict[str, Any]]:
        """Per output array, the bound on each kernel's rounding error over the input ranges
        (docs/semantics.md, "A bound on the rounding error"); {} when no range was given."""
        return {t["array"]: dict(t["rounding_bound"])
                for t in self._report.get("output_types") or [] if t.get("rounding_bound")}

    @property
    def executed(self) -> List[str]:
        """The roles of the kernels executed by this entry (not read from the cache)."""
        return [k["role"] for k in self.kernels if not k.get("cached")]

    def report(self) -> Dict[str, Any]:
        """The entry's object in the CLI's JSON report (docs/report-schema.md), a copy."""
        return json.loads(json.dumps(self._report))

    def __str__(self) -> str:
        tail = f": {self.detail}" if self.detail else ""
        scope = f" [{self.cta_scope} only]" if self.cta_scope else ""
        if self.assumptions:
            scope += f" [assuming {', '.join(self.assumptions)}]"
        return f"{self.name} {self.verdict} {self.seconds:.3f}s{scope}{tail}"


@dataclass
class Explanation:
    """How one output element of a pair is decided (the CLI's `volta-eg explain`).

    Attributes:
        name: the pair's name.
        element: the element explained, "y[5]".
        verdict: EQUIVALENT, NOT_EQUIVALENT or UNKNOWN for the element; or, when the entry
            ended before its elements were compared (stopped), the entry's verdict.
        stopped: the entry ended before the elements were compared (a race, an out-of-bounds
            access, a guard...); `detail` says why.
        detail: the entry's one-line reason when stopped, else "".
        how: how an EQUIVALENT element was decided ("canonical form", "rules", "z3", ...).
        reason: why an UNKNOWN element stays unknown.
        reference_value, optimized_value: the element's value in each kernel, printed
            (truncated to a few hundred characters).
        values: the lines that show the two values (as the CLI prints them).
        rules_used: the rules that fired, when the rule library proved it.
        counterexample: for NOT_EQUIVALENT, the inputs on which the values differ.
        steps: the e-graph's rewrite chain from the reference to the optimized value, one step
            per line (at most `steps=` of them); total_steps counts them all.
        total_steps: the length of the whole chain.
        check: the explanation checker's verdict on the chain.
        note: why there is no chain, when there is none.
        text: everything above as `volta-eg explain` prints it (also str(explanation)).
    """

    name: str
    element: str
    verdict: str
    stopped: bool = False
    detail: str = ""
    how: str = ""
    reason: str = ""
    reference_value: str = ""
    optimized_value: str = ""
    values: List[str] = field(default_factory=list)
    rules_used: List[str] = field(default_factory=list)
    counterexample: Optional[Counterexample] = None
    steps: List[str] = field(default_factory=list)
    total_steps: int = 0
    check: str = ""
    note: str = ""
    text: str = ""
    _inputs_in_order: List[Tuple[str, str]] = field(default_factory=list, repr=False)

    def __str__(self) -> str:
        return self.text
