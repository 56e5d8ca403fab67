#!/usr/bin/env python3
"""Runs the cases of a bundle (make_bundle.py) on a real NVIDIA GPU with CuPy.

Each case's PTX is loaded as it is (the driver compiles it for the GPU at hand), its arrays are
allocated and filled with the inputs the emulator used, it is launched over its whole grid, and
its output arrays come back as raw bytes in OUT/gpu_outputs*.npz ("CASE/ARRAY" -> uint8), with
OUT/gpu_status.json saying what happened to each case.

A case that ends the CUDA context (an illegal address, a launch failure) or hangs must not take
the others with it: the cases run in a worker process that is restarted after such a case.

usage: run_on_gpu.py BUNDLE_DIR OUT_DIR
"""
import json
import os
import subprocess
import sys
import time

import numpy as np

SCALARS = {"u8": np.uint8, "s8": np.int8, "b8": np.uint8, "u16": np.uint16, "s16": np.int16,
           "b16": np.uint16, "f16": np.float16, "u32": np.uint32, "s32": np.int32,
           "b32": np.uint32, "f32": np.float32, "u64": np.uint64, "s64": np.int64,
           "b64": np.uint64, "f64": np.float64}


def npy_bytes(path):
    """The data of an .npy file as raw bytes (the emulator writes bf16 with a descr numpy lacks)."""
    raw = open(path, "rb").read()
    major = raw[6]
    header_len = int.from_bytes(raw[8:10], "little") if major == 1 else \
        int.from_bytes(raw[8:12], "little")
    start = (10 if major == 1 else 12) + header_len
    return raw[start:]


def scalar(ptype, value):
    t = SCALARS.get(ptype)
    if t is None:
        raise ValueError(f"parameter type .{ptype}")
    if np.issubdtype(t, np.integer):
        width = np.dtype(t).itemsize
        bits = int(value) & ((1 << (8 * width)) - 1)  # two's complement, as the host passes it
        return np.array(bits, dtype=f"<u{width}").view(t)[()]
    return t(float(value))


def outputs_of(cp, case, buffers):
    cp.cuda.runtime.deviceSynchronize()
    out = {}
    for a in case["arrays"]:
        if a["kind"] in ("out", "inout", "zero"):
            out[a["name"]] = cp.asnumpy(buffers[a["name"]])[:a["elem_width"] * a["len"]]
    return out


def launch_with_aggregates(cp, fn, bundle, case, buffers):
    """A launch through the driver with one buffer per parameter, so that a by-value aggregate
    travels as its bytes, its pointers relocated to the device arrays."""
    import ctypes
    import struct
    storage = []
    for spec, ptype in zip(case["params"], case["param_types"]):
        if isinstance(spec, dict):
            data = bytearray(open(os.path.join(bundle, spec["file"]), "rb").read())
            for offset, name, delta in spec["relocations"]:
                struct.pack_into("<Q", data, offset, buffers[name].data.ptr + delta)
            raw = bytes(data)
        else:
            kind, _, value = spec.partition(":")
            if kind == "ptr":
                raw = struct.pack("<Q", buffers[value].data.ptr)
            elif kind == "sym":
                raw = scalar(ptype, case["symbols"][value]).tobytes()
            elif kind == "int":
                raw = scalar(ptype, int(value, 0)).tobytes()
            else:
                raw = scalar(ptype, float(value)).tobytes()
        storage.append(ctypes.create_string_buffer(raw, len(raw)))
    pointers = (ctypes.c_void_p * len(storage))(*[ctypes.addressof(b) for b in storage])
    g, b = case["grid"], case["block"]
    function = getattr(fn, "kernel", fn)  # a RawKernel holds its driver function
    cp.cuda.driver.launchKernel(function.ptr, g[0], g[1], g[2], b[0], b[1], b[2], case["dyn_shared"], 0,
                                ctypes.addressof(pointers), 0)
    return outputs_of(cp, case, buffers)


def run_case(cp, modules, bundle, case):
    ptx = os.path.join(bundle, case["ptx"])
    if ptx not in modules:
        modules[ptx] = cp.RawModule(path=ptx)
    fn = modules[ptx].get_function(case["entry"])
    if case["dyn_shared"] > 48 * 1024:
        fn.max_dynamic_shared_size_bytes = case["dyn_shared"]
    cdir = os.path.join(bundle, case["id"])
    buffers = {}
    for a in case["arrays"]:
        size = a["elem_width"] * a["len"]
        host = np.zeros(size + 256, dtype=np.uint8)  # slack: a wrong model must not fault here
        if a["kind"] in ("in", "inout"):
            data = np.frombuffer(npy_bytes(os.path.join(cdir, "inputs", a["name"] + ".npy")),
                                 dtype=np.uint8)
            host[:len(data)] = data
        elif a["kind"] == "index":
            idx = np.arange(a["len"], dtype=np.dtype(f"<i{a['elem_width']}"))
            host[:size] = idx.view(np.uint8)
        buffers[a["name"]] = cp.asarray(host)
    if any(isinstance(p, dict) for p in case["params"]):
        return launch_with_aggregates(cp, fn, bundle, case, buffers)
    args = []
    for spec, ptype in zip(case["params"], case["param_types"]):
        kind, _, value = spec.partition(":")
        if kind == "ptr":
            if ptype not in ("u64", "b64", "s64"):
                raise ValueError(f"pointer in a .{ptype} parameter")
            args.append(buffers[value])
        elif kind == "sym":
            args.append(scalar(ptype, case["symbols"][value]))
        elif kind == "int":
            args.append(scalar(ptype, int(value, 0)))
        elif kind == "float":
            args.append(scalar(ptype, float(value)))
        else:
            raise ValueError(f"parameter {spec}")
    if len(args) != len(case["param_types"]):
        raise ValueError("parameter count differs from the PTX")
    fn(tuple(case["grid"]), tuple(case["block"]), tuple(args), shared_mem=case["dyn_shared"])
    return outputs_of(cp, case, buffers)


