#!/usr/bin/env python3
"""How time and memory of `volta-eg prove` grow with the problem size (all CTAs on both sides).

Three pairs, each a naive reference against its tiled/online rewrite, the size a kernel parameter
(kernels/*.cu, compiled PTX beside them):
  gemm       gemm_naive_n vs gemm_tiled_n, n x n x n, 16 x 16 tiles, grid (n/16, n/16)
  attention  attention_naive_l vs attention_online_l, sequence length l, head dim 16,
             one query per thread, key tiles of 16, grid (l/16)
  rows       attention_naive_rows vs attention_tiled_online_rows, sequence length l, head dim
             16, one query row per thread, key tiles of 32 in shared memory with a running
             maximum updated key by key, grid (l/32) (issue 34's cliff)

Every size runs in its own `volta-eg prove` process; wall time is measured around it and peak
resident memory is the child's ru_maxrss. Medians over --repeat runs. Prints a Markdown table.
Every pair is proved a group of CTAs at a time (streamed proofs); flags after `--` go to
`volta-eg prove`, e.g. `-- --no-stream` for the whole grid at once.

  bench/scaling/scaling_bench.py build/release/volta-eg --gemm 64,128,256 --attention 256,512
  bench/scaling/scaling_bench.py build/release/volta-eg --gemm 256 --attention 1024 -- --no-stream
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))


def array(name, base, length, kind):
    return {"name": name, "base": hex(base), "elem_width": 4, "len": length, "kind": kind,
            "type": "f32"}


def kernel(ptx, entry, block, grid, arrays, params):
    return {"ptx": os.path.join(HERE, "kernels", ptx), "entry": entry, "block": block,
            "grid": grid, "arrays": arrays, "params": params, "dyn_shared_bytes": 0,
            "ctas": "all"}


def gemm_entry(n):
    arrays = [array("A", 0x10000000, n * n, "in"), array("B", 0x20000000, n * n, "in"),
              array("C", 0x30000000, n * n, "out")]
    params = ["ptr:A", "ptr:B", "ptr:C", f"int:{n}"]
    grid = [n // 16, n // 16, 1]
    return {"name": f"gemm n={n}", "kind": "equivalence", "expected": "EQUIVALENT",
            "reference": kernel("gemm_naive_n.ptx", "gemm_naive_n", [16, 16, 1], grid, arrays,
                                params),
            "optimized": kernel("gemm_tiled_n.ptx", "gemm_tiled_n", [16, 16, 1], grid, arrays,
                                params),
            "check_arrays": ["C"]}


def attention_entry(l):
    arrays = [array("Q", 0x10000000, l * 16, "in"), array("K", 0x20000000, l * 16, "in"),
              array("V", 0x30000000, l * 16, "in"), array("O", 0x40000000, l * 16, "out")]
    params = ["ptr:Q", "ptr:K", "ptr:V", "ptr:O", f"int:{l}"]
    grid = [l // 16, 1, 1]
    return {"name": f"attention l={l}", "kind": "equivalence", "expected": "EQUIVALENT",
            "reference": kernel("attention_naive_l.ptx", "attention_naive_l", [16, 1, 1], grid,
                                arrays, params),
            "optimized": kernel("attention_online_l.ptx", "attention_online_l", [16, 1, 1],
                                grid, arrays, params),
            "check_arrays": ["O"]}


def rows_entry(l):
    arrays = [array("Q", 0x10000000, l * 16, "in"), array("K", 0x20000000, l * 16, "in"),
              array("V", 0x30000000, l * 16, "in"), array("O", 0x40000000, l * 16, "out")]
    params = ["ptr:Q", "ptr:K", "ptr:V", "ptr:O", f"int:{l}"]
    grid = [l // 32, 1, 1]
    return {"name": f"attention rows l={l}", "kind": "equivalence", "expected": "EQUIVALENT",
            "reference": kernel("attention_naive_rows.ptx", "attention_naive_rows", [32, 1, 1],
                                grid, arrays, params),
            "optimized": kernel("attention_tiled_online_rows.ptx", "attention_tiled_online_rows",
                                [32, 1, 1], grid, arrays, params),
            "check_arrays": ["O"]}


def run_once(tool, entry, extra, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        manifest = os.path.join(tmp, "m.json")
        report = os.path.join(tmp, "r.json")
        with open(manifest, "w") as f:
            json.dump({"benchmarks": [entry]}, f)
        start = time.monotonic()
        proc = subprocess.Popen([tool, "prove", "--batch", manifest, "--report", report,
                                 "--no-progress", "-q", "--timeout", str(timeout)] + extra)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        verdict = "?"
        if os.path.exists(report):
            with open(report) as f:
                results = json.load(f).get("results", [])
            if results:
                verdict = results[0].get("verdict", "?")
        return wall, usage.ru_maxrss / (1024 * 1024), verdict


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tool")
    ap.add_argument("--gemm", default="64,128,256")
    ap.add_argument("--attention", default="256,512,1024")
    ap.add_argument("--rows", default="",
                    help="sizes for the rows pair (issue 34's cliff), e.g. 256,512,1024")
    ap.add_argument("--manifest", metavar="DIR",
                    help="only write one manifest per entry into DIR (NAME-SIZE.json), run none")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("extra", nargs="*", help="more volta-eg prove flags (after --)")
    args = ap.parse_args()
    rows = []
    for family, sizes, make in (("gemm", args.gemm, gemm_entry),
                                ("attention", args.attention, attention_entry),
                                ("rows", args.rows, rows_entry)):
        for size in [int(s) for s in sizes.split(",") if s]:
            if args.manifest:
                os.makedirs(args.manifest, exist_ok=True)
                with open(os.path.join(args.manifest, f"{family}-{size}.json"), "w") as f:
                    json.dump({"benchmarks": [make(size)]}, f, indent=1)
                continue
            runs = [run_once(args.tool, make(size), args.extra, args.timeout)
                    for _ in range(args.repeat)]
            wall = statistics.median(r[0] for r in runs)
            rss = statistics.median(r[1] for r in runs)
            verdicts = sorted({r[2] for r in runs})
            rows.append((family, size, wall, rss, "/".join(verdicts)))
            print(f"{family} {size}: {wall:.2f} s, {rss:.2f} GiB, {'/'.join(verdicts)}",
                  file=sys.stderr, flush=True)
    if args.manifest:
        return
    print("| pair | size | wall (median) | peak RSS | verdict |")
    print("|---|---|---|---|---|")
    for family, size, wall, rss, verdict in rows:
        print(f"| {family} | {size} | {wall:.2f} s | {rss:.2f} GiB | {verdict} |")


if __name__ == "__main__":
    main()
