#!/usr/bin/env python3
"""The CPython side of core/bench/article1.sh: straightforward reference
implementations of the same two computations as core/bench/article1/main.go.

1. jitter: 1,000,000 clients, one wave, full jitter, base 100 ms, bins of 10 ms,
   random.Random(20261017): counts per bin, peak, latest arrival.
2. crowd: the exact probability that some of k=100 bins receives t=40 or more of
   n=2000 uniform independent clients: 1 - n!/k^n [x^n] (sum_{j<t} x^j/j!)^k, with
   the series scaled by mu = n/k (Poisson terms, math.lgamma) so floats do not
   overflow, powers by repeated squaring truncated at degree n.

Prints one JSON object per computation: best wall time in seconds and the result.
"""
import json
import math
import random
import sys
import time


def jitter(clients=1_000_000, base=100.0, width=10.0, seed=20261017):
    r = random.Random(seed)
    counts = [0] * 10
    latest = 0.0
    for _ in range(clients):
        t = r.uniform(0, base)
        counts[int(t // width)] += 1
        if t > latest:
            latest = t
    return {"peak": max(counts), "counts": counts, "max": latest}


def mul(a, b, n):
    out = [0.0] * min(len(a) + len(b) - 1, n + 1)
    for i, x in enumerate(a):
        if i > n:
            break
        if x == 0.0:
            continue
        for j in range(min(len(b), n + 1 - i)):
            out[i + j] += x * b[j]
    return out


def crowd(n=2000, k=100, t=40):
    mu = n / k
    a = [math.exp(j * math.log(mu) - mu - math.lgamma(j + 1)) for j in range(t)]
    result, base, e = [1.0], a, k
    while e:
        if e & 1:
            result = mul(result, base, n)
        e >>= 1
        if e:
            base = mul(base, base, n)
    coef = result[n] if len(result) > n else 0.0
    # n!/n^n e^n turns the Poisson-scaled coefficient into P(all bins < t)
    p_all = math.exp(math.lgamma(n + 1) - n * math.log(n) + n) * coef
    return 1 - p_all


def best(runs, f):
    b, res = None, None
    for _ in range(runs):
        start = time.perf_counter()
        res = f()
        d = time.perf_counter() - start
        b = d if b is None or d < b else b
    return b, res


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    s, res = best(runs, jitter)
    print(json.dumps({"name": "jitter", "seconds": s, "runs": runs, "result": res}))
    s, res = best(1, crowd)
    print(json.dumps({"name": "crowd", "seconds": s, "runs": 1, "result": res}))


if __name__ == "__main__":
    main()
