#!/usr/bin/env python3
"""The inner step of a kernel-optimization loop: check every candidate rewrite of a reference.

The reference is a row-wise softmax (kernels/softmax_ref.cu, one thread per row); the candidates
are rewrites such a loop produces, some right and some with the bugs real loops make (a dropped
tail tile, a missing barrier, a forgotten rescale). Each candidate records the verdict it must
get; the script prints a table and exits 1 when any verdict differs from the one recorded.

    PYTHONPATH=build/release/python python3 examples/python/check_candidates.py
    ... --cache /tmp/volta-cache     # the reference is executed once, then read from the cache
    ... --cuda                       # compile the .cu files with nvcc instead of the PTX
"""

import argparse
import sys
import time
from pathlib import Path

import volta_eg as ve

HERE = Path(__file__).resolve().parent / "kernels"
ROWS, COLS = 4, 40

# name -> (launch: "row" one thread per row, "block" one CTA per row; expected verdict)
CANDIDATES = {
    "cand_online": ("row", "EQUIVALENT"),
    "cand_online_no_rescale": ("row", "NOT_EQUIVALENT"),
    "cand_tiled": ("row", "EQUIVALENT"),
    "cand_tiled_no_tail": ("row", "NOT_EQUIVALENT"),
    "cand_tiled_unguarded": ("row", "OUT_OF_BOUNDS"),
    "cand_reciprocal": ("row", "EQUIVALENT"),
    "cand_zero_max": ("row", "EQUIVALENT"),
    "cand_row_stride": ("row", "NOT_EQUIVALENT"),
    "cand_block": ("block", "EQUIVALENT"),
    "cand_block_no_barrier": ("block", "DATA_RACE"),
    "cand_block_last_row": ("block", "NOT_EQUIVALENT"),
}


def kernel(name, launch, use_cuda, cache_dir):
    source = {"cuda": HERE / f"{name}.cu"} if use_cuda else {"ptx": HERE / f"{name}.ptx"}
    grid, block = ((1,), (ROWS,)) if launch == "row" else ((ROWS,), (64,))
    args = [ve.In("x", (ROWS, COLS)), ve.Out("y", (ROWS, COLS))]
    return ve.Kernel(**source, entry=name, grid=grid, block=block, args=args,
                     cache_dir=cache_dir)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", help="cache folder (the CLI's --cache DIR)")
    parser.add_argument("--cuda", action="store_true", help="compile the .cu sources with nvcc")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()

    start = time.perf_counter()
    reference = kernel("softmax_ref", "row", args.cuda, args.cache)
    pairs = [ve.Pair(reference, kernel(name, launch, args.cuda, args.cache), name=name,
                     expected=expected)
             for name, (launch, expected) in CANDIDATES.items()]
    print(f"{'candidate':24} {'verdict':16} {'expected':16} {'ok':4} {'seconds':>8}  detail")
    wrong = 0
    executed = 0
    for r in ve.prove_batch(pairs, jobs=args.jobs, cache_dir=args.cache):
        ok = r.verdict == r.expected
        wrong += not ok
        executed += len(r.executed)
        detail = r.detail if len(r.detail) < 70 else r.detail[:67] + "..."
        print(f"{r.name:24} {r.verdict:16} {r.expected:16} {'yes' if ok else 'NO':4} "
              f"{r.seconds:8.3f}  {detail}")
    print(f"\n{len(pairs)} candidates: {len(pairs) - wrong} as expected, {wrong} not; "
          f"{executed} kernel runs executed; {time.perf_counter() - start:.3f}s")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
