"""The package's surface: version, __all__, typed results that help() documents, CUDA source
text, explain, the arrays of a pair matched by name, run's shape check, life without numpy."""

import dataclasses
import os
import pydoc
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import volta_eg as ve
from conftest import COLS, KERNELS, ROWS, SOURCE, softmax_kernel

SCALE_CU = """
__global__ void scale(float* y, float a) { y[threadIdx.x] *= a; }
"""


def test_version_is_the_projects():
    text = (SOURCE / "CMakeLists.txt").read_text()
    assert ve.__version__ == re.search(r"project\(volta-eg VERSION ([0-9.]+)", text).group(1)


def test_all_names_exist_and_public_classes_belong_to_the_package():
    for name in ve.__all__:
        assert hasattr(ve, name), name
    assert ve.Result.__module__ == "volta_eg" and ve.prove.__module__ == "volta_eg"
    public = {n for n in dir(ve) if not n.startswith("_")}
    assert public <= set(ve.__all__) | {"annotations"}, public - set(ve.__all__)


@pytest.mark.parametrize("cls, fields", [
    (ve.Result, ["verdict", "detail", "counterexample", "races", "elements", "seconds",
                 "cta_scope"]),
    (ve.Counterexample, ["element", "reference_value", "optimized_value", "values"]),
    (ve.Explanation, ["element", "verdict", "steps", "counterexample", "text"]),
])
def test_result_fields_are_typed_and_shown_by_help(cls, fields):
    declared = {f.name: f.type for f in dataclasses.fields(cls)}
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    for name in fields:
        assert name in declared, name
        # Documented: the field's name begins a line of the "Attributes" section help() shows.
        assert re.search(rf"^\s*\|?\s*{name}( \(property[^)]*\))?:", text, re.M), name
    if cls is ve.Result:
        assert "report()" in text and "ok (property)" in text


def test_a_result_over_cta_zero_alone_says_so():
    block = softmax_kernel("cand_block", launch="block")
    assert ve.check(block).cta_scope is None  # the whole launch, the default
    first = ve.check(softmax_kernel("cand_block", launch="block", ctas="first"))
    assert first.cta_scope == "CTA 0 of 4" and "[CTA 0 of 4 only]" in str(first)


def test_a_result_under_an_assumption_says_so():
    # FlashAttention-3's barrier_O shape (examples/soundness/README.md, 46-converged-waits).
    k = ve.Kernel(SOURCE / "examples/kernels/soundness/c46_converged_wait.ptx",
                  entry="c46_converged_wait", grid=(1,), block=(64,),
                  args=[ve.In("a", (32,)), ve.Out("out", (32,))])
    plain = ve.check(k)
    assert plain.verdict == "UNSUPPORTED" and plain.assumptions == []
    assert "--assume-converged-waits" in plain.detail
    assumed = ve.check(k, assume_converged_waits=True)
    assert assumed.verdict == "RACE_FREE" and assumed.assumptions == ["converged-waits"]
    assert "[assuming converged-waits]" in str(assumed)


def test_race_result_lists_its_races():
    r = ve.check(softmax_kernel("cand_block_no_barrier", launch="block"))
    assert r.verdict == "DATA_RACE"
    assert r.races and all("kind" in race for race in r.races)
    assert r.races[0] == r.safety
    assert ve.check(softmax_kernel("cand_block", launch="block")).races == []


@pytest.mark.skipif(ve.find_nvcc() is None, reason="nvcc not found (PATH, CUDA_HOME)")
def test_cuda_source_text_is_compiled(tmp_path):
    k = ve.Kernel(cuda_source=SCALE_CU, entry="scale", block=32,
                  args=[ve.InOut("y", 32), ve.Float(0.5)], cache_dir=tmp_path)
    assert k.cuda.endswith(".cu") and Path(k.cuda).read_text() == SCALE_CU
    y = np.arange(32, dtype=np.float32)
    np.testing.assert_array_equal(ve.run(k, {"y": y})["y"], y * 0.5)


def test_cuda_source_without_nvcc_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CUDA_HOME", raising=False)
    with pytest.raises(ve.CudaError, match="nvcc"):
        ve.Kernel(cuda_source=SCALE_CU + "// no nvcc\n", block=32, args=[ve.InOut("y", 32)],
                  cache_dir=tmp_path)


def test_cuda_must_be_a_file(tmp_path):
    with pytest.raises(ve.CudaError, match="cuda_source=") as e:
        ve.Kernel(cuda=SCALE_CU, block=32, args=[ve.InOut("y", 32)])
    assert "source text" in str(e.value)
    with pytest.raises(ve.CudaError, match="no such file.*cuda_source=") as e:
        ve.Kernel(cuda=tmp_path / "missing.cu", block=32, args=[ve.InOut("y", 32)])
    assert e.value.file == str(tmp_path / "missing.cu")
    with pytest.raises(ve.CudaError, match="is a folder"):
        ve.Kernel(cuda=tmp_path, block=32)
    with pytest.raises(ve.ManifestError, match="exactly one of .*not ptx and cuda_source"):
        ve.Kernel(ptx=KERNELS / "softmax_ref.ptx", cuda_source=SCALE_CU)


def _cli_explain(tmp_path, pair, element):
    binary = os.environ.get("VOLTA_EG_BINARY")
    if not binary:
        return None
    import json
    (tmp_path / "pair.json").write_text(json.dumps(pair.entry()))
    out = subprocess.run([binary, "explain", "--pair", str(tmp_path / "pair.json"), "--element",
                          element, "--color", "never"], capture_output=True, text=True)
    return out.stdout


