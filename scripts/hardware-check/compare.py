#!/usr/bin/python3
"""Compares the emulator's outputs (make_bundle.py) with a real GPU's (run_on_gpu.py).

Per case and output array: integer outputs must agree exactly; float outputs are compared bit for
bit and, where they differ, by their distance in units in the last place (ULP; two NaNs agree).
A kernel with no approximate instruction and no data race must agree bit for bit: the emulator
claims IEEE arithmetic with each instruction's rounding mode, and any difference is a bug in it
(or a hardware behaviour it does not model). Approximate instructions (ex2.approx, rcp.approx,
tanh.approx...) are modelled to their documented accuracy, so there the ULP distance is reported.

Second, per equivalence entry whose two kernels ran on the same inputs: do the GPU's outputs of
reference and optimized kernel differ? For an expected NOT_EQUIVALENT a difference on the
hardware confirms the verdict on a real device; for an expected EQUIVALENT the difference is
float rounding and is reported as the largest relative difference.

usage: compare.py BUNDLE_DIR GPU_OUT_DIR [--json FILE]
"""
import argparse
import json
import os
import sys

import numpy as np

FLOATS = {"f16": (np.int16, 0x7FFF, np.float16), "bf16": (np.int16, 0x7FFF, None),
          "f32": (np.int32, 0x7FFFFFFF, np.float32), "f64": (np.int64, 0x7FFFFFFFFFFFFFFF,
                                                             np.float64)}
DESCR_TYPES = {"<f2": "f16", "<f4": "f32", "<f8": "f64", "|i1": "s8", "<i2": "s16", "<i4": "s32",
               "<i8": "s64", "|u1": "u8", "<u2": "u16", "<u4": "u32", "<u8": "u64"}
INTS = {"s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64, "u8": np.uint8,
        "u16": np.uint16, "u32": np.uint32, "u64": np.uint64}


def read_npy(path):
    raw = open(path, "rb").read()
    major = raw[6]
    hl = int.from_bytes(raw[8:10], "little") if major == 1 else int.from_bytes(raw[8:12], "little")
    start = (10 if major == 1 else 12) + hl
    header = raw[start - hl:start].decode("latin1")
    descr = header.split("'descr':")[1].split("'")[1]
    return descr, np.frombuffer(raw[start:], dtype=np.uint8)


