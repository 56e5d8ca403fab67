#!/usr/bin/env python3
"""A/B cost of the emulator cross-check of an EQUIVALENT (docs/semantics.md, "The emulator
cross-check"; results in docs/BENCHMARKS.md).

Runs `volta-eg prove --batch MANIFEST -j 1` alternately with the cross-check (the default) and
with --no-cross-check, N times each, and prints per EQUIVALENT entry the medians of its seconds
in both, of its `phases.cross_check`, the cross-check's share of the entry's time, the input
sets it ran and its emulated thread-instructions; then the totals. Alternating the two runs
keeps a load that changes over time from favouring one side.

  bench/crosscheck/cross_check_ab.py [MANIFEST...] [--repeat 3] [--filter TEXT]
                                      [--binary build/release/volta-eg]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(binary, manifest, extra, filt):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        args = [binary, "prove", "--batch", manifest, "-j", "1", "--report", report, "-q"] + extra
        if filt:
            args += ["--filter", filt]
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        with open(report) as f:
            return json.load(f)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("manifests", nargs="*",
                   default=[os.path.join(ROOT, "examples/manifest.json"),
                            os.path.join(ROOT, "../shared/volta-corpus/benchmarks.json")])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--filter", default="")
    p.add_argument("--binary", default=os.path.join(ROOT, "build/release/volta-eg"))
    a = p.parse_args()
    for manifest in a.manifests:
        if not os.path.exists(manifest):
            print(f"{manifest}: not found, skipped")
            continue
        on, off = {}, {}
        for _ in range(a.repeat):
            for store, extra in ((on, []), (off, ["--no-cross-check"])):
                for r in run(a.binary, manifest, extra, a.filter)["results"]:
                    store.setdefault(r["name"], []).append(r)
        print(f"\n{os.path.relpath(manifest, ROOT)} ({a.repeat} runs each, medians)")
        print(f"{'entry':48} {'off s':>8} {'on s':>8} {'check s':>8} {'share':>6} "
              f"{'sets':>4} {'emulated':>12}")
        total_on = total_off = total_check = 0.0
        for name, runs in on.items():
            if runs[0]["verdict"] not in ("EQUIVALENT", "INCONSISTENT"):
                continue
            s_on = statistics.median(r["seconds"] for r in runs)
            s_off = statistics.median(r["seconds"] for r in off.get(name, runs))
            check = statistics.median(r["phases"].get("cross_check", 0.0) for r in runs)
            c = runs[0].get("cross_check") or {}
            total_on, total_off, total_check = total_on + s_on, total_off + s_off, total_check + check
            print(f"{name[:48]:48} {s_off:8.3f} {s_on:8.3f} {check:8.3f} "
                  f"{100 * check / s_on if s_on else 0:5.1f}% {c.get('inputs', 0):>4} "
                  f"{c.get('instructions', 0):>12,}")
        # Every run's verdicts against the manifest's expectations: the cross-check may only
        # take an EQUIVALENT away, and on a sound pair it must not (an INCONSISTENT there is a
        # false alarm or a wrong proof).
        for label, store in (("with the cross-check", on), ("without", off)):
            wrong = sorted({f"{n}: {r['verdict']} (expected {r['expected']})"
                            for n, runs in store.items() for r in runs
                            if r.get("expected") and r["verdict"] != r["expected"]})
            print(f"{label}: {len(store)} entries, {len(wrong)} not as expected"
                  + "".join(f"\n  {w}" for w in wrong))
        if total_on:
            print(f"{'total (EQUIVALENT entries)':48} {total_off:8.3f} {total_on:8.3f} "
                  f"{total_check:8.3f} {100 * total_check / total_on:5.1f}%")


if __name__ == "__main__":
    sys.exit(main())
