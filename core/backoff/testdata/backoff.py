#!/usr/bin/env python3
"""Print the CPython reference values of core/backoff's TestCPythonReference.

Usage: python3 core/backoff/testdata/backoff.py

The article's retry loop played by many workers that all fail at time 0,
drawing attempt by attempt and, within an attempt, worker by worker, from
one random.Random(seed): the wait before retry a is uniform(0, min(cap,
base * 2**a)), raised to retry_after when set, and cut to what is left of
max_elapsed (a cut wait ends at max_elapsed exactly). Retry-After is a
floor that is never cut: a worker with less time left than retry_after
stops before drawing (it "gave up" on Retry-After). A worker whose call
fails at or after max_elapsed stops (it "gave up" on the elapsed limit).
The test embeds the printed values, so it needs no Python.
"""
import random

CASES = [
    dict(workers=5, max_attempts=4, max_elapsed=20.0),
    dict(workers=4, max_attempts=8, max_elapsed=6.0, retry_after=1.2),
    dict(workers=3, max_attempts=6, max_elapsed=300.0, seed=-7),
    dict(workers=6, max_attempts=4, max_elapsed=20.0, retry_after=12.0),
    dict(workers=6, max_attempts=5, max_elapsed=9.0, retry_after=0.7),
]


def run(workers, max_attempts, max_elapsed, base=0.5, cap=20.0, retry_after=None, jitter=True, seed=20261017):
    r = random.Random(seed)
    t = [0.0] * workers
    alive = [True] * workers
    arrivals, gave_up, gave_up_retry_after = [], 0, 0
    for a in range(max_attempts - 1):
        for w in range(workers):
            if not alive[w]:
                continue
            if t[w] >= max_elapsed:
                alive[w] = False
                gave_up += 1
                continue
            left = max_elapsed - t[w]
            if retry_after is not None and retry_after > left:
                alive[w] = False
                gave_up_retry_after += 1
                continue
            ceiling = min(cap, base * (2 ** a))
            d = r.uniform(0, ceiling) if jitter else ceiling
            if retry_after is not None:
                d = max(d, retry_after)
            t[w] = max_elapsed if d >= left else t[w] + d
            arrivals.append(t[w])
    return arrivals, gave_up, gave_up_retry_after


for case in CASES:
    arrivals, gave_up, gave_up_retry_after = run(**case)
    print(case)
    print("  arrivals:", ", ".join(repr(x) for x in arrivals))
    print("  gave up on the elapsed limit:", gave_up)
    print("  gave up on Retry-After:", gave_up_retry_after)
