#!/usr/bin/env python3
"""Write reference vectors of CPython's random.Random for core/pyrand.

Usage: python3 core/pyrand/testdata/pyrand.py [OUTDIR]   (default core/pyrand/testdata)

For every seed: the first Uint32 outputs (getrandbits(32)), then, from a fresh
generator, random() values crossing a state refill (624 words = 312 floats),
and from a third fresh generator a sequence of uniform(a, b) calls.
"""
import json
import os
import random
import sys

SEEDS = [
    0, 1, -1, 2, 42, -42, 20261017, -20261017,
    2**31 - 1, 2**31, 2**32 - 1, 2**32, -(2**32), 2**32 + 1,
    2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**64 + 12345, -(2**64 + 12345),
    2**96 + 7, 3**200, -(3**200), 10**300 + 1, 2**19937 - 1, 2**(624 * 32) + 99, -(2**(700 * 32) - 3),
]

UNIFORM_ARGS = [(0.0, 100.0), (50.0, 100.0), (100.0, 300.0), (0.0, 1.0),
                (-5.5, 5.5), (3.0, 1.0), (0.0, 0.1), (1e-3, 1e9)]


def vectors(seed):
    r = random.Random(seed)
    u32 = [r.getrandbits(32) for _ in range(630)]
    r = random.Random(seed)
    floats = [r.random() for _ in range(320)]
    r = random.Random(seed)
    unif = []
    for i in range(120):
        a, b = UNIFORM_ARGS[i % len(UNIFORM_ARGS)]
        unif.append([a, b, r.uniform(a, b)])
    return {"seed": hex(seed),  # hex: some seeds have more than 4300 digits
            "uint32": u32, "random": floats, "uniform": unif}


def long_run(seed):
    r = random.Random(seed)
    return [r.random() for _ in range(20000)][::97]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("core", "pyrand", "testdata")
    os.makedirs(out, exist_ok=True)
    doc = {
        "python": sys.version.split()[0],
        "vectors": [vectors(s) for s in SEEDS],
        # many state refills (624 words each) for one seed
        "long": {"seed": "20261017", "every_97th_random": long_run(20261017)},
    }
    with open(os.path.join(out, "vectors.json"), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
