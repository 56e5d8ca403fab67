"""Files named by their content: PTX text, CUDA source text and struct bytes given in Python."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Union


def scratch_dir() -> Path:
    root = Path(os.environ.get("VOLTA_EG_SCRATCH", Path(tempfile.gettempdir()) /
                               f"volta-eg-{os.getuid()}"))
    root.mkdir(parents=True, exist_ok=True)
    return root


def content_file(data: Union[bytes, str], suffix: str) -> Path:
    """A file holding `data`, named by its content (so that it is never rewritten under a reader)."""
    raw = data.encode() if isinstance(data, str) else data
    path = scratch_dir() / (hashlib.sha256(raw).hexdigest()[:32] + suffix)
    if not path.exists():
        tmp = path.with_suffix(suffix + f".{os.getpid()}.tmp")
        tmp.write_bytes(raw)
        os.replace(tmp, path)
    return path