def as_real(t, data):
    """Float values as float64 (bf16 widened by its bits)."""
    if t == "bf16":
        return (data.view(np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return data.view(FLOATS[t][2]).astype(np.float64)


def ulp_distance(t, a, b):
    itype, mag_mask, _ = FLOATS[t]
    ia, ib = a.view(itype).astype(np.int64), b.view(itype).astype(np.int64)
    ma, mb = ia & mag_mask, ib & mag_mask
    oa = np.where(ia < 0, -ma, ma)
    ob = np.where(ib < 0, -mb, mb)
    dist = np.abs(oa - ob).astype(np.float64)
    ra, rb = as_real(t, a), as_real(t, b)
    dist[np.isnan(ra) & np.isnan(rb)] = 0
    dist[np.isnan(ra) ^ np.isnan(rb)] = np.inf
    return dist


def compare_arrays(t, a, b):
    """(elements, bit-equal elements, max ULP or None for integers)."""
    if t in FLOATS:
        width = np.dtype(FLOATS[t][0]).itemsize
        d = ulp_distance(t, a, b)
        return len(a) // width, int(np.sum(d == 0)), float(d.max()) if len(d) else 0.0
    width = np.dtype(INTS[t]).itemsize
    eq = a.reshape(-1, width) == b.reshape(-1, width)
    return len(a) // width, int(np.sum(eq.all(axis=1))), None


def relative_difference(t, a, b):
    if t not in FLOATS:
        return 0.0 if np.array_equal(a, b) else np.inf
    ra, rb = as_real(t, a), as_real(t, b)
    both_nan = np.isnan(ra) & np.isnan(rb)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(ra - rb) / np.maximum(1.0, np.maximum(np.abs(ra), np.abs(rb)))
    diff[both_nan] = 0
    diff[np.isnan(diff)] = np.inf
    return float(diff.max()) if len(diff) else 0.0


def sweep_report(bundle, case, gpu):
    """How far the GPU is from the emulator's model of one instruction over its sweep."""
    descr, emu = read_npy(os.path.join(bundle, case["id"], "emulator", "out.npy"))
    t = case["arrays"][0]["type"]
    hw = gpu[f'{case["id"]}/out']
    d = ulp_distance(t, emu, hw)
    worst = int(np.argmax(d))
    width = 4 if t == "f32" else 2
    bits = (worst * 16411) % (1 << 32) % (1 << (8 * width))
    if case["entry"].endswith("_edge"):  # make_sweep.py's EDGE inputs: the first operand
        bits = (bits & 0x1FFFFF) + 0x00700000
    if case["entry"].endswith("_tiny"):  # make_sweep.py's TINY inputs: the first operand
        bits = (worst & 0x3FF) + 0x00800000
    report = {}
    # The ISA bounds some instructions by an absolute error on a range: measure that too.
    trig = [(-np.pi, np.pi), (-100 * np.pi, 100 * np.pi)]
    ranges = {"sin": trig, "cos": trig, "lg2": [(0.5, 2.0)]}
    fn = case["entry"].split("_")[1]
    report["ranges"] = []
    for lo, hi in ranges.get(fn, []) if t == "f32" else []:
        x = ((np.arange(len(d), dtype=np.uint64) * 16411) % (1 << 32)).astype(np.uint32)
        xv = x.view(np.float32).astype(np.float64)
        inside = (xv >= lo) & (xv <= hi)
        err = np.abs(as_real(t, emu) - as_real(t, hw))[inside]
        report["ranges"].append({"range": f"[{lo:g}, {hi:g}]", "inputs": int(inside.sum()),
                                 "max_abs_difference": float(np.nanmax(err)) if len(err) else 0.0})
    return report | {"inputs": len(d), "bit_equal": int(np.sum(d == 0)), "within_1_ulp": int(np.sum(d <= 1)),
            "within_2_ulp": int(np.sum(d <= 2)), "max_ulp": float(d.max()),
            "worst_input_bits": f"{bits:#0{2 + 2 * width}x}",
            "emulator": f"{int.from_bytes(emu[worst * width:(worst + 1) * width], 'little'):#x}",
            "gpu": f"{int.from_bytes(hw[worst * width:(worst + 1) * width], 'little'):#x}"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle")
    ap.add_argument("gpu")
    ap.add_argument("--json")
    args = ap.parse_args()
    cases = json.load(open(os.path.join(args.bundle, "cases.json")))["cases"]
    status = json.load(open(os.path.join(args.gpu, "gpu_status.json")))
    gpu = {}
    for f in sorted(os.listdir(args.gpu)):
        if f.startswith("gpu_outputs") and f.endswith(".npz"):
            with np.load(os.path.join(args.gpu, f)) as part:
                gpu.update({k: part[k] for k in part.files})
    racy = {"DATA_RACE"}
    summary = {"device": status.get("device"), "cases": len(cases), "ran": 0, "values": 0,
               "exact_cases": 0, "exact_required": 0, "exact_failures": [], "approx": {},
               "by_design": {}, "contracted": [], "sweeps": {}, "errors": {}}
    per_case = {}
    for c in cases:
        st = status["cases"].get(c["id"], {"status": "not run"})
        if st["status"] != "ran":
            summary["errors"][c["name"]] = st.get("error", st["status"])
            continue
        summary["ran"] += 1
        arrays = {}
        all_exact, worst = True, 0.0
        for a in c["arrays"]:
            if a["kind"] not in ("out", "inout", "zero"):
                continue
            descr, emu = read_npy(os.path.join(args.bundle, c["id"], "emulator", a["name"] + ".npy"))
            t = a.get("type") or DESCR_TYPES.get(descr, "u8")
            hw = gpu[f'{c["id"]}/{a["name"]}']
            n, equal, ulp = compare_arrays(t, emu, hw)
            summary["values"] += n
            arrays[a["name"]] = {"type": t, "elements": n, "bit_equal": equal, "max_ulp": ulp}
            all_exact &= equal == n
            if ulp is not None:
                worst = max(worst, ulp)
            elif equal != n:
                worst = np.inf
        per_case[c["id"]] = {"name": c["name"], "arrays": arrays}
        summary["exact_cases"] += all_exact
        features = c.get("features", [])
        if c["expected"] in racy or c.get("uninitialized_reads"):
            continue  # schedule-dependent, or reads what the memory held
        if c["name"].startswith("sweep/"):
            summary["sweeps"][c["entry"]] = sweep_report(args.bundle, c, gpu)
        elif "mma" in features or "float-atomic" in features:
            key = "mma" if "mma" in features else "float-atomic"
            s = summary["by_design"].setdefault(key, {"cases": 0, "bit_exact": 0, "max_ulp": 0.0})
            s["cases"] += 1
            s["bit_exact"] += all_exact
            s["max_ulp"] = max(s["max_ulp"], worst)
        elif not c["approx"]:
            summary["exact_required"] += 1
            if all_exact:
                pass
            elif "plain-mul" in features and worst != np.inf:
                summary["contracted"].append({"name": c["name"], "max_ulp": worst})
            else:
                summary["exact_failures"].append({"case": c["id"], "name": c["name"],
                                                  "arrays": arrays})
        else:
            key = " ".join(sorted({x.split(".")[0] for x in c["approx"]}))
            s = summary["approx"].setdefault(key, {"cases": 0, "bit_exact": 0, "max_ulp": 0.0})
            s["cases"] += 1
            s["bit_exact"] += all_exact
            s["max_ulp"] = max(s["max_ulp"], worst)

    # Hardware view of each equivalence entry run on identical inputs.
    sides = {}
    for c in cases:
        if c["side"] in ("ref", "opt") and c["id"] in per_case:
            sides.setdefault(c["entry_name"], {})[c["side"]] = c
    hw = {"counterexamples": {"entries": 0, "differ_on_gpu": 0, "same_on_gpu": []},
          "NOT_EQUIVALENT": {"entries": 0, "differ_on_gpu": 0, "same_on_gpu": []},
          "EQUIVALENT": {"entries": 0, "max_relative_difference": 0.0, "worst": None}}
    for name, s in sides.items():
        if set(s) != {"ref", "opt"} or s["ref"]["expected"] not in hw:
            continue
        ref, opt = s["ref"], s["opt"]
        if ref.get("counterexample_element"):
            # The counterexample's element only: every other input is 0 there.
            element = ref["counterexample_element"]
            array, index = element.split("[")[0], int(element.split("[")[1].rstrip("]"))
            width = next(a["elem_width"] for a in ref["arrays"] if a["name"] == array)
            r = gpu.get(f'{ref["id"]}/{array}')
            o = gpu.get(f'{opt["id"]}/{array}')
            if r is None or o is None:
                continue
            e = hw["counterexamples"]
            e["entries"] += 1
            differ = bytes(r[index * width:(index + 1) * width]) != bytes(o[index * width:(index + 1) * width])
            if differ:
                e["differ_on_gpu"] += 1
            else:
                e["same_on_gpu"].append(f"{name} at {element}")
            continue
        same_inputs = all(
            open(os.path.join(args.bundle, ref["id"], "inputs", f), "rb").read() ==
            open(os.path.join(args.bundle, opt["id"], "inputs", f), "rb").read()
            for f in os.listdir(os.path.join(args.bundle, ref["id"], "inputs"))
            if os.path.exists(os.path.join(args.bundle, opt["id"], "inputs", f)))
        if not same_inputs:
            continue
        diff = 0.0
        for a in ref["arrays"]:
            if a["kind"] not in ("out", "inout", "zero"):
                continue
            key_r, key_o = f'{ref["id"]}/{a["name"]}', f'{opt["id"]}/{a["name"]}'
            if key_o not in gpu:
                diff = np.inf
                continue
            t = per_case[ref["id"]]["arrays"][a["name"]]["type"]
            ra, oa = gpu[key_r], gpu[key_o]
            diff = max(diff, np.inf if len(ra) != len(oa) else relative_difference(t, ra, oa))
        e = hw[ref["expected"]]
        e["entries"] += 1
        if ref["expected"] == "NOT_EQUIVALENT":
            if diff > 0:
                e["differ_on_gpu"] += 1
            else:
                e["same_on_gpu"].append(name)
        elif diff > e["max_relative_difference"]:
            e["max_relative_difference"], e["worst"] = diff, name
    summary["entries_on_gpu"] = hw

    print(f'device: {summary["device"]}')
    print(f'{summary["ran"]} of {summary["cases"]} cases ran; {summary["values"]} output values '
          f'compared; {summary["exact_cases"]} cases bit-exact')
    print(f'kernels without approximate instructions or races: {summary["exact_required"]}, '
          f'bit-exact: {summary["exact_required"] - len(summary["exact_failures"]) - len(summary["contracted"])}, '
          f'explained: {len(summary["contracted"])}, unexplained: {len(summary["exact_failures"])}')
    for f in summary["exact_failures"]:
        print(f'  NOT BIT-EXACT {f["name"]}: {f["arrays"]}')
    for f in summary["contracted"]:
        print(f'  contracted by ptxas (plain mul and add fused into an fma): {f["name"]}, '
              f'max {f["max_ulp"]:g} ULP')
    for k, s in sorted(summary["by_design"].items()):
        print(f'not bit-exact by design [{k}]: {s["cases"]} cases, {s["bit_exact"]} bit-exact, '
              f'max {s["max_ulp"]:g} ULP')
    for inst, s in sorted(summary["sweeps"].items()):
        print(f'sweep {inst}: {s["inputs"]} inputs, {s["bit_equal"]} equal to the model, '
              f'{s["within_1_ulp"]} within 1 ULP, {s["within_2_ulp"]} within 2, max '
              f'{s["max_ulp"]:g} ULP (input {s["worst_input_bits"]}: model {s["emulator"]}, '
              f'GPU {s["gpu"]})' + "".join(f'; on {r["range"]}: {r["inputs"]} inputs, max '
                                           f'absolute difference {r["max_abs_difference"]:.3g}'
                                           for r in s["ranges"]))
    for k, s in sorted(summary["approx"].items()):
        print(f'approximate [{k}]: {s["cases"]} cases, {s["bit_exact"]} bit-exact, '
              f'max {s["max_ulp"]:g} ULP')
    ce = hw["counterexamples"]
    print(f'counterexamples of prove run on the GPU: {ce["entries"]}, the two kernels store '
          f'different values at the element: {ce["differ_on_gpu"]}; the same: {ce["same_on_gpu"]}')
    ne, eq = hw["NOT_EQUIVALENT"], hw["EQUIVALENT"]
    print(f'NOT_EQUIVALENT entries on identical inputs: {ne["entries"]}, outputs differ on the GPU:'
          f' {ne["differ_on_gpu"]}; same on these inputs: {ne["same_on_gpu"]}')
    print(f'EQUIVALENT entries on identical inputs: {eq["entries"]}, largest relative difference '
          f'on the GPU: {eq["max_relative_difference"]:.3g} ({eq["worst"]})')
    for name, err in summary["errors"].items():
        print(f"  did not run: {name}: {err}")
    if args.json:
        json.dump({"summary": summary, "cases": per_case}, open(args.json, "w"), indent=1,
                  default=str)
    return 1 if summary["exact_failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
