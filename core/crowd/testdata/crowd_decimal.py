#!/usr/bin/env python3
"""Reference values of the exact crowded-bin probability in 40-digit decimal
arithmetic, for core/crowd's tests (TestDecimalReference).

P(some of k bins receives >= t of n uniform independent clients)
  = 1 - n!/n^n [y^n] (sum_{j<t} mu^j y^j / j!)^k,   mu = n/k,
computed by repeated squaring truncated at degree n. Usage:
  python3 core/crowd/testdata/crowd_decimal.py [n k t ...]   (default 2000 100 40)
Prints n, k, t and the probability, one line each.
"""
import sys
from decimal import Decimal as D, getcontext

getcontext().prec = 40


def mul(x, y, n):
    out = [D(0)] * min(len(x) + len(y) - 1, n + 1)
    for i, xi in enumerate(x):
        if i > n:
            break
        for j in range(min(len(y), n + 1 - i)):
            out[i + j] += xi * y[j]
    return out


def exact_any_bin(n, k, t):
    mu = D(n) / D(k)
    a, c = [], D(1)
    for j in range(min(t, n + 1)):
        if j > 0:
            c = c * mu / D(j)
        a.append(c)
    res, base, e = [D(1)], a, k
    while e:
        if e & 1:
            res = mul(res, base, n)
        e >>= 1
        if e:
            base = mul(base, base, n)
    coef = res[n] if len(res) > n else D(0)
    nf = D(1)
    for i in range(2, n + 1):
        nf *= i
    return 1 - nf / (D(n) ** n) * coef


def main():
    args = [int(a) for a in sys.argv[1:]] or [2000, 100, 40]
    for i in range(0, len(args) - 2, 3):
        n, k, t = args[i:i + 3]
        print(n, k, t, exact_any_bin(n, k, t))


if __name__ == "__main__":
    main()
