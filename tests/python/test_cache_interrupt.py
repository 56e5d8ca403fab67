"""The cache shared with the CLI (a loop that keeps its reference executes it once), and Ctrl-C
during a proof."""

import _thread
from pathlib import Path
import threading
import time

import pytest

import volta_eg as ve
from conftest import softmax_kernel


def test_second_candidate_executes_only_itself(tmp_path, reference):
    cache = tmp_path / "cache"
    first = ve.prove(reference, softmax_kernel("cand_online"), cache_dir=cache)
    assert first.verdict == "EQUIVALENT"
    assert sorted(first.executed) == ["optimized", "reference"]
    second = ve.prove(reference, softmax_kernel("cand_tiled"), cache_dir=cache)
    assert second.verdict == "EQUIVALENT"
    assert second.executed == ["optimized"]  # the reference's run came from the cache
    # The first pair again: its whole result is read back (the entry cache), nothing executed or
    # proved, with the same verdict and element counts.
    again = ve.prove(reference, softmax_kernel("cand_online"), cache_dir=cache)
    assert again.executed == []
    assert again.verdict == first.verdict
    assert again.elements == first.elements
    assert again.report()["cached"] is True
    assert again.cache["entry_hits"] == 1


def test_checked_kernels_are_not_loaded_again_but_changed_ones_are(tmp_path, reference):
    # A batch with a cache folder skips the up-front load of kernels checked before (their
    # results come from the entry cache); a changed PTX file is a new kernel, checked again.
    cache = tmp_path / "cache"
    ptx = tmp_path / "cand_online.ptx"
    ptx.write_text(Path(softmax_kernel("cand_online").ptx_path).read_text())
    candidate = softmax_kernel("cand_online", source={"ptx": ptx})
    assert ve.prove(reference, candidate, cache_dir=cache).verdict == "EQUIVALENT"
    assert any((cache / "checked").rglob("*"))
    again = list(ve.prove_batch([(reference, candidate)], cache_dir=cache))
    assert again[0].verdict == "EQUIVALENT" and again[0].report()["cached"] is True
    assert "ex2.approx" in ptx.read_text()
    ptx.write_text(ptx.read_text().replace("ex2.approx", "exp9.approx", 1))  # no such opcode
    with pytest.raises(ve.PTXError):
        ve.prove(reference, softmax_kernel("cand_online", source={"ptx": ptx}), cache_dir=cache)


def test_cache_is_the_cli_cache(tmp_path, reference):
    cache = tmp_path / "cache"
    ve.prove(reference, softmax_kernel("cand_reciprocal"), cache_dir=cache)
    assert (cache / "runs").is_dir()  # the CLI's --cache DIR layout


def slow_kernel():
    # 8000 CTAs executed symbolically: tens of seconds, far more than the test waits.
    return softmax_kernel("cand_block", launch="block", rows=8000)


def test_ctrl_c_interrupts_a_proof():
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        ve.check(slow_kernel(), timeout=120)
    assert time.monotonic() - start < 15
    timer.cancel()


def test_closing_a_batch_cancels_it(reference):
    start = time.monotonic()
    batch = ve.prove_batch([slow_kernel(), slow_kernel()], jobs=2, timeout=120)
    time.sleep(0.3)
    batch.close()  # never iterated: the engine's threads are cancelled and joined
    del batch
    assert time.monotonic() - start < 15
    # The module still works afterwards.
    assert ve.prove(reference, softmax_kernel("cand_online")).verdict == "EQUIVALENT"


def test_timeout_guard_and_the_gil_is_released():
    ticks = []
    done = threading.Event()

    def count():  # runs only while the proof does not hold the GIL
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.01)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        r = ve.check(slow_kernel(), timeout=1.0)
    finally:
        done.set()
        counter.join()
    assert r.verdict == "UNKNOWN"
    assert "time limit" in r.detail
    assert len(ticks) > 20
