"""The conductor's test of rest, without the original: a thread it would
take for blocked while it has in fact been handed work."""

import concurrent.futures
import os
import sys
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import standins  # noqa: E402


class TestRest(unittest.TestCase):
    def test_idle_pool_thread_with_work_queued_is_not_at_rest(self):
        """A pool thread idle in its work queue's get is at rest; once an item
        is queued it is not, though it has not run since and its frame has
        not moved (R's task runner submitting a task on a loaded machine)."""
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        started = threading.Event()
        pool.submit(started.set).result()  # the worker exists, then idles
        worker = next(iter(pool._threads))
        for _ in range(1000):
            if standins._blocked_snapshot([worker]) is not None:
                break
        self.assertIsNotNone(standins._blocked_snapshot([worker]), "the idle worker is at rest")
        gate = threading.Event()
        old = sys.getswitchinterval()
        sys.setswitchinterval(60)  # the worker cannot take the GIL from this thread
        try:
            pool._work_queue.put(_Item(gate))
            snap = standins._blocked_snapshot([worker])
        finally:
            sys.setswitchinterval(old)
        self.assertIsNone(snap, "a worker with work queued was taken for one at rest")
        gate.wait(10)
        pool.shutdown(wait=True)


class _Item:
    """A work item as the pool runs it: run() and nothing else."""

    def __init__(self, gate):
        self.gate = gate

    def run(self):
        self.gate.set()


if __name__ == "__main__":
    unittest.main()
