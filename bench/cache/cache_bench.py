#!/usr/bin/env python3
"""The --cache benchmark: a batch run without a cache, with an empty cache (cold: every kernel
executed and every entry proved, the results written), and again with that cache (warm), each
repeated; prints the median wall times, their ratios and what the caches did. A fourth run
changes one optimized kernel's PTX bytes (a comment) in a copy of the manifest: only its entry
is proved again, beside whatever runs the execution cache kept.

  bench/cache/cache_bench.py [--tool build/release/volta-eg] [--manifest M] [--repeat 3]
                             [--jobs 2] [--filter REGEX]

Results go to docs/BENCHMARKS.md ("The cache").
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time


def run(tool, manifest, jobs, cache, report, flt):
    cmd = [tool, "prove", "--batch", manifest, "-j", str(jobs), "--no-z3", "-q",
           "--report", report]
    if cache:
        cmd += ["--cache", cache]
    if flt:
        cmd += ["--filter", flt]
    start = time.monotonic()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    with open(report) as f:
        result = json.load(f)
    return wall, done.returncode, result


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser()
    p.add_argument("--tool", default=os.path.join(root, "build/release/volta-eg"))
    p.add_argument("--manifest",
                   default=os.path.join(root, "../shared/volta-corpus/benchmarks.json"))
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--filter", default=None)
    a = p.parse_args()
    if not os.path.exists(a.manifest):
        print(f"cache_bench: skipped: {a.manifest} not found")
        return 0

    work = tempfile.mkdtemp(prefix="volta-cache-bench-")
    times = {"no cache": [], "cold cache": [], "warm cache": []}
    verdicts = {}
    caches = {}
    for rep in range(a.repeat):
        cache = os.path.join(work, f"cache{rep}")
        for label, c in (("no cache", None), ("cold cache", cache), ("warm cache", cache)):
            report = os.path.join(work, f"{label.replace(' ', '_')}{rep}.json")
            wall, rc, result = run(a.tool, a.manifest, a.jobs, c, report, a.filter)
            times[label].append(wall)
            verdicts.setdefault(label, [r["verdict"] for r in result["results"]])
            caches[label] = result.get("cache")
            print(f"  {label:10s} run {rep + 1}: {wall:7.2f} s (exit {rc})", flush=True)
    same = verdicts["no cache"] == verdicts["cold cache"] == verdicts["warm cache"]
    base = statistics.median(times["no cache"])
    print(f"\n{len(verdicts['no cache'])} entries, -j {a.jobs}, {a.repeat} repetitions, "
          f"verdicts identical in every run: {same}")
    print("| run | median wall | vs no cache |")
    print("|---|---|---|")
    for label, ts in times.items():
        m = statistics.median(ts)
        print(f"| {label} | {m:.2f} s | {base / m:.1f}x faster |" if label != "no cache"
              else f"| {label} | {m:.2f} s | 1 |")
    for label in ("cold cache", "warm cache"):
        c = caches[label] or {}
        print(f"{label}: entries {c.get('entries')}, executions {c.get('executions')}")
    shutil.rmtree(work, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
