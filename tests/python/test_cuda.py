"""CUDA source as input: compiled by nvcc when there is one, a clear error when there is not."""

import json
import shutil

import pytest

import volta_eg as ve
from conftest import softmax_kernel

have_nvcc = pytest.mark.skipif(ve.find_nvcc() is None, reason="no nvcc on PATH or in CUDA_HOME")


@have_nvcc
def test_cuda_kernel_is_compiled_and_cached(tmp_path, kernels_dir):
    src = tmp_path / "cand_block_no_barrier.cu"
    shutil.copy(kernels_dir / src.name, src)
    cache = tmp_path / "cache"
    k = softmax_kernel("cand_block_no_barrier", launch="block", source={"cuda": src},
                       cache_dir=cache)
    assert k.ptx_path.startswith(str(cache / "cuda"))
    r = ve.check(k)
    assert r.verdict == "DATA_RACE"
    # Findings point at the user's own CUDA file.
    assert str(src) in json.dumps(r.report())
    mtime = (cache / "cuda").stat().st_mtime_ns
    again = softmax_kernel("cand_block_no_barrier", launch="block", source={"cuda": src},
                           cache_dir=cache)
    assert again.ptx_path == k.ptx_path
    assert (cache / "cuda").stat().st_mtime_ns == mtime  # nothing compiled again
    # A changed source is compiled again.
    src.write_text(src.read_text().replace("__syncthreads();\n  float s", "float s"))
    changed = softmax_kernel("cand_block_no_barrier", launch="block", source={"cuda": src},
                             cache_dir=cache)
    assert changed.ptx_path != k.ptx_path


@have_nvcc
def test_cuda_mangled_entry_and_compile_errors(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("__global__ void scale(float* y) { y[threadIdx.x] *= 2.0f; }\n")
    k = ve.Kernel(cuda=src, entry="scale", block=32, args=[ve.InOut("y", 32)], cache_dir=tmp_path)
    assert k.entry.startswith("_Z5scale")
    assert ve.check(k).verdict == "RACE_FREE"
    bad = tmp_path / "bad.cu"
    bad.write_text("__global__ void k(float* y) { y[0] = undeclared; }\n")
    with pytest.raises(ve.CudaError, match="undeclared") as e:
        ve.Kernel(cuda=bad, cache_dir=tmp_path)
    assert e.value.file == str(bad)


@have_nvcc
def test_manifest_cuda_key(tmp_path, kernels_dir):
    entry = ve.Pair(softmax_kernel("softmax_ref"), softmax_kernel("cand_online_no_rescale"),
                    name="rescale").entry()
    del entry["optimized"]["ptx"]
    entry["optimized"]["cuda"] = str(kernels_dir / "cand_online_no_rescale.cu")
    entry["optimized"]["arch"] = "sm_80"
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"benchmarks": [entry]}))
    [r] = list(ve.prove_batch(path))
    assert r.verdict == "NOT_EQUIVALENT"


def test_without_nvcc_the_error_says_so(tmp_path, kernels_dir, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CUDA_HOME", raising=False)
    assert ve.find_nvcc() is None
    with pytest.raises(ve.CudaError, match="nvcc not found") as e:
        softmax_kernel("softmax_ref", source={"cuda": kernels_dir / "softmax_ref.cu"})
    assert e.value.file.endswith("softmax_ref.cu")


def test_cuda_home_is_searched(tmp_path, monkeypatch):
    fake = tmp_path / "cuda" / "bin"
    fake.mkdir(parents=True)
    (fake / "nvcc").write_text("#!/bin/sh\nexit 3\n")
    (fake / "nvcc").chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "cuda"))
    assert ve.find_nvcc() == str(fake / "nvcc")
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k() {}\n")
    with pytest.raises(ve.CudaError, match="status 3"):
        ve.Kernel(cuda=src, cache_dir=tmp_path)


def test_manifest_without_nvcc_is_an_error_result(tmp_path, kernels_dir, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CUDA_HOME", raising=False)
    entry = ve.Pair(softmax_kernel("softmax_ref"), softmax_kernel("cand_online"),
                    name="p").entry()
    del entry["optimized"]["ptx"]
    entry["optimized"]["cuda"] = str(kernels_dir / "cand_online.cu")
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"benchmarks": [entry]}))
    [r] = list(ve.prove_batch(path))
    assert r.verdict == "ERROR"
    assert "$.benchmarks[0].optimized.cuda" in r.detail and "nvcc not found" in r.detail
