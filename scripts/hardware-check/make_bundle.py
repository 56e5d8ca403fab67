#!/usr/bin/python3
"""Builds the bundle of the emulator-versus-GPU check (no GPU needed here).

For every kernel of the given manifests (each side of an equivalence entry, the kernel of a race
check) it runs `volta-eg run` over the whole grid on random inputs, saves the inputs it used and
the outputs it computed, and writes a case description that run_on_gpu.py launches on a real GPU
with the same inputs. compare.py then compares the two, bit for bit.

Cases the emulator refuses (a race, an out-of-bounds access, a deadlock, an unsupported
instruction on these inputs) are left out and counted: a GPU run of them would be undefined or
could end the GPU context. Kernels that call an extern device function (the corpus's __symexpf)
or use module globals or by-value aggregates are left out too: a plain launch cannot give them.

With --counterexamples, `volta-eg prove` runs over each manifest first, and both kernels of every
NOT_EQUIVALENT entry also become cases at the counterexample's inputs (`run --counterexample`):
compare.py then says whether a real GPU stores different values at the counterexample's element.

usage: make_bundle.py BUNDLE_DIR MANIFEST... [--volta-eg PATH] [--seed N] [--counterexamples]
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys

PARAM_RE = re.compile(r"\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)\s+([\w$]+)(\[\d+\])?")


def entry_params(ptx_text, entry):
    """The PTX types of an entry's parameters, in order ('b8[472]' style for aggregates)."""
    m = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\(([^)]*)\)", ptx_text)
    if not m:
        return None
    out = []
    for t, _name, dims in PARAM_RE.findall(m.group(1)):
        out.append(t + (dims or ""))
    return out


FEATURES = {
    # ptxas may fuse a mul and an add that carry no rounding modifier into one fma (PTX ISA,
    # "add"/"mul": "may be optimized aggressively"); the emulator rounds each of them.
    "plain-mul": re.compile(r"\bmul(?:\.ftz)?(?:\.sat)?\.(?:f16|f16x2|bf16|bf16x2|f32|f64)\b"),
    # Tensor-core accumulation: order and intermediate precision are the hardware's.
    "mma": re.compile(r"\b(?:mma|wmma)\.[a-z]"),
    # Float atomic sums: the order of the additions is the schedule's.
    "float-atomic": re.compile(r"\b(?:atom|red)\.[\w.]*add[\w.]*\.(?:f16|bf16|f32|f64)"),
}


