"""Every function of the API on the example kernels: prove, check, run, prove_batch, reports."""

import json
import os
import subprocess

import numpy as np
import pytest

import volta_eg as ve
from conftest import COLS, ROWS, softmax_kernel


def test_prove_equivalent(reference):
    r = ve.prove(reference, softmax_kernel("cand_online"))
    assert r.verdict == "EQUIVALENT"
    assert r.ok
    assert r.elements["total"] == ROWS * COLS
    assert r.counterexample is None
    assert r.seconds > 0
    assert "elements equal over the reals" in r.detail
    # The emulator cross-check ran on the EQUIVALENT and contradicted nothing.
    assert r.cross_check["ran"] and r.cross_check["contradiction"] is None
    assert r.cross_check["elements"] >= ROWS * COLS


def test_cross_check_can_be_turned_off(reference):
    r = ve.prove(reference, softmax_kernel("cand_online"), cross_check=False)
    assert r.verdict == "EQUIVALENT"
    assert r.cross_check is None


def test_prove_not_equivalent_gives_a_counterexample(reference):
    r = ve.prove(reference, softmax_kernel("cand_tiled_no_tail"), expected="NOT_EQUIVALENT")
    assert r.verdict == "NOT_EQUIVALENT" and r.ok
    cx = r.counterexample
    assert cx.element.startswith("y[")
    assert cx.reference_value != cx.optimized_value
    # The inputs as numpy arrays of the kernel's shape (every input not listed is 0).
    assert cx.inputs["x"].shape == (ROWS, COLS)
    assert all(isinstance(i, int) for i in cx.values.get("x", {}))
    # What each kernel stores there on the emulator.
    assert cx.reference_device and cx.optimized_device


def test_counterexample_below_rounding_has_a_device_witness():
    # cvt.rpi of a + 2^-149 against cvt.rpi of a (soundness c19_rpi_of_tiny_addend_wrong): where
    # the counterexample's stores agree on the emulator, a nearby point where they differ.
    from conftest import SOURCE
    ptx = SOURCE / "examples" / "kernels" / "soundness" / "c19_rpi_of_tiny_addend.ptx"
    args = [ve.In("a", 32), ve.Out("out", 32, "s32")]
    ref = ve.Kernel(ptx=ptx, entry="c19_rpi_of_tiny_addend_ref_wrong", block=(32,), args=args)
    opt = ve.Kernel(ptx=ptx, entry="c19_rpi_of_tiny_addend_opt", block=(32,), args=args)
    r = ve.prove(ref, opt, expected="NOT_EQUIVALENT")
    assert r.verdict == "NOT_EQUIVALENT"
    cx = r.counterexample
    if cx.reference_device != cx.optimized_device:
        assert cx.device_witness is None  # a witness only where the counterexample needs one
    else:
        w = cx.device_witness
        assert w is not None and w["reference_device"] != w["optimized_device"]
        assert isinstance(w["inputs"], dict)
    # The report's field as the result carries it.
    j = {"element": "out[0]", "reference_value": "3", "optimized_value": "2",
         "reference_device": "2 (s32)", "optimized_device": "2 (s32)",
         "device_witness": {"inputs": {}, "reference_device": "1 (s32)",
                            "optimized_device": "0 (s32)"}}
    parsed = ve.Counterexample.from_report(j, {})
    assert parsed.device_witness["reference_device"] == "1 (s32)"


def test_counterexample_reproduces_on_the_emulator(reference):
    wrong = softmax_kernel("cand_online_no_rescale")
    cx = ve.prove(reference, wrong).counterexample
    x = cx.inputs["x"].astype(np.float32)
    index = int(cx.element[cx.element.index("[") + 1:-1])
    ref_y = ve.run(reference, {"x": x})["y"].ravel()[index]
    opt_y = ve.run(wrong, {"x": x})["y"].ravel()[index]
    assert ref_y != opt_y


def test_check_race_and_race_free(kernels_dir):
    racy = softmax_kernel("cand_block_no_barrier", launch="block")
    r = ve.check(racy)
    assert r.verdict == "DATA_RACE"
    assert r.safety is not None
    assert "cand_block_no_barrier.cu" in json.dumps(r.report())
    assert ve.check(softmax_kernel("cand_block", launch="block")).verdict == "RACE_FREE"


def test_prove_reports_unsafe_optimized_kernel(reference):
    r = ve.prove(reference, softmax_kernel("cand_tiled_unguarded"))
    assert r.verdict == "OUT_OF_BOUNDS"
    assert not r.ok


def test_run_matches_numpy(reference):
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, size=(ROWS, COLS)).astype(np.float32)
    y = ve.run(reference, {"x": x})["y"]
    assert y.shape == (ROWS, COLS) and y.dtype == np.float32
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5)


