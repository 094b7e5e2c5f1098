#!/usr/bin/env python3
"""Write reference vectors for core/jitter with CPython's random.Random.

Usage: python3 core/jitter/testdata/jitter.py [OUTDIR]   (default core/jitter/testdata)

The model is the contract's (../shared/CALCULATORS.md, `jitter`): wave k has
ceiling c_k = min(cap, base * 2**k); waits are drawn wave by wave, client by
client; client i's retry k arrives at the sum of its waits 0..k; bin j holds
the arrivals t with j*w <= t < (j+1)*w, decided exactly with fractions.
"""
import json
import math
import os
import random
import sys
from fractions import Fraction


def bin_of(t, w):
    return int(Fraction(t) // Fraction(w))


def horizon(strategy, base, cap, waves):
    sup, prev = 0.0, base
    for k in range(waves):
        if strategy == "decorrelated":
            prev = min(cap, 3 * prev)
            sup += prev
        else:
            sup += min(cap, base * 2**k)
    attained = strategy == "fixed" or (strategy == "decorrelated" and cap < 3 * base)
    return sup, attained


def run(clients, base, width, seed, strategy, waves, cap=None):
    if cap is None:
        cap = base * 2 ** (waves - 1)
    r = random.Random(seed)
    at = [0.0] * clients
    prev = [base] * clients
    arrivals = []
    for k in range(waves):
        c = min(cap, base * 2**k)
        for i in range(clients):
            if strategy == "fixed":
                wait = c
            elif strategy == "full":
                wait = r.uniform(0, c)
            elif strategy == "equal":
                wait = c / 2 + r.uniform(0, c / 2)
            else:
                wait = min(cap, r.uniform(base, 3 * prev[i]))
                prev[i] = wait
            at[i] += wait
            arrivals.append(at[i])
    sup, attained = horizon(strategy, base, cap, waves)
    last = bin_of(sup, width)
    if not attained and last > 0 and Fraction(last) * Fraction(width) == Fraction(sup):
        last -= 1
    counts = [0] * (last + 1)
    for t in arrivals:
        j = bin_of(t, width)
        while j >= len(counts):
            counts.append(0)
        counts[j] += 1
    peak = max(counts)
    return {
        "clients": clients, "base_ms": base, "width_ms": width, "seed": str(seed),
        "strategy": strategy, "waves": waves, "cap_ms": cap,
        "counts": counts, "peak": peak, "peak_bin": counts.index(peak),
        "mean_arrival_ms": math.fsum(arrivals) / len(arrivals),
        "max_arrival_ms": max(arrivals),
        # every arrival, bit for bit, for the smaller cases (the file stays small)
        "arrivals_ms": arrivals if len(arrivals) <= 2000 else None,
    }


CASES = []
for seed in [20261017, 0, 1, -7, 2**32, 2**64 + 5, -(10**40)]:
    for strategy in ["fixed", "full", "equal", "decorrelated"]:
        CASES.append(dict(clients=100, base=100.0, width=10.0, seed=seed, strategy=strategy, waves=1))
        CASES.append(dict(clients=37, base=100.0, width=7.5, seed=seed, strategy=strategy, waves=4))
for strategy in ["fixed", "full", "equal", "decorrelated"]:
    CASES.append(dict(clients=1000, base=100.0, width=0.1, seed=3, strategy=strategy, waves=2))
    CASES.append(dict(clients=500, base=50.0, width=25.0, seed=99, strategy=strategy, waves=6, cap=400.0))
    CASES.append(dict(clients=200, base=1.0, width=0.3, seed=12345, strategy=strategy, waves=30, cap=1000.0))
    CASES.append(dict(clients=10, base=0.1, width=0.1, seed=5, strategy=strategy, waves=3))
    CASES.append(dict(clients=50, base=100.0, width=10.0, seed=8, strategy=strategy, waves=3, cap=250.0))
    CASES.append(dict(clients=3000, base=3.0, width=1.0, seed=2**31, strategy=strategy, waves=1))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("core", "jitter", "testdata")
    os.makedirs(out, exist_ok=True)
    doc = {"python": sys.version.split()[0], "cases": [run(**c) for c in CASES]}
    with open(os.path.join(out, "vectors.json"), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
