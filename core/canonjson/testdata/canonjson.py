#!/usr/bin/env python3
"""Write reference vectors of CPython's canonical JSON for core/canonjson.

Usage: python3 core/canonjson/testdata/canonjson.py [OUTFILE]
       (default core/canonjson/testdata/vectors.json)

Every case is a JSON text. CPython reads it with json.loads and writes it with
json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False);
the case records the canonical text and the idempotency key
f"{tenant}:{task}:{sha256(canonical).hexdigest()}" for tenant "acme" and task
"summarize", or "error" when CPython fails or would write NaN or Infinity
(the Go package refuses those: they are not JSON).

The first cases are written by hand (unicode, astral characters, control
characters, <>&, 1e16, 1e-05, 0.1, 1.0, big integers, nesting, duplicate
keys, empty containers, escapes); the rest are random documents from a fixed
seed, rendered with random spacing, escapes, duplicate keys and number
spellings. The output is deterministic for a given CPython.
"""
import hashlib
import json
import os
import random
import struct
import sys

TENANT, TASK = "acme", "summarize"

HAND = [
    '{"document_id":"doc-42","max_output_tokens":1000}',
    '{"b":1,"a":2}',
    '{"a":1,"a":2}',
    '{"a":{"z":1,"y":[3,2,1]},"a":[]}',
    '{}', '[]', '""', '[{},[],""]', '{"":0}',
    'null', 'true', 'false', '0', '-0', '-0.0', '0.0', '1.0', '1', '-1',
    '1e16', '1E16', '1e15', '1e-05', '0.00001', '0.0001', '0.1', '0.2', '0.30000000000000004',
    '1e+300', '1e300', '-1.5e-300', '4.9e-324', '2.4e-324', '1e-400', '1.7976931348623157e308',
    '123456789012345678', '123456789012345678.0', '1e2', '100.0', '1.5', '3.14159265358979323846',
    '2.5e-5', '12345678901234567890123456789012345678901234567890', '-98765432109876543210987654321',
    '9007199254740993', '9007199254740993.0', '0e99999999999999999999', '1e-99999999999999999999', '-0e5',
    '1E+2', '1e-0', '-0.000', '0.1e1', '2.5E-3', '1' + '0' * 400 + '.0', '0.' + '0' * 400 + '1',
    '1.' + '5' * 30 + 'e-310', '[1e99999999999999999999]',
    '{"a":NaN,"a":1}', '{"a":1,"a":NaN}', '{"a":1e400,"b":[],"a":-0.0}', '{"\\ud83c\\udf04":-Infinity,"🌄":""}',
    '"<>&"', '"</script>"', '"caf\u00e9"', '"caf\\u00e9"', '"\u4e2d\u6587"', '"\U0001f600"',
    '"\\ud83d\\ude00"', '"\\ud800"', '"\\udc00"', '"\\ud800x"', '"\\udbff\\ud800"', '"\\uDBFF\\uDFFF"',
    '"\\n\\r\\t\\b\\f"', '"\\u0000\\u0001\\u001f"', '"\\u007f"', '"\x7f"', '"\\/"', '"\\"\\\\"',
    '"\U0010ffff"', '"\ufffd"', '"\u2028\u2029"',
    '{"\U0001f600":1,"\uffff":2,"\ud7ff":3,"z":4}',
    '{"\\ud800":1,"\U00010000":2,"\ue000":3}',
    '{"a":1,"B":2,"_":3,"0":4,"":5,"aa":6,"\u00e9":7}',
    ' \t\n\r{ "x" : [ 1 , 2 ] }\n ',
    '[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]',
    '{"prompt":"Riassumi il documento","temperature":0.2,"top_p":1.0,"stop":["\\n\\n"],"n":1}',
    # refused: by CPython, or written as NaN / Infinity by it
    'NaN', 'Infinity', '-Infinity', '[NaN]', '{"x":Infinity}', '1E400', '-1e400', '[1e999]',
    '', ' ', '[1,]', '{"a" 1}', '{"a":1,}', '{a:1}', "{'a':1}", '01', '1.', '.5', '1e', '+1', '-',
    '"\x01"', '"\t"', '"\\x41"', '"\\u12"', '"abc', '[1 2]', 'nul', 'tru', '[', '{', '1 2', '"a"x',
    '9' * 4300, '9' * 4301, '-' + '9' * 4301,
]


def canon(text):
    try:
        value = json.loads(text)
        out = json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (ValueError, RecursionError) as e:
        return {"input": text, "error": type(e).__name__ + ": " + str(e)[:120]}
    key = f"{TENANT}:{TASK}:{hashlib.sha256(out.encode()).hexdigest()}"
    return {"input": text, "canonical": out, "key": key}