def test_run_checks_its_inputs(reference):
    with pytest.raises(ve.ManifestError, match="no value for x"):
        ve.run(reference, {})
    with pytest.raises(ve.ManifestError, match="160"):
        ve.run(reference, {"x": np.zeros(5)})
    with pytest.raises(ve.ManifestError, match="no array or Sym"):
        ve.run(reference, {"x": np.zeros((ROWS, COLS)), "z": 1})


def test_run_reports_emulation_errors():
    k = softmax_kernel("cand_tiled_unguarded")
    with pytest.raises(ve.EmulationError, match="out of bounds") as e:
        ve.run(k, {"x": np.zeros((ROWS, COLS))})
    assert e.value.line  # the PTX line


def test_addresses_are_assigned_and_reported(reference):
    bases = reference.addresses
    assert set(bases) == {"x", "y"}
    assert bases["y"] >= bases["x"] + ROWS * COLS * 4 + 0x10000
    cfg = reference.config()
    assert [a["base"] for a in cfg["arrays"]] == [bases["x"], bases["y"]]


def test_scalars_and_structs_reach_the_manifest(kernels_dir):
    k = ve.Kernel(ptx=kernels_dir / "softmax_ref.ptx",
                  args=[ve.In("x", 4), ve.Int(64), ve.Float(0.125), ve.Sym("alpha"),
                        ve.Struct(16, fields=[(0, "u64", ve.Zero("z", 4)), (8, "f32", 0.5)]),
                        ve.Struct(4, bytes=b"\x01\x02\x03\x04")])
    params = k.config()["params"]
    assert params[:4] == ["ptr:x", "int:64", "float:0.125", "sym:alpha"]
    assert params[4]["fields"] == [{"offset": 0, "type": "u64", "value": "ptr:z"},
                                   {"offset": 8, "type": "f32", "value": "float:0.5"}]
    assert params[5]["struct"] == 4 and os.path.exists(params[5]["bytes"])
    assert set(k.addresses) == {"x", "z"}
    # The engine compares them with the PTX's parameters: softmax_ref takes two pointers.
    with pytest.raises(ve.ManifestError, match="param"):
        ve.check(k)


def test_prove_batch_streams_every_result(reference):
    names = ["cand_online", "cand_tiled_no_tail", "cand_reciprocal", "cand_row_stride"]
    pairs = [ve.Pair(reference, softmax_kernel(n), name=n) for n in names]
    pairs.append(softmax_kernel("cand_block_no_barrier", launch="block"))  # a race check
    seen = {}
    for r in ve.prove_batch(pairs, jobs=2):
        seen[r.index] = r
    assert sorted(seen) == list(range(5))
    assert [seen[i].name for i in range(4)] == names
    assert [seen[i].verdict for i in range(5)] == [
        "EQUIVALENT", "NOT_EQUIVALENT", "EQUIVALENT", "NOT_EQUIVALENT", "DATA_RACE"]


def test_prove_batch_reads_a_manifest(tmp_path, reference):
    entry = ve.Pair(reference, softmax_kernel("cand_zero_max"), name="zero max",
                    expected="EQUIVALENT").entry()
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"benchmarks": [entry]}))
    [r] = list(ve.prove_batch(path))
    assert (r.name, r.verdict, r.expected) == ("zero max", "EQUIVALENT", "EQUIVALENT")


def test_report_is_the_cli_report_entry(tmp_path, reference):
    pair = ve.Pair(reference, softmax_kernel("cand_tiled_no_tail"), name="p")
    mine = ve.prove(pair.reference, pair.optimized, name="p").report()
    binary = os.environ.get("VOLTA_EG_BINARY")
    if not binary:
        pytest.skip("VOLTA_EG_BINARY not set (ctest sets it)")
    (tmp_path / "pair.json").write_text(json.dumps(pair.entry()))
    subprocess.run([binary, "prove", "--pair", str(tmp_path / "pair.json"), "--report",
                    str(tmp_path / "r.json"), "--quiet"], check=False)
    cli = json.loads((tmp_path / "r.json").read_text())["results"][0]
    assert set(cli) == set(mine)
    for key in ("verdict", "detail", "elements", "counterexample", "name", "kind"):
        assert cli[key] == mine[key], key


def test_unknown_option_is_refused(reference):
    with pytest.raises(TypeError, match="timeuot"):
        ve.prove(reference, reference, timeuot=3)


def test_guards_end_unknown(reference):
    r = ve.prove(reference, softmax_kernel("cand_online"), max_instructions=100)
    assert r.verdict == "UNKNOWN"
    assert "instruction" in r.detail


SCALE_PTX = """.version 7.0
.target sm_80
.address_size 64
.visible .entry scale(.param .u64 p_y, .param .f32 p_a)
{
  .reg .b32 %r<2>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p_y];
  ld.param.f32 %f1, [p_a];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  mul.f32 %f3, %f2, %f1;
  st.global.f32 [%rd4], %f3;
  ret;
}
"""


