#!/usr/bin/env python3
"""The package as a user installs it: fresh virtual environments, `pip install` offline (no
index), then the README's Python example, the example loop and the pytest suite against the
installed package (no PYTHONPATH, no build tree on sys.path).

  venv_install.py SOURCE_DIR WORK_DIR [--build-dir DIR] [--volta-eg BINARY]

Two environments, made by the Python running this script:
  - "plain": `python -m venv` alone (no numpy, no pytest), `pip install --no-index SOURCE` with
    build isolation (the in-tree backend needs nothing from an index). The README example runs;
    `run` must say it needs numpy.
  - "system": `python -m venv --system-site-packages` (the distribution's numpy and pytest),
    `pip install --no-index --no-build-isolation SOURCE`. The example loop and tests/python run.
--build-dir: reuse that configured build tree's extension (VOLTA_EG_BUILD_DIR, ctest passes the
release tree: the build inside pip is then a no-op); without it pip's build configures and builds
SOURCE/build/pip-<tag> (minutes on a small machine, most of it ccache hits).
The README example compiles a .cu with nvcc; without nvcc it reads the same kernel's committed
PTX instead (and says so).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path


def step(what, command, cwd, env, timeout=900):
    start = time.monotonic()
    out = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=timeout)
    seconds = time.monotonic() - start
    print(f"[{seconds:6.1f} s] {what}", flush=True)
    if out.returncode != 0:
        print(out.stdout[-6000:], out.stderr[-6000:], sep="\n", file=sys.stderr)
        sys.exit(f"FAILED: {what}: exit status {out.returncode}: {' '.join(map(str, command))}")
    return out.stdout


def clean_env(work, extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "VOLTA_EG_BUILD_DIR")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1", PIP_NO_CACHE_DIR="1",
               PYTHONDONTWRITEBYTECODE="1",
               # pip's and venv's temporary folders, and the tests' scratch files, stay in the
               # work folder (removed by the next run), not in the shared /tmp.
               TMPDIR=str(work / "tmp"))
    env.update(extra)
    return env


def readme_example(source):
    """The README's Python example (docs/python.md's "Five lines" is the same text)."""
    blocks = re.findall(r"```python\n(.*?)```", (source / "README.md").read_text(), re.S)
    assert blocks, "README.md has no ```python block"
    docs = re.findall(r"```python\n(.*?)```", (source / "docs" / "python.md").read_text(), re.S)
    assert blocks[0] in docs, "README's Python example differs from docs/python.md's"
    return blocks[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source", type=Path)
    parser.add_argument("work", type=Path)
    parser.add_argument("--build-dir")
    parser.add_argument("--volta-eg")
    args = parser.parse_args()
    source, work = args.source.resolve(), args.work.resolve()
    shutil.rmtree(work, ignore_errors=True)
    (work / "tmp").mkdir(parents=True)
    build = {"VOLTA_EG_BUILD_DIR": str(Path(args.build_dir).resolve())} if args.build_dir else {}
    env = clean_env(work, build)

    plain, system = work / "plain", work / "system"
    step("python -m venv plain", [sys.executable, "-m", "venv", plain], work, env)
    step("python -m venv --system-site-packages system",
         [sys.executable, "-m", "venv", "--system-site-packages", system], work, env)
    py_plain, py_system = plain / "bin" / "python", system / "bin" / "python"
    step("plain: pip install --no-index .",
         [py_plain, "-m", "pip", "install", "--no-index", source], work, env)
    step("system: pip install --no-index --no-build-isolation .",
         [py_system, "-m", "pip", "install", "--no-index", "--no-build-isolation", source],
         work, env)

    # The installed package is the one imported, from outside the source tree.
    for venv, py in ((plain, py_plain), (system, py_system)):
        where = step(f"{venv.name}: import volta_eg",
                     [py, "-c", "import volta_eg; print(volta_eg.__file__, volta_eg.__version__)"],
                     work, env)
        assert where.startswith(str(venv)), f"volta_eg imported from {where} (not {venv})"

    example = readme_example(source)
    nvcc = step("plain: volta_eg.find_nvcc()",
                [py_plain, "-c", "import volta_eg; print(volta_eg.find_nvcc() or '')"], work, env)
    if not nvcc.strip():
        print("nvcc not found: the README example reads cand_online.ptx instead of compiling "
              "cand_online.cu", flush=True)
        example = example.replace('cuda="examples/python/kernels/cand_online.cu"',
                                  'ptx="examples/python/kernels/cand_online.ptx"')
    out = step("plain: the README's Python example", [py_plain, "-c", example], source, env)
    assert out.strip() == "EQUIVALENT", out
    no_numpy = ("import volta_eg as ve\n"
                "k = ve.Kernel(ptx='examples/python/kernels/softmax_ref.ptx', block=4,"
                " args=[ve.In('x', (4, 40)), ve.Out('y', (4, 40))])\n"
                "try:\n    ve.run(k, {'x': [[0.0] * 40] * 4})\nexcept ImportError as e:\n"
                "    print(e)\n")
    out = step("plain: run without numpy says it needs numpy", [py_plain, "-c", no_numpy],
               source, env)
    assert "needs numpy" in out, out

    step("system: the example loop (examples/python/check_candidates.py)",
         [py_system, source / "examples" / "python" / "check_candidates.py"], source, env)
    test_env = clean_env(work, {**build, "VOLTA_SOURCE_DIR": str(source),
                          "VOLTA_EG_INSTALLED_IN": str(system)})
    if args.volta_eg:
        test_env["VOLTA_EG_BINARY"] = str(Path(args.volta_eg).resolve())
    tests_cwd = work / "tests-cwd"  # nothing else changes it while the tests compile CUDA
    tests_cwd.mkdir()
    step("system: pytest tests/python against the installed package",
         # Its own temporary folder: python.volta_eg may run the same tests at the same time,
         # and pytest prunes old folders under the shared /tmp/pytest-of-USER.
         [py_system, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp",
          work / "pytest", source / "tests" / "python"],
         tests_cwd, test_env)
    print("the installed package passes")


if __name__ == "__main__":
    main()
