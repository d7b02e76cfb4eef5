"""tools/bench_threads.py: a process's threads' CPU and context switches, counted per call."""

from __future__ import annotations

import os
import threading
import time

from tools.bench_threads import per_call, sign_p, threads


def test_a_threads_waits_are_counted_as_its_voluntary_switches_and_the_first_thread_is_the_loops() -> None:
    before = threads(os.getpid())
    assert [kind for tid, (kind, *_) in before.items() if tid == str(os.getpid())] == ["loop"]
    slept, end = threading.Event(), threading.Event()
    ids: list[int] = []

    def waits() -> None:
        ids.append(threading.get_native_id())
        for _ in range(20):
            time.sleep(0.001)
        slept.set()
        end.wait()

    waiter = threading.Thread(target=waits)
    waiter.start()
    slept.wait()
    during = threads(os.getpid())
    end.set()
    waiter.join()
    kind, _, voluntary, _ = during[str(ids[0])]
    assert kind != "loop" and voluntary >= 20  # each sleep gave the core up once at least
    spent = per_call(before, during, 10)
    assert spent.calls == 10 and spent.voluntary * 10 >= 20 and spent.by_kind[kind][1] * 10 >= 20


def test_the_sign_test_of_paired_runs() -> None:
    assert sign_p(0, 8) == 2 / 256
    assert sign_p(8, 8) == 2 / 256
    assert sign_p(4, 8) == 1.0
    assert round(sign_p(14, 16), 4) == 0.0042