def test_ptx_text_inout_and_scalars():
    sym = ve.Kernel(ptx=SCALE_PTX, block=32, args=[ve.InOut("y", 32), ve.Sym("alpha")])
    assert sym.entry == "scale"  # the only kernel of the PTX
    y = np.arange(32, dtype=np.float32)
    np.testing.assert_array_equal(ve.run(sym, {"y": y, "alpha": 0.5})["y"], y * 0.5)
    half = ve.Kernel(ptx=SCALE_PTX, block=32, args=[ve.InOut("y", 32), ve.Float(0.5)])
    np.testing.assert_array_equal(ve.run(half, {"y": y})["y"], y * 0.5)
    assert ve.check(sym).verdict == "RACE_FREE"
    assert ve.prove(sym, sym).verdict == "EQUIVALENT"
    r = ve.prove(half, ve.Kernel(ptx=SCALE_PTX, block=32, args=[ve.InOut("y", 32), ve.Float(2)]))
    assert r.verdict == "NOT_EQUIVALENT"
    assert r.counterexample.inputs["y"].shape == (32,)


def test_empty_batch():
    assert list(ve.prove_batch([])) == []


def _cancellation_pair():
    """y = x against y = (x + 1e20f) - 1e20f (examples/float/manifest.json): EQUIVALENT over the
    reals, every y 0 in float."""
    from conftest import SOURCE
    floats = SOURCE / "examples" / "kernels" / "float"

    def kernel(name):
        return ve.Kernel(ptx=floats / f"{name}.ptx", entry=name, grid=(1,), block=(64,),
                         args=[ve.In("x", 64), ve.Out("y", 64), ve.Int(64)])
    return kernel("copy_ref"), kernel("add_sub_big")


def test_float_error_of_an_equivalent(reference):
    r = ve.prove(reference, softmax_kernel("cand_online"))
    fe = r.float_error
    assert fe is not None and r.ok
    # The online softmax rounds differently, a little: no warning, a small figure.
    assert not fe.precision_loss and fe.max_scaled < 1e-4
    assert fe.tolerance is None and fe.tolerance_status is None and not fe.beyond_tolerance
    assert "max abs" in str(fe)
    assert "tolerance_status" in ve.Result.__doc__ and "max_scaled" in type(fe).__doc__
    assert ve.prove(reference, softmax_kernel("cand_online"), cross_check=False).float_error \
        is None


def test_float_tolerance_statuses():
    ref, opt = _cancellation_pair()
    r = ve.prove(ref, opt)
    assert r.verdict == "EQUIVALENT" and r.ok
    assert r.float_error.max_rel == 1.0 and r.float_error.precision_loss
    assert any("catastrophic cancellation" in w for w in r.float_error.warnings)
    beyond = ve.prove(ref, opt, float_tolerance={"rel": 1e-3, "abs": 1e-5})
    assert beyond.verdict == "EQUIVALENT" and not beyond.ok
    assert beyond.float_error.tolerance_status == "beyond" and beyond.float_error.beyond_tolerance
    assert beyond.float_error.tolerance == {"rel": 1e-3, "abs": 1e-5}
    within = ve.prove(ref, opt, float_tolerance={"rel": 2})
    assert within.ok and within.float_error.tolerance_status == "within"
    # prove_batch's tolerance applies to every pair without its own.
    batch = list(ve.prove_batch([ve.Pair(ref, opt), ve.Pair(ref, opt, float_tolerance={"rel": 2})],
                                float_tolerance={"rel": 1e-3}))
    assert sorted(b.float_error.tolerance_status for b in batch) == ["beyond", "within"]
    with pytest.raises(ve.ManifestError, match="float_tolerance.rel"):
        ve.prove(ref, opt, float_tolerance={"rel": -1})


def test_rounding_bounds_over_input_ranges():
    """In(..., range=(lo, hi)) gives each kernel's rounding error a bound over the ranges
    (docs/semantics.md, "A bound on the rounding error"); none without a range."""
    from conftest import SOURCE
    gemm = SOURCE / "examples" / "kernels" / "gemm"

    def kernel(name, ranged):
        r = (-1, 1) if ranged else None
        return ve.Kernel(ptx=gemm / f"{name}.ptx", entry=name, grid=(2, 2), block=(16, 16),
                         args=[ve.In("A", 1024, range=r), ve.In("B", 1024, range=r),
                               ve.Out("C", 1024)])
    r = ve.prove(kernel("gemm_naive", True), kernel("gemm_tiled", True))
    assert r.verdict == "EQUIVALENT", r
    b = r.rounding_bounds["C"]
    assert b["bounded"] == 1024 and b["unbounded"] == 0
    assert 1e-6 < b["apart"] < 1e-3
    assert b["apart"] >= max(b["reference"], b["optimized"])
    assert ve.prove(kernel("gemm_naive", False), kernel("gemm_tiled", False)).rounding_bounds == {}
    with pytest.raises(ve.ManifestError):
        ve.In("A", 4, range=(1, -1))
    assert "rounding_bounds" in ve.Result.__doc__
