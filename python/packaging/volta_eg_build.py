"""The PEP 517 build backend of the `volta_eg` package (pyproject.toml names it).

In-tree and dependency-free on purpose: `pip install .` then works offline, also with build
isolation (the isolated environment needs no setuptools or wheel, which a pyenv or venv Python
may lack and which pip could only download), and in any Python >= 3.9. It drives the project's
CMake to build only the extension target (`volta_eg_engine`) for the Python running pip, then
writes the wheel itself: the package's .py files, the extension, and the dist-info.

Where it builds:
  - VOLTA_EG_BUILD_DIR (or `--config-settings build-dir=DIR`): an existing, configured build tree
    (the release preset's build/release): only the extension target is brought up to date there.
    Its extension must be built for this Python's ABI (its file name ends in this Python's
    EXT_SUFFIX), else the build stops and says so.
  - otherwise build/pip-<ABI> under the source tree, configured on first use (Release, no tests,
    no benchmarks) and kept, so that a second install rebuilds nothing; the compiler goes through
    ccache when it is installed (cmake/Toolchain.cmake hashes paths relative to the source tree,
    so a fresh build tree reuses what build/release compiled).
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

SOURCE = Path(__file__).resolve().parents[2]
PACKAGE = SOURCE / "python" / "volta_eg"
DIST_NAME = "volta-eg"
WHEEL_NAME = "volta_eg"  # the distribution name as wheel and dist-info names spell it
TARGET = "volta_eg_engine"
SUMMARY = "Prove that an optimized GPU kernel (PTX or CUDA) computes what its reference computes"


def _version() -> str:
    """The project's version: CMakeLists.txt's `project(volta-eg VERSION x.y.z ...)`."""
    text = (SOURCE / "CMakeLists.txt").read_text()
    m = re.search(r"project\(\s*volta-eg\s+VERSION\s+([0-9][0-9.]*)", text)
    if not m:
        raise RuntimeError(f"{SOURCE / 'CMakeLists.txt'}: no `project(volta-eg VERSION ...)`")
    return m.group(1)


def _ext_suffix() -> str:
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not suffix:
        raise RuntimeError("this Python has no EXT_SUFFIX: cannot name the extension module")
    return suffix


def _tag() -> str:
    """The wheel's tag for the running CPython (`cp311-cp311-linux_x86_64`): the extension is
    built for this interpreter's ABI and this machine's libraries only."""
    if sys.implementation.name != "cpython":
        raise RuntimeError(f"volta_eg builds for CPython only, not {sys.implementation.name}")
    version = f"{sys.version_info.major}{sys.version_info.minor}"
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"cp{version}-cp{version}{sys.abiflags}-{platform}"


def _setting(config_settings: Optional[Dict[str, str]], key: str, env: str) -> Optional[str]:
    value = (config_settings or {}).get(key) or os.environ.get(env)
    return str(value) if value else None


def _log(message: str) -> None:
    print(f"volta_eg_build: {message}", file=sys.stderr, flush=True)


def _run(command: List[str]) -> None:
    _log(" ".join(command))
    result = subprocess.run(command, cwd=SOURCE)
    if result.returncode != 0:
        raise RuntimeError(f"`{' '.join(command)}` failed with exit status {result.returncode}")


def _cmake() -> str:
    cmake = shutil.which("cmake")
    if not cmake:
        raise RuntimeError("cmake is not on PATH: it builds the extension (Debian: apt-get install "
                           "cmake; scripts/install-deps installs everything the build needs)")
    return cmake


def _configure(build: Path) -> None:
    command = [_cmake(), "-S", str(SOURCE), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
               "-DVOLTA_TESTS=OFF", "-DVOLTA_BENCH=OFF", "-DVOLTA_PYTHON=ON",
               f"-DPython_EXECUTABLE={sys.executable}"]
    if shutil.which("ninja") and not (build / "CMakeCache.txt").exists():
        command += ["-G", "Ninja"]
    _run(command)


def _extension(config_settings: Optional[Dict[str, str]]) -> Path:
    """Builds the extension target and returns the built module's path."""
    given = _setting(config_settings, "build-dir", "VOLTA_EG_BUILD_DIR")
    build = Path(given).resolve() if given else SOURCE / "build" / f"pip-{_tag()}"
    if given and not (build / "CMakeCache.txt").exists():
        raise RuntimeError(f"VOLTA_EG_BUILD_DIR={build}: not a configured CMake build tree "
                           "(no CMakeCache.txt)")
    if not given:
        _configure(build)
    cache = (build / "CMakeCache.txt").read_text(errors="replace")
    home = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache, re.M)
    if not home or Path(home.group(1)).resolve() != SOURCE:
        # The package's .py files come from this source tree: its extension must too.
        raise RuntimeError(f"{build} is the build tree of {home.group(1) if home else 'no source'}"
                           f", not of {SOURCE}")
    if re.search(r"^pybind11_DIR:PATH=.*NOTFOUND", cache, re.M) or "pybind11_DIR" not in cache:
        raise RuntimeError(f"{build}: CMake found no pybind11, so the extension is not built: "
                           "install pybind11 with its CMake files (Debian: pybind11-dev) and the "
                           "Python headers (python3-dev, or the Python's own include folder)")
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
    _run([_cmake(), "--build", str(build), "--target", TARGET, "--parallel", jobs])
    module = build / "python" / "volta_eg" / f"_engine{_ext_suffix()}"
    if not module.is_file():
        built = sorted(p.name for p in module.parent.glob("_engine*"))
        raise RuntimeError(f"{module} was not built: the build tree {build} builds the extension "
                           f"for another Python ({', '.join(built) or 'none found'}); configure "
                           f"it with -DPython_EXECUTABLE={sys.executable}, or leave "
                           "VOLTA_EG_BUILD_DIR unset")
    return module


