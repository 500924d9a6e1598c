"""The process grid of ``interpreter.run_parallel`` (``stablehlo/reference/ProcessGrid.cpp``): process
ids, the process groups of the collectives, rendezvous, send/recv channels and the infeed queue.

Each process runs in a thread of its own; a collective is a rendezvous of the processes of one group
on one channel: each gives its operands, and each gets every member's once all have arrived.
"""
from __future__ import annotations

import collections
import threading
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from shardy_py.interpreter.evaluator import InterpretError

#: Seconds a process waits for the others of its group before the run is declared deadlocked.
RENDEZVOUS_TIMEOUT = 120.0


class ProcessId(NamedTuple):
    replica_id: int
    partition_id: int


class _Round:
    def __init__(self):
        self.values: dict[ProcessId, list] = {}
        self.result: dict[ProcessId, list] | None = None
        self.taken = 0


class ProcessGrid:
    """``num_replicas`` x ``num_partitions`` processes and what they share."""

    def __init__(self, num_replicas: int, num_partitions: int, infeed: list[str] | None = None):
        self.num_replicas = num_replicas
        self.num_partitions = num_partitions
        self.infeed_queue = collections.deque(infeed or [])
        self.outfeed_queue: list = []
        self._cond = threading.Condition()
        self._rounds: dict[tuple, _Round] = {}
        self._channels: dict[int, collections.deque] = collections.defaultdict(collections.deque)
        #: Set when a process failed: the others stop waiting for it.
        self.failed = False

    # -- process groups (spec: cross_replica, cross_partition, ...) -----------------------------
    def cross_replica(self, groups: list[list[int]]) -> list[list[ProcessId]]:
        return [[ProcessId(r, p) for r in g] for g in groups for p in range(self.num_partitions)]

    def cross_partition(self, groups: list[list[int]]) -> list[list[ProcessId]]:
        return [[ProcessId(r, p) for p in g] for g in groups for r in range(self.num_replicas)]

    def cross_replica_and_partition(self, groups: list[list[int]]) -> list[list[ProcessId]]:
        return [[ProcessId(r, p) for p in range(self.num_partitions) for r in g] for g in groups]

    def flattened_ids(self, groups: list[list[int]]) -> list[list[ProcessId]]:
        n = self.num_partitions
        return [[ProcessId(i // n, i % n) for i in g] for g in groups]

    # -- communication --------------------------------------------------------------------------
    def _wait(self, ready) -> None:
        waited = 0.0
        while not ready():
            if self.failed:
                raise InterpretError("another process of interpreter.run_parallel failed")
            if waited >= RENDEZVOUS_TIMEOUT:
                raise InterpretError("deadlock: the processes of a collective did not all arrive")
            self._cond.wait(0.05)
            waited += 0.05

    def rendezvous(self, group: list[ProcessId], channel: int, me: ProcessId, values: list) -> dict[ProcessId, list]:
        """Give ``values`` to the group's round on ``channel``; every member's values once all arrived."""
        key = (tuple(group), channel)
        with self._cond:
            self._wait(lambda: key not in self._rounds or self._rounds[key].result is None)
            rnd = self._rounds.setdefault(key, _Round())
            rnd.values[me] = values
            if len(rnd.values) == len(group):
                rnd.result = dict(rnd.values)
                self._cond.notify_all()
            self._wait(lambda: rnd.result is not None)
            result = rnd.result
            rnd.taken += 1
            if rnd.taken == len(group):
                del self._rounds[key]
                self._cond.notify_all()
            return result

    def send(self, channel: int, values: list) -> None:
        with self._cond:
            self._channels[channel].append(values)
            self._cond.notify_all()

    def recv(self, channel: int) -> list:
        with self._cond:
            self._wait(lambda: bool(self._channels[channel]))
            return self._channels[channel].popleft()

    def infeed(self) -> str:
        with self._cond:
            if not self.infeed_queue:
                raise InterpretError("infeed: the infeed queue is empty")
            return self.infeed_queue.popleft()

    def fail(self) -> None:
        with self._cond:
            self.failed = True
            self._cond.notify_all()


class CollectiveRecord(NamedTuple):
    """One collective a process ran: the op, the bytes it gave (its operands) and got (its results)."""

    op: object
    sent_bytes: int
    received_bytes: int


class Process:
    """One process: its id, its grid and, when ``trace`` is a list, the collectives it ran."""

    def __init__(self, pid: ProcessId, grid: ProcessGrid, trace: list | None = None):
        self.id = pid
        self.grid = grid
        self.trace = trace

    def record(self, op, operands: Sequence, results: Sequence) -> None:
        """Note that this process ran collective ``op`` (when tracing)."""
        if self.trace is not None:
            self.trace.append(CollectiveRecord(op, _nbytes(operands), _nbytes(results)))


def _nbytes(values: Sequence) -> int:
    return sum(v.nbytes for v in values if isinstance(v, np.ndarray))


def run_processes(grid: ProcessGrid, jobs: Sequence[Callable[[], list]]) -> list[list]:
    """Run each job in a thread of its own (one per process of ``grid``); their results in order.
    The first error of a process (not one caused by another process failing) is raised."""
    results: list = [None] * len(jobs)
    errors: list = []

    def work(i: int, job) -> None:
        try:
            with np.errstate(all="ignore"):
                results[i] = job()
        except BaseException as e:  # reported by the calling thread
            errors.append(e)
            grid.fail()

    threads = [threading.Thread(target=work, args=(i, job), daemon=True) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise next((e for e in errors if not str(e).startswith("another process")), errors[0])
    return results