def entry_body(ptx_text, entry):
    """The entry's own text, or the whole module where the entry calls functions."""
    m = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\(", ptx_text)
    if not m:
        return ptx_text
    # Up to the next function: inline asm blocks close with a "}" of their own.
    following = re.search(r"\.(?:entry|func)\s", ptx_text[m.end():])
    body = ptx_text[m.start():m.end() + following.start()] if following else ptx_text[m.start():]
    return ptx_text if re.search(r"\bcall", body) else body


def side_config(b, side):
    if side == "kernel":
        return b.get("kernel")
    return b.get("reference" if side == "ref" else "optimized")


FIELD_FORMATS = {"u64": "<Q", "s64": "<Q", "b64": "<Q", "u32": "<I", "s32": "<I", "b32": "<I",
                 "u16": "<H", "s16": "<H", "b16": "<H", "u8": "<B", "s8": "<B", "b8": "<B",
                 "bool": "<B", "f32": "<f", "f64": "<d"}


def aggregate(p, manifest_dir, arrays):
    """The bytes of a by-value aggregate as the manifest builds them (the bytes file, then the
    typed fields; pointers hold the arrays' manifest bases), and its relocations, for the GPU to
    replace by device addresses: the fields given as "ptr:", or, for an aggregate given by its
    bytes only, the aligned words equal to an array's base. (Any word inside an array's range
    would not do: with bases at 2^32, two packed 32-bit sizes (k = 72, batch = 1) look like a
    pointer 72 bytes into A.)"""
    data = bytearray(p["struct"])
    if p.get("bytes"):
        raw = open(os.path.join(manifest_dir, p["bytes"]), "rb").read()
        data[:len(raw)] = raw
    bases = {a["name"]: int(str(a["base"]), 0) for a in arrays}
    relocations = []
    fields = p.get("fields", [])
    for f in fields:
        kind, _, value = f["value"].partition(":")
        if kind == "ptr":
            name, _, off = value.partition("+")
            v = bases[name] + int(off or "0", 0)
            relocations.append([f["offset"], name, int(off or "0", 0)])
        elif kind == "int":
            v = int(value, 0)
        else:
            v = float(value)
        fmt = FIELD_FORMATS[f["type"]]
        if fmt[-1] not in "fd":
            v &= (1 << (8 * struct.calcsize(fmt))) - 1
        struct.pack_into(fmt, data, f["offset"], v)
    if not fields:
        for off in range(0, len(data) - 7, 8):
            word = int.from_bytes(data[off:off + 8], "little")
            relocations += [[off, name, 0] for name, base in bases.items() if word == base]
    return bytes(data), relocations


def run_flags(cfg, manifest_dir, grid):
    flags = ["--ptx", os.path.join(manifest_dir, cfg["ptx"]), "--kernel", cfg["entry"],
             "--block", ",".join(map(str, cfg["block"])), "--grid", ",".join(map(str, grid)),
             "--ctas", "all", "--dyn-shared", str(cfg.get("dyn_shared_bytes", 0))]
    for a in cfg["arrays"]:
        spec = f'{a["name"]}:{a["base"]}:{a["elem_width"]}:{a["len"]}:{a["kind"]}'
        if a.get("type"):
            spec += ":" + a["type"]
        flags += ["--array", spec]
    for p in cfg["params"]:
        flags += ["--param", p if isinstance(p, str) else f'struct:{p["struct"]}:bytes={p["path"]}']
    return flags


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle")
    ap.add_argument("manifests", nargs="+")
    ap.add_argument("--volta-eg", default="build/release/volta-eg")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--max-instructions", default="300000000")
    ap.add_argument("--max-bytes", type=int, default=1 << 20)
    ap.add_argument("--counterexamples", action="store_true",
                    help="also run each NOT_EQUIVALENT entry at the counterexample of `prove`")
    args = ap.parse_args()

    if os.path.exists(args.bundle):
        shutil.rmtree(args.bundle)
    os.makedirs(os.path.join(args.bundle, "ptx"))
    cases, skipped = [], {}

    def skip(reason, name):
        skipped.setdefault(reason, []).append(name)

    for manifest in args.manifests:
        mdir = os.path.dirname(os.path.abspath(manifest))
        doc = json.load(open(manifest))
        entries = doc["benchmarks"] if isinstance(doc, dict) else doc
        tag = os.path.basename(mdir) if os.path.basename(manifest) == "manifest.json" else \
            os.path.splitext(os.path.basename(manifest))[0]
        counterexamples = {}
        if args.counterexamples:
            report = os.path.join(args.bundle, "reports", tag + ".json")
            os.makedirs(os.path.dirname(report), exist_ok=True)
            subprocess.run([args.volta_eg, "prove", "--batch", manifest, "-q", "--report", report],
                           capture_output=True, timeout=1800)
            for r in json.load(open(report))["results"]:
                c = r.get("counterexample")
                if r.get("verdict") == "NOT_EQUIVALENT" and c and c.get("inputs") is not None:
                    counterexamples[r["name"]] = (report, c["element"])
        for b in entries:
            sides = ["kernel"] if "kernel" in b and isinstance(b["kernel"], dict) else ["ref", "opt"]
            variants = [None]
            if b["name"] in counterexamples:
                variants.append(counterexamples[b["name"]])
            for side, variant in ((s, v) for v in variants for s in sides):
                cfg = side_config(b, side)
                name = f'{tag}/{b["name"]}/{side}' + (" at its counterexample" if variant else "")
                if not isinstance(cfg, dict):
                    skip("no kernel configuration", name)
                    continue
                ptx_path = os.path.join(mdir, cfg["ptx"])
                text = open(ptx_path).read()
                if cfg.get("globals"):
                    skip("module globals given by the manifest", name)
                    continue
                if re.search(r"\.extern\s+\.func", text):
                    skip("calls an extern device function", name)
                    continue
                ptypes = entry_params(text, cfg["entry"])
                if ptypes is None or len(ptypes) != len(cfg["params"]) or \
                        any(("[" in t) != isinstance(p, dict) for t, p in zip(ptypes, cfg["params"])):
                    skip("parameters differ from the PTX", name)
                    continue
                cfg = dict(cfg)
                params = []
                for i, p in enumerate(cfg["params"]):
                    if isinstance(p, dict):
                        data, relocations = aggregate(p, mdir, cfg["arrays"])
                        rel = os.path.join("params", f"c{len(cases):04d}_{i}.bin")
                        os.makedirs(os.path.join(args.bundle, "params"), exist_ok=True)
                        open(os.path.join(args.bundle, rel), "wb").write(data)
                        p = {"struct": p["struct"], "file": rel, "relocations": relocations,
                             "path": os.path.abspath(os.path.join(args.bundle, rel))}
                    params.append(p)
                cfg["params"] = params
                total = sum(int(a["elem_width"]) * int(a["len"]) for a in cfg["arrays"])
                if total > args.max_bytes:
                    skip(f"arrays over {args.max_bytes} bytes (the bundle travels)", name)
                    continue
                case_id = f"c{len(cases):04d}"
                cdir = os.path.join(args.bundle, case_id)
                grid = cfg["grid"]
                attempts = [grid]
                if cfg.get("ctas", "first") != "all" and grid != [1, 1, 1]:
                    attempts.append([1, 1, 1])  # the corpus sizes arrays for CTA 0 only
                ok = False
                for g in attempts:
                    shutil.rmtree(cdir, ignore_errors=True)
                    cmd = [args.volta_eg, "run", "-q", "--seed", str(args.seed),
                           "--max-instructions", args.max_instructions,
                           "--save-inputs", os.path.join(cdir, "inputs"),
                           "--out", os.path.join(cdir, "emulator")] + run_flags(cfg, mdir, g)
                    if variant:
                        cmd += ["--filter", b["name"], "--counterexample", variant[0]]
                    try:
                        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
                    except subprocess.TimeoutExpired:
                        reason = "emulator timed out"
                        continue
                    if r.returncode == 0:
                        ok, grid = True, g
                        break
                    reason = "emulator: " + (r.stderr.strip().splitlines() or ["?"])[-1][:160]
                if not ok:
                    shutil.rmtree(cdir, ignore_errors=True)
                    skip(re.sub(r"^.*?error: ", "", reason).split(":")[0][:60], name)
                    continue
                digest = hashlib.sha256(text.encode()).hexdigest()[:16]
                ptx_copy = os.path.join("ptx", digest + ".ptx")
                if not os.path.exists(os.path.join(args.bundle, ptx_copy)):
                    shutil.copy(ptx_path, os.path.join(args.bundle, ptx_copy))
                body = entry_body(text, cfg["entry"])
                symbols = json.load(open(os.path.join(cdir, "inputs", "symbols.json")))
                cases.append({
                    "id": case_id, "name": name, "entry_name": f'{tag}/{b["name"]}' + (" @counterexample" if variant else ""),
                    "side": side, "expected": b.get("expected"), "ptx": ptx_copy,
                    "entry": cfg["entry"], "grid": grid, "block": cfg["block"],
                    "dyn_shared": cfg.get("dyn_shared_bytes", 0),
                    "arrays": [{k: a.get(k) for k in ("name", "elem_width", "len", "kind", "type")}
                               for a in cfg["arrays"]],
                    "params": [p if isinstance(p, str) else {k: p[k] for k in
                                                             ("struct", "file", "relocations")}
                               for p in cfg["params"]],
                    "param_types": ptypes, "symbols": symbols,
                    "approx": sorted(set(re.findall(r"\b(\w+\.approx[\w.]*)", body))),
                    "features": [f for f, r in FEATURES.items() if r.search(body)],
                    "counterexample_element": variant[1] if variant else None,
                    "uninitialized_reads": "reads of memory no thread wrote" in r.stderr,
                })
    json.dump({"cases": cases, "skipped": skipped}, open(os.path.join(args.bundle, "cases.json"),
                                                         "w"), indent=1)
    print(f"{len(cases)} cases; skipped: " +
          ", ".join(f"{k}: {len(v)}" for k, v in sorted(skipped.items())))


if __name__ == "__main__":
    sys.exit(main())
