#!/usr/bin/python3
"""Writes sweep.ptx and sweep.json: one kernel per approximate (and a few exact) float
instruction, each applied to 2^18 bit patterns spread over the whole float space.

Thread i takes the bits (i * 16411) mod 2^32 (and (i * 40503 + 12345) mod 2^32 for a second
operand): an odd multiplier walks every exponent evenly, so each binade, the subnormals, the
infinities and NaNs all get inputs. The kernels compute their own inputs from the thread index,
so the emulator and the GPU need no input files. make_bundle.py runs them like any manifest;
compare.py reports, per instruction, how far the GPU is from the emulator's model (the exactly
rounded value for .approx instructions).

usage: make_sweep.py OUT_DIR
"""
import json
import os
import sys

THREADS, BLOCK = 1 << 18, 256
# (name, PTX instruction, operand type, operands)
F32 = [("ex2_approx_f32", "ex2.approx.f32", 1), ("ex2_approx_ftz_f32", "ex2.approx.ftz.f32", 1),
       ("lg2_approx_f32", "lg2.approx.f32", 1), ("lg2_approx_ftz_f32", "lg2.approx.ftz.f32", 1),
       ("rcp_approx_f32", "rcp.approx.f32", 1), ("rcp_approx_ftz_f32", "rcp.approx.ftz.f32", 1),
       ("rsqrt_approx_f32", "rsqrt.approx.f32", 1),
       ("rsqrt_approx_ftz_f32", "rsqrt.approx.ftz.f32", 1),
       ("sqrt_approx_f32", "sqrt.approx.f32", 1), ("sin_approx_f32", "sin.approx.f32", 1),
       ("cos_approx_f32", "cos.approx.f32", 1), ("tanh_approx_f32", "tanh.approx.f32", 1),
       ("div_approx_f32", "div.approx.f32", 2), ("div_full_f32", "div.full.f32", 2),
       ("sqrt_rn_f32", "sqrt.rn.f32", 1), ("rcp_rn_f32", "rcp.rn.f32", 1),
       ("div_rn_f32", "div.rn.f32", 2), ("fma_rn_f32", "fma.rn.f32", 3)]
F16 = [("ex2_approx_f16", "ex2.approx.f16", 1), ("tanh_approx_f16", "tanh.approx.f16", 1)]
# Flush-to-zero at the edge of the normal range, where the emulator's reading (a result is
# subnormal when its *rounded* value is, IEEE's tininess after rounding) needs the device:
# a runs over the top subnormals and the lowest normals, b just below 1 (products that round
# up to FLT_MIN or stay below it), c a small negative (sums that cancel into the subnormals).
EDGE = """  and.b32 %r5, %r5, 0x001FFFFF;
  add.u32 %r5, %r5, 0x00700000;
  and.b32 %r6, %r4, 0x3FF;
  add.u32 %r6, %r6, 0x3F7FFC00;
  and.b32 %r7, %r7, 0x000FFFFF;
  add.u32 %r7, %r7, 0x80780000;
"""
# Tininess after rounding itself: a just above FLT_MIN (a = FLT_MIN (1 + k 2^-23)), b just below
# 1 (b = 1 - m 2^-24): many products lie below FLT_MIN and round up to it.
TINY = """  and.b32 %r5, %r4, 0x3FF;
  add.u32 %r5, %r5, 0x00800000;
  shr.u32 %r6, %r4, 10;
  and.b32 %r6, %r6, 0xFF;
  sub.u32 %r6, 0x3F7FFFFF, %r6;
  mov.u32 %r7, 0;
"""
F32_TINY = [("mul_rn_ftz_tiny", "mul.rn.ftz.f32", 2), ("mul_rn_tiny", "mul.rn.f32", 2),
            ("fma_rn_ftz_tiny", "fma.rn.ftz.f32", 3)]
F32_EDGE = [("mul_rn_ftz_edge", "mul.rn.ftz.f32", 2), ("mul_rn_edge", "mul.rn.f32", 2),
            ("fma_rn_ftz_edge", "fma.rn.ftz.f32", 3), ("fma_rn_edge", "fma.rn.f32", 3),
            ("add_rn_ftz_edge", "add.rn.ftz.f32", 2), ("sub_rn_ftz_edge", "sub.rn.ftz.f32", 2)]

INDEX = """  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.u32 %r4, %r1, %r2, %r3;
  mul.lo.u32 %r5, %r4, 16411;
  mad.lo.u32 %r6, %r4, 40503, 12345;
  mad.lo.u32 %r7, %r4, 7919, 977;
"""


def f32_kernel(name, inst, arity, edge=False, inputs=""):
    ops = ", ".join(f"%f{k}" for k in range(1, arity + 1))
    if inst.startswith(("add", "sub")) and edge:
        ops = "%f1, %f3"  # a subnormal-edge value and a small negative: sums that cancel
    return f""".visible .entry sweep_{name}(.param .u64 out)
{{
  .reg .b32 %r<8>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<4>;
{INDEX}{EDGE if edge else inputs}  mov.b32 %f1, %r5;
  mov.b32 %f2, %r6;
  mov.b32 %f3, %r7;
  {inst} %f4, {ops};
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f4;
  ret;
}}
"""


def f16_kernel(name, inst, _arity):
    return f""".visible .entry sweep_{name}(.param .u64 out)
{{
  .reg .b16 %h<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
{INDEX}  cvt.u16.u32 %h1, %r5;
  {inst} %h2, %h1;
  mul.wide.u32 %rd2, %r4, 2;
  add.s64 %rd3, %rd1, %rd2;
  st.global.b16 [%rd3], %h2;
  ret;
}}
"""


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    text = ".version 8.0\n.target sm_80\n.address_size 64\n\n"
    entries = []
    edge_kernel = lambda name, inst, arity: f32_kernel(name, inst, arity, edge=True)
    for table, make, width, typ in ((F32, f32_kernel, 4, "f32"), (F16, f16_kernel, 2, "f16"),
                                    (F32_EDGE, edge_kernel, 4, "f32"),
                                    (F32_TINY, lambda n, i, a: f32_kernel(n, i, a, inputs=TINY),
                                     4, "f32")):
        for name, inst, arity in table:
            text += make(name, inst, arity) + "\n"
            entries.append({
                "name": f"sweep {inst}", "kind": "race_check", "expected": "RACE_FREE",
                "kernel": {"ptx": "sweep.ptx", "entry": f"sweep_{name}", "block": [BLOCK, 1, 1],
                           "grid": [THREADS // BLOCK, 1, 1], "ctas": "all",
                           "arrays": [{"name": "out", "base": "0x100000", "elem_width": width,
                                       "len": THREADS, "kind": "out", "type": typ}],
                           "params": ["ptr:out"], "dyn_shared_bytes": 0}})
    open(os.path.join(out, "sweep.ptx"), "w").write(text)
    json.dump({"benchmarks": entries}, open(os.path.join(out, "sweep.json"), "w"), indent=1)
    print(f"{len(entries)} sweep kernels in {out}")


if __name__ == "__main__":
    main()
