"""Bad input is a Python exception with the located diagnostic, never a crash."""

import json

import pytest

import volta_eg as ve
from conftest import softmax_kernel

BROKEN_PTX = """.version 7.0
.target sm_80
.address_size 64
.visible .entry broken(.param .u64 p)
{
  ld.param.u64 %rd1, [p];
  frobnicate.f32 %f1, %f2;
  ret;
}
"""


def test_ptx_error_is_located():
    k = ve.Kernel(ptx=BROKEN_PTX, args=[ve.Out("y", 1)])
    with pytest.raises(ve.PTXError) as e:
        ve.check(k)
    err = e.value
    assert err.file and err.file.endswith(".ptx")
    assert err.line >= 4 and err.column >= 1
    assert f":{err.line}:{err.column}: error:" in str(err)


def test_missing_ptx_file():
    with pytest.raises(ve.PTXError):
        ve.Kernel(ptx="/nonexistent/k.ptx")


def test_manifest_error_names_the_value(kernels_dir):
    k = ve.Kernel(ptx=kernels_dir / "softmax_ref.ptx", block=(2048,),
                  args=[ve.In("x", (4, 40)), ve.Out("y", (4, 40))])
    with pytest.raises(ve.ManifestError, match=r"^softmax_ref kernel.block: a CTA has at most "
                                                r"1024 threads$"):
        ve.check(k)


def test_manifest_file_errors_are_located(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"benchmarks": [\n  {"name": "a",, }\n]}\n')
    with pytest.raises(ve.ManifestError) as e:
        ve.prove_batch(path)
    assert e.value.file == str(path) and e.value.line == 2


def test_kernel_description_errors(kernels_dir):
    with pytest.raises(ve.ManifestError, match="exactly one of ptx"):
        ve.Kernel()
    with pytest.raises(ve.ManifestError, match="dtype"):
        ve.In("x", 4, "f33")
    with pytest.raises(ve.ManifestError, match="shape"):
        ve.In("x", (0, 4))
    with pytest.raises(ve.ManifestError, match="ctas"):
        softmax_kernel("softmax_ref", ctas="some")
    with pytest.raises(ve.ManifestError, match="two different arrays"):
        ve.Kernel(ptx=kernels_dir / "softmax_ref.ptx", args=[ve.In("x", 4), ve.Out("x", 4)])


def test_bad_entry_in_a_manifest_is_an_error_result(tmp_path, kernels_dir):
    good = ve.Pair(softmax_kernel("softmax_ref"), softmax_kernel("cand_online"), name="good")
    bad = json.loads(json.dumps(good.entry()))
    bad["name"] = "bad"
    bad["reference"]["ctas"] = "most"
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"benchmarks": [good.entry(), bad]}))
    results = {r.name: r for r in ve.prove_batch(path)}
    assert results["good"].verdict == "EQUIVALENT"
    assert results["bad"].verdict == "ERROR"
    assert "$.benchmarks[1].reference.ctas" in results["bad"].detail