def _metadata() -> str:
    readme = (SOURCE / "docs" / "python.md").read_text()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {DIST_NAME}",
        f"Version: {_version()}",
        f"Summary: {SUMMARY}",
        "Requires-Python: >=3.9",
        "Provides-Extra: numpy",
        'Requires-Dist: numpy; extra == "numpy"',
        "Provides-Extra: test",
        'Requires-Dist: numpy; extra == "test"',
        'Requires-Dist: pytest; extra == "test"',
        "Description-Content-Type: text/markdown",
    ]
    return "\n".join(lines) + "\n\n" + readme


def _dist_info() -> str:
    return f"{WHEEL_NAME}-{_version()}.dist-info"


def _dist_info_files(tag: str) -> Dict[str, bytes]:
    wheel = ("Wheel-Version: 1.0\nGenerator: volta_eg_build\nRoot-Is-Purelib: false\n"
             f"Tag: {tag}\n")
    return {"METADATA": _metadata().encode(), "WHEEL": wheel.encode(),
            "top_level.txt": b"volta_eg\n"}


def _version_module() -> bytes:
    return f'__version__ = "{_version()}"\n'.encode()


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _package_files(module: Path) -> List[Tuple[str, bytes]]:
    files = [(f"volta_eg/{p.name}", p.read_bytes()) for p in sorted(PACKAGE.glob("*.py"))
             if p.name != "_version.py"]
    files.append(("volta_eg/_version.py", _version_module()))
    files.append((f"volta_eg/{module.name}", module.read_bytes()))
    return files


# --- PEP 517 hooks ------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):  # noqa: D103
    return []


def get_requires_for_build_sdist(config_settings=None):  # noqa: D103
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """The dist-info folder alone (pip reads it before building)."""
    folder = Path(metadata_directory) / _dist_info()
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in _dist_info_files(_tag()).items():
        (folder / name).write_bytes(data)
    return folder.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """Builds the extension and writes volta_eg-VERSION-TAG.whl into `wheel_directory`."""
    tag = _tag()
    module = _extension(config_settings)
    files = _package_files(module)
    files += [(f"{_dist_info()}/{name}", data) for name, data in _dist_info_files(tag).items()]
    record = [_record_line(name, data) for name, data in files]
    record.append(f"{_dist_info()}/RECORD,,")
    files.append((f"{_dist_info()}/RECORD", ("\n".join(record) + "\n").encode()))
    wheel = f"{WHEEL_NAME}-{_version()}-{tag}.whl"
    Path(wheel_directory).mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(Path(wheel_directory) / wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    _log(f"wrote {wheel}")
    return wheel


# What an sdist leaves out: at the top, builds, caches and corpora; anywhere, .git and bytecode.
_SDIST_SKIP_TOP = re.compile(r"^(build|build-.*|\.cache|fuzz-corpus)$")
_SDIST_SKIP = re.compile(r"^(\.git|__pycache__)$")


def build_sdist(sdist_directory, config_settings=None):
    """The source tree (without builds, caches and .git) as volta_eg-VERSION.tar.gz."""
    base = f"{WHEEL_NAME}-{_version()}"
    name = f"{base}.tar.gz"
    Path(sdist_directory).mkdir(parents=True, exist_ok=True)
    with tarfile.open(Path(sdist_directory) / name, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for root, dirs, files in os.walk(SOURCE):
            top = Path(root) == SOURCE
            dirs[:] = sorted(d for d in dirs if not _SDIST_SKIP.match(d)
                             and not (top and _SDIST_SKIP_TOP.match(d)))
            for f in sorted(files):
                path = Path(root) / f
                if path.is_file() and not path.is_symlink():
                    tar.add(path, f"{base}/{path.relative_to(SOURCE)}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name
