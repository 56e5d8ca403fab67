#!/usr/bin/env python3
"""Runs the shell examples of a Markdown file (the README) and compares their output.

A fenced block whose first line starts with "$ " is an example: each "$ " line (continued by
a trailing backslash) is a command, and the lines after it, up to the next command, are what it
prints on stdout. A line "..." stands for any number of lines, and a line that ends in "..."
for any line that begins with the text before it. Numbers with a decimal point
(times, which vary) match any number with a decimal point; runs of spaces match any run of
spaces. `volta-eg` is the binary under test. `cat FILE` of a file that does not exist writes the
block's lines as FILE (that is how an example shows a file it then uses). Commands run in a
scratch folder where the repository's examples/, rules/ and docs/ are visible, so that the files
the examples write (reports, caches) stay out of the source tree. Exit status 0 when every
example printed what the document says.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

FLOAT = re.compile(r"-?\d+\.\d+")


def examples(markdown):
    """Yields (line number, command, expected lines) for every example command."""
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```"):
            i += 1
            continue
        start = i + 1
        end = start
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        block = lines[start:end]
        i = end + 1
        if not block or not block[0].startswith("$ "):
            continue
        k = 0
        while k < len(block):
            line_no = start + k + 1
            command = block[k][2:]
            while command.endswith("\\") and k + 1 < len(block):
                k += 1
                command = command[:-1] + " " + block[k].strip()
            k += 1
            expected = []
            while k < len(block) and not block[k].startswith("$ "):
                expected.append(block[k])
                k += 1
            yield line_no, command, expected


def normalize(line):
    return " ".join(FLOAT.sub("#.#", line).split())


def matches(expected, actual):
    """Whether `actual` lines match `expected`, with "..." matching any run of lines."""
    exp = [normalize(l) for l in expected]
    act = [normalize(l) for l in actual]
    # memo[i][j]: exp[i:] matches act[j:]
    memo = {}

    def go(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(exp):
            ok = j == len(act)
        elif exp[i] == "...":
            ok = any(go(i + 1, jj) for jj in range(j, len(act) + 1))
        elif exp[i].endswith("..."):
            ok = j < len(act) and act[j].startswith(exp[i][:-3]) and go(i + 1, j + 1)
        else:
            ok = j < len(act) and exp[i] == act[j] and go(i + 1, j + 1)
        memo[(i, j)] = ok
        return ok

    return go(0, 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--volta-eg", required=True, help="the binary under test")
    ap.add_argument("--root", required=True, help="the repository root")
    ap.add_argument("--document", default="README.md")
    ap.add_argument("--skip", action="append", default=[],
                    help="skip commands that start with this text (repeatable)")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    binary = os.path.abspath(args.volta_eg)
    with open(os.path.join(root, args.document), encoding="utf-8") as f:
        text = f.read()
    scratch = tempfile.mkdtemp(prefix="readme-examples-")
    for name in ("examples", "rules", "docs"):
        os.symlink(os.path.join(root, name), os.path.join(scratch, name))
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(binary) + os.pathsep + env.get("PATH", "")
    env.pop("TERM", None)
    failures = ran = skipped = 0
    try:
        for line_no, command, expected in examples(text):
            where = f"{args.document}:{line_no}"
            if any(command.startswith(s) for s in args.skip):
                print(f"{where}: skipped: {command}")
                skipped += 1
                continue
            cat = re.fullmatch(r"cat (\S+)", command)
            if cat and not os.path.exists(os.path.join(scratch, cat.group(1))):
                with open(os.path.join(scratch, cat.group(1)), "w", encoding="utf-8") as out:
                    out.write("\n".join(expected) + "\n")
            # `volta-eg` resolves to the binary under test through PATH.
            proc = subprocess.run(["bash", "-c", command], cwd=scratch, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  timeout=600)
            ran += 1
            actual = proc.stdout.rstrip("\n").split("\n") if proc.stdout.strip() else []
            # 2 is bad input (a missing file, a wrong flag): the example itself is broken.
            crashed = proc.returncode < 0 or proc.returncode >= 128 or proc.returncode == 2
            if crashed or not matches(expected, actual):
                failures += 1
                print(f"{where}: error: the example's output differs (exit status "
                      f"{proc.returncode}): {command}")
                print("  expected:\n" + "\n".join("    | " + l for l in expected))
                print("  actual:\n" + "\n".join("    | " + l for l in actual))
                if proc.stderr.strip():
                    print("  stderr:\n" + "\n".join("    | " + l for l in
                                                    proc.stderr.rstrip().split("\n")[-20:]))
            else:
                print(f"{where}: ok: {command[:100]}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{ran} examples run, {skipped} skipped, {failures} differ")
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