def worker(bundle, results, start):
    import cupy as cp
    cases = json.load(open(os.path.join(bundle, "cases.json")))["cases"]
    modules = {}
    for i in range(start, len(cases)):
        case = cases[i]
        with open(os.path.join(results, "progress"), "w") as f:
            f.write(str(i))
        status = {"status": "ran"}
        fatal = False
        t0 = time.time()
        try:
            outputs = run_case(cp, modules, bundle, case)
            os.makedirs(os.path.join(results, case["id"]), exist_ok=True)
            for name, data in outputs.items():
                data.tofile(os.path.join(results, case["id"], name + ".bin"))
        except Exception as e:  # noqa: BLE001 - every failure is recorded per case
            status = {"status": "error", "error": f"{type(e).__name__}: {e}"[:400]}
            fatal = "cudaError" in type(e).__name__ or "CUDA_ERROR" in str(e) or \
                "cudaError" in str(e)
        status["seconds"] = round(time.time() - t0, 4)
        with open(os.path.join(results, case["id"] + ".status.json"), "w") as f:
            json.dump(status, f)
        if fatal:
            sys.exit(3)  # the context may be gone: the parent restarts after this case
    with open(os.path.join(results, "progress"), "w") as f:
        f.write(str(len(cases)))


def main():
    if sys.argv[1] == "--worker":
        return worker(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    bundle, out = sys.argv[1], sys.argv[2]
    results = "/tmp/volta_gpu_results"
    os.makedirs(results, exist_ok=True)
    cases = json.load(open(os.path.join(bundle, "cases.json")))["cases"]
    start, restarts = 0, 0
    while start < len(cases):
        progress = os.path.join(results, "progress")
        if os.path.exists(progress):
            os.remove(progress)
        proc = subprocess.Popen([sys.executable, __file__, "--worker", bundle, results,
                                 str(start)])
        last, last_change = None, time.time()
        while proc.poll() is None:
            time.sleep(0.2)
            now = open(progress).read() if os.path.exists(progress) else None
            if now != last:
                last, last_change = now, time.time()
            elif time.time() - last_change > 60:  # a hung case (or a very slow start)
                proc.kill()
                proc.wait()
                break
        done = int(open(progress).read()) if os.path.exists(progress) else start
        if done >= len(cases):
            break
        sf = os.path.join(results, cases[done]["id"] + ".status.json")
        if not os.path.exists(sf):
            with open(sf, "w") as f:
                json.dump({"status": "error", "error": f"worker ended (exit {proc.returncode})"
                           " or hung during this case"}, f)
        start, restarts = done + 1, restarts + 1
    statuses, arrays = {}, {}
    for case in cases:
        sf = os.path.join(results, case["id"] + ".status.json")
        statuses[case["id"]] = json.load(open(sf)) if os.path.exists(sf) else \
            {"status": "not run"}
        cdir = os.path.join(results, case["id"])
        if os.path.isdir(cdir):
            for f in os.listdir(cdir):
                arrays[f'{case["id"]}/{f[:-4]}'] = np.fromfile(os.path.join(cdir, f),
                                                               dtype=np.uint8)
    os.makedirs(out, exist_ok=True)
    # Files that come back are limited in size: split the outputs into parts of about 12 MiB.
    part, size, n = {}, 0, 0
    for key, data in arrays.items():
        part[key] = data
        size += data.nbytes
        if size > 12 << 20:
            np.savez_compressed(os.path.join(out, f"gpu_outputs{n}.npz"), **part)
            part, size, n = {}, 0, n + 1
    np.savez_compressed(os.path.join(out, f"gpu_outputs{n}.npz"), **part)
    import cupy as cp
    props = cp.cuda.runtime.getDeviceProperties(0)
    json.dump({"device": props["name"].decode(), "driver": cp.cuda.runtime.driverGetVersion(),
               "restarts": restarts, "cases": statuses},
              open(os.path.join(out, "gpu_status.json"), "w"), indent=1)
    ran = sum(1 for s in statuses.values() if s["status"] == "ran")
    print(f"{ran} of {len(cases)} cases ran on {props['name'].decode()}; {restarts} restarts")
    for cid, s in statuses.items():
        if s["status"] != "ran":
            print(cid, s)


if __name__ == "__main__":
    sys.exit(main())