def test_explain_an_equivalent_element(tmp_path, reference):
    opt = softmax_kernel("cand_online")
    x = ve.explain(reference, opt, "y[5]")
    assert (x.verdict, x.element, x.stopped) == ("EQUIVALENT", "y[5]", False)
    assert x.how and x.total_steps >= 1 and x.steps and x.check.startswith("ok")
    assert x.counterexample is None
    assert str(x) == x.text and "EQUIVALENT (" in x.text
    cli = _cli_explain(tmp_path, ve.Pair(reference, opt), "y[5]")
    if cli is not None:
        assert x.text == cli


def test_explain_a_differing_element(tmp_path, reference):
    wrong = softmax_kernel("cand_tiled_no_tail")
    x = ve.explain(reference, wrong, "y[0]")
    assert x.verdict == "NOT_EQUIVALENT"
    assert (x.counterexample.reference_value, x.counterexample.optimized_value) == ("1/40", "1/32")
    assert "counterexample:" in x.text
    cli = _cli_explain(tmp_path, ve.Pair(reference, wrong), "y[0]")
    if cli is not None:
        assert x.text == cli


def test_explain_a_racy_pair_and_a_missing_element(reference):
    racy = softmax_kernel("cand_block_no_barrier", launch="block")
    x = ve.explain(reference, racy, "y[0]")
    assert x.stopped and x.verdict == "DATA_RACE" and x.detail
    assert "ends before its elements are compared" in x.text
    with pytest.raises(ve.ManifestError, match=r"y\[999\]"):
        ve.explain(reference, softmax_kernel("cand_online"), "y[999]")


def _online(args):
    return ve.Kernel(ptx=KERNELS / "cand_online.ptx", block=ROWS, args=args)


def test_a_renamed_input_is_warned_about(reference):
    renamed = _online([ve.In("inp", (ROWS, COLS)), ve.Out("y", (ROWS, COLS))])
    with pytest.warns(ve.ArrayMismatchWarning, match=r"In\('x'.*lacks.*In\('inp'.*renamed") as w:
        r = ve.prove(reference, renamed)
    assert w[0].filename == __file__  # it points at the caller's line
    assert r.verdict == "NOT_EQUIVALENT"
    with warnings.catch_warnings():
        warnings.simplefilter("error", ve.ArrayMismatchWarning)
        with pytest.raises(ve.ArrayMismatchWarning):
            ve.Pair(reference, renamed)


@pytest.mark.parametrize("y", [ve.Out("y", (ROWS, COLS + 1)), ve.Out("y", (ROWS, COLS), "f64")])
def test_an_array_of_another_size_or_dtype_is_an_error(reference, y):
    with pytest.raises(ve.ManifestError, match=r"matched by name.*y is Out\('y', \(4, 40\)"):
        ve.prove(reference, _online([ve.In("x", (ROWS, COLS)), y]))


def test_corresponding_arrays_give_no_warning(reference):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # The same arrays; an input updated in place; a scratch array of one kernel only.
        ve.Pair(reference, softmax_kernel("cand_online"))
        ve.Pair(reference, _online([ve.InOut("x", (ROWS, COLS)), ve.Out("y", (ROWS, COLS)),
                                    ve.Zero("scratch", 16)]))
    with pytest.warns(ve.ArrayMismatchWarning, match=r"shape \(4, 40\) in the reference and "
                                                      r"\(160,\)"):
        ve.Pair(reference, _online([ve.In("x", ROWS * COLS), ve.Out("y", (ROWS, COLS))]))


def test_run_checks_input_shapes(reference):
    with pytest.raises(ve.ManifestError, match=r"x has shape \(40, 4\).*\(4, 40\)"):
        ve.run(reference, {"x": np.zeros((COLS, ROWS))})
    with pytest.raises(ve.ManifestError, match=r"x has shape \(160,\)"):
        ve.run(reference, {"x": np.zeros(ROWS * COLS)})
    assert ve.run(reference, {"x": np.zeros((ROWS, COLS)).tolist()})["y"].shape == (ROWS, COLS)


WITHOUT_NUMPY = """
import sys
sys.modules["numpy"] = None  # `import numpy` now fails, as in a Python without numpy
import volta_eg as ve
k = "{kernels}/"
args = [ve.In("x", (4, 40)), ve.Out("y", (4, 40))]
ref = ve.Kernel(ptx=k + "softmax_ref.ptx", block=4, args=args)
wrong = ve.Kernel(ptx=k + "cand_tiled_no_tail.ptx", block=4, args=args)
r = ve.prove(ref, wrong)
print(r.verdict, r.counterexample.values.get("x", {{}}))
for what in (lambda: ve.run(ref, {{"x": [[0.0] * 40] * 4}}), lambda: r.counterexample.inputs):
    try:
        what()
    except ImportError as e:
        print("ImportError:", e)
"""


def test_without_numpy_everything_but_arrays_works():
    out = subprocess.run([sys.executable, "-c", WITHOUT_NUMPY.format(kernels=KERNELS)],
                         capture_output=True, text=True, env=os.environ.copy())
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("NOT_EQUIVALENT")
    assert "volta_eg.run (numpy arrays in and out) needs numpy" in lines[1]
    assert "Counterexample.inputs" in lines[2] and "needs numpy" in lines[2]