POOLS = [
    (0x20, 0x7e), (0x00, 0x1f), (0x7f, 0xa0), (0xa0, 0x2ff), (0x370, 0x3ff), (0x4e00, 0x4eff),
    (0xe000, 0xe0ff), (0xfff0, 0xffff), (0x10000, 0x100ff), (0x1f300, 0x1f64f), (0x10fff0, 0x10ffff),
    (0xd800, 0xdfff),
]


def rand_char(r):
    lo, hi = r.choice(POOLS)
    return r.randint(lo, hi)


def render_str(r, cps):
    out = ['"']
    i = 0
    while i < len(cps):
        c = cps[i]
        i += 1
        if 0xd800 <= c <= 0xdfff:
            out.append("\\u%04x" % c if r.random() < 0.5 else "\\u%04X" % c)
        elif c == 0x22:
            out.append('\\"')
        elif c == 0x5c:
            out.append("\\\\")
        elif c < 0x20:
            short = {8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r"}
            out.append(short[c] if c in short and r.random() < 0.5 else "\\u%04x" % c)
        elif r.random() < 0.2:
            if c > 0xffff:
                v = c - 0x10000
                out.append("\\u%04x\\u%04x" % (0xd800 | (v >> 10), 0xdc00 | (v & 0x3ff)))
            elif c == 0x2f and r.random() < 0.5:
                out.append("\\/")
            else:
                out.append("\\u%04x" % c)
        else:
            out.append(chr(c))
    out.append('"')
    return "".join(out)


def rand_string(r):
    return [rand_char(r) for _ in range(r.randint(0, 8))]


def rand_float(r):
    k = r.random()
    if k < 0.3:
        while True:
            f = struct.unpack("<d", struct.pack("<Q", r.getrandbits(64)))[0]
            if f == f and abs(f) != float("inf"):
                return f
    if k < 0.6:
        return r.choice([1, -1]) * r.random() * 10 ** r.randint(-25, 25)
    return r.choice([0.0, -0.0, 0.1, 0.5, 1.0, 1e16, 1e15, 1e-5, 1e-4, 2.0 ** 53, 1e22, 1e21, 123.456])


def render_float(r, f):
    forms = [repr(f), "%.17g" % f, "%.20e" % f, "%.3E" % f]
    s = r.choice(forms)
    if s in ("inf", "-inf", "nan"):
        s = repr(f)
    if not any(ch in s for ch in ".eE"):
        s += ".0"
    if s.startswith("-") is False and s.startswith("."):
        s = "0" + s
    return s


def ws(r):
    return r.choice(["", "", "", " ", "\n", "\t", " \r\n "])


def rand_doc(r, depth=0):
    k = r.random()
    if depth > 2 or k < 0.45:
        t = r.random()
        if t < 0.25:
            return render_str(r, rand_string(r))
        if t < 0.45:
            n = r.choice([r.randint(-1000, 1000), r.getrandbits(r.randint(1, 300)) * r.choice([1, -1])])
            return str(n)
        if t < 0.75:
            return render_float(r, rand_float(r))
        return r.choice(["true", "false", "null"])
    if k < 0.7:
        items = [rand_doc(r, depth + 1) for _ in range(r.randint(0, 4))]
        return "[" + ws(r) + ("," + ws(r)).join(items) + ws(r) + "]"
    members = []
    keys = [rand_string(r) for _ in range(r.randint(0, 5))]
    if keys and r.random() < 0.3:
        keys.append(r.choice(keys))  # a duplicate: the last one wins
    for key in keys:
        members.append(ws(r) + render_str(r, key) + ws(r) + ":" + ws(r) + rand_doc(r, depth + 1) + ws(r))
    return "{" + ",".join(members) + "}"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("core", "canonjson", "testdata", "vectors.json")
    cases = [canon(t) for t in HAND]
    r = random.Random(20261017)
    for _ in range(300):
        cases.append(canon(ws(r) + rand_doc(r) + ws(r)))
    doc = {
        "generator": "core/canonjson/testdata/canonjson.py",
        "python": sys.version.split()[0],
        "tenant": TENANT,
        "task": TASK,
        "cases": cases,
    }
    # One case per line: small diffs when the script changes.
    head = json.dumps({k: v for k, v in doc.items() if k != "cases"}, ensure_ascii=True)[:-1]
    with open(out, "w", encoding="ascii") as f:
        f.write(head + ', "cases": [\n')
        f.write(",\n".join(json.dumps(c, ensure_ascii=True) for c in cases))
        f.write("\n]}\n")
    print(f"wrote {len(cases)} cases to {out}")


if __name__ == "__main__":
    main()
