// Tests of the edge layer (node --test; worker/edge's Go test runs them).
import { test } from "node:test";
import assert from "node:assert/strict";
import { LRU, canonicalKey, edge, escape } from "./edge.mjs";

const data = {
  version: "v1",
  calculators: {
    attempts: [
      { name: "q", kind: "float", def: "0.5" },
      { name: "n", kind: "int", def: "3" },
    ],
    amplification: [{ name: "attempts", kind: "int list", def: "3,3,3" }],
    jitter: [
      { name: "strategy", kind: "choice", def: "full", choices: ["fixed", "full", "equal", "decorrelated"] },
      { name: "seed", kind: "other", def: "20261017" },
    ],
    backoff: [{ name: "jitter", kind: "bool", def: "true" }],
  },
};

const entry = (n) => ({ status: 200, headers: [], body: new Uint8Array(n), etag: '"x"' });

test("LRU holds its entry bound, least recent out first", () => {
  const c = new LRU(3, 1 << 20);
  for (const k of ["a", "b", "c"]) c.set(k, entry(1));
  c.get("a"); // a is now the most recent
  c.set("d", entry(1));
  c.set("e", entry(1));
  assert.equal(c.size, 3);
  assert.deepEqual([...c.map.keys()], ["a", "d", "e"]);
  assert.equal(c.bytes, 3);
});

test("LRU holds its byte bound and refuses entries over an eighth of it", () => {
  const c = new LRU(100, 800);
  for (let i = 0; i < 20; i++) assert.equal(c.set("k" + i, entry(100)), true);
  assert.equal(c.bytes, 800);
  assert.equal(c.size, 8);
  assert.equal(c.set("big", entry(101)), false);
  assert.equal(c.get("big"), undefined);
  c.set("k19", entry(50)); // replacing counts the new size only
  assert.equal(c.bytes, 750);
  for (let i = 0; i < 10000; i++) c.set("n" + i, entry(1 + (i % 100)));
  assert.ok(c.size <= 100 && c.bytes <= 800, `size ${c.size}, bytes ${c.bytes}`);
});

test("canonicalKey: equivalent spellings, one key", () => {
  const groups = [
    ["attempts", ["", "q=0.5", "n=3&q=.50", "q=5e-1&n=3.0", "n=%2B3", "q=+0.5+", "n=0.3e1", "n=30e-1"], "attempts"],
    ["attempts", ["q=0.9&n=5", "n=5&q=0.90", "n=5e0&q=9e-1", "&q=0.9&&n=5"], "attempts?q=0.9&n=5"],
    ["amplification", ["attempts=1,1,3", "attempts=1%2C+1+%2C3.0"], "amplification?attempts=1%2C1%2C3"],
    ["backoff", ["jitter=0", "jitter=OFF", "jitter=false"], "backoff?jitter=false"],
    ["jitter.svg", ["", "lang=it", "strategy=full&lang=it"], "jitter.svg?lang=it"],
    ["jitter.svg", ["lang=es&strategy=equal", "strategy=equal&lang=es"], "jitter.svg?lang=es&strategy=equal"],
  ];
  for (const [rest, queries, want] of groups) {
    for (const q of queries) assert.equal(canonicalKey(data, rest, q), want, `${rest}?${q}`);
  }
});

test("canonicalKey: null where Go decides", () => {
  for (const [rest, q] of [
    ["nope", ""], ["attempts", "x=1"], ["attempts", "q=1&q=1"], ["attempts", "q=0x1"], ["attempts", "q=1e-7"],
    ["attempts", "q=1e400"], ["attempts", "n=1.5"], ["attempts", "q=%zz"], ["attempts", "q=%FF"], ["attempts", "q=%091"],
    ["jitter", "seed=7"], ["jitter", "strategy=Full"], ["jitter.svg", "lang=fr"], ["jitter.svg", "lang=it&lang=it"],
    ["amplification", "attempts="], ["amplification", "attempts=1,,2"], ["constructor", ""], ["attempts.svg.svg", ""],
    // numbers Go refuses rather than rounds (calc's inexact): not the key of 2^53, nor of 0
    ["attempts", "n=9007199254740993"], ["attempts", "n=9007199254740992"], ["attempts", "q=1e-400"],
    ["attempts", "q=-1e-400"], ["amplification", "attempts=3,1e-400"], ["attempts", "n=1.0000000000000000001"],
    ["attempts", "n=7000000000000000.1"],
  ]) {
    assert.equal(canonicalKey(data, rest, q), null, `${rest}?${q}`);
  }
});

test("escape is url.QueryEscape", () => {
  assert.equal(escape("a b,c+d!*'()~-_."), "a+b%2Cc%2Bd%21%2A%27%28%29~-_.");
});

// fakeApp answers like site/server: 200 with an ETag for q in [0,1], 400
// otherwise, and counts the calls that reached "Go".
function fakeApp() {
  const app = {
    calls: 0,
    async fetch(req) {
      app.calls++;
      if (req.method === "POST") return new Response("405\n", { status: 405 });
      assert.equal(req.method, "GET");
      assert.equal(req.headers.get("if-none-match"), null);
      const q = Number(new URL(req.url).searchParams.get("q") ?? "0.5");
      if (!(q >= 0 && q <= 1)) {
        return new Response('{"error":{}}\n', { status: 400, headers: { "cache-control": "no-store" } });
      }
      return new Response(`{"q":${q}}\n`, {
        headers: { "content-type": "application/json", "cache-control": "public, max-age=3600", etag: `"v1-${q}"` },
      });
    },
  };
  return app;
}

// fakeCache is caches.default: a Map from URL to a stored response.
function fakeCache() {
  const m = new Map();
  return {
    m,
    async match(k) { const r = m.get(String(k)); return r && r.clone(); },
    async put(k, r) { m.set(String(k), r); },
  };
}

const ctx = { pending: [], waitUntil(p) { this.pending.push(p); } };
const get = (path, headers = {}, method = "GET") => new Request("https://retrylab.example" + path, { method, headers });

test("one entry and one Go start for equivalent queries", async () => {
  const app = fakeApp(), cache = fakeCache();
  const e = edge({ app, data, cache });
  for (const q of ["q=0.9", "q=.90", "n=3&q=9e-1", "q=0.9&n=3.0"]) {
    const res = await e.fetch(get("/api/v1/attempts?" + q), {}, ctx);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '{"q":0.9}\n');
  }
  await Promise.all(ctx.pending);
  assert.equal(app.calls, 1);
  assert.equal(e.lru.size, 1);
  assert.deepEqual([...cache.m.keys()], ["https://retrylab.example/_edge/v1/attempts?q=0.9"]);
});

test("a new isolate answers from the Cache API without Go", async () => {
  const cache = fakeCache();
  const first = edge({ app: fakeApp(), data, cache });
  await first.fetch(get("/api/v1/attempts?q=0.25"), {}, ctx);
  await Promise.all(ctx.pending);
  const app = fakeApp();
  const second = edge({ app, data, cache });
  const res = await second.fetch(get("/api/v1/attempts?q=.25"), {}, ctx);
  assert.equal(await res.text(), '{"q":0.25}\n');
  assert.equal(res.headers.get("x-edge-cache"), "cache");
  assert.equal(app.calls, 0);
  const other = edge({ app, data: { ...data, version: "v2" }, cache });
  await other.fetch(get("/api/v1/attempts?q=.25"), {}, ctx);
  assert.equal(app.calls, 1, "another version must not read v1's answers");
});

test("304 on a matching If-None-Match, from the cache", async () => {
  const app = fakeApp();
  const e = edge({ app, data, cache: null });
  const first = await e.fetch(get("/api/v1/attempts?q=0.75", { "if-none-match": '"stale"' }), {}, ctx);
  assert.equal(first.status, 200);
  const etag = first.headers.get("etag");
  for (const inm of [etag, `W/${etag}`, `"a", ${etag}`, "*"]) {
    const res = await e.fetch(get("/api/v1/attempts?q=.75", { "if-none-match": inm }), {}, ctx);
    assert.equal(res.status, 304, inm);
    assert.equal(res.headers.get("etag"), etag);
    assert.equal(res.headers.get("cache-control"), "public, max-age=3600");
    assert.equal(await res.text(), "");
  }
  const other = await e.fetch(get("/api/v1/attempts?q=.75", { "if-none-match": '"v1-0.5"' }), {}, ctx);
  assert.equal(other.status, 200);
  assert.equal(app.calls, 1);
});

test("HEAD: the headers without the body", async () => {
  const app = fakeApp();
  const e = edge({ app, data, cache: null });
  for (let i = 0; i < 2; i++) {
    const res = await e.fetch(get("/api/v1/attempts", {}, "HEAD"), {}, ctx);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    assert.equal(await res.text(), "");
  }
  assert.equal(app.calls, 1);
});

test("refusals, other paths and methods, and unknown spellings reach Go every time", async () => {
  const app = fakeApp(), cache = fakeCache();
  const e = edge({ app, data, cache });
  const reqs = [
    get("/api/v1/attempts?q=2"), get("/api/v1/attempts?q=2"),
    get("/api/v1/attempts?x=1"), get("/api/v1/attempts?x=1"),
    get("/it/"), get("/api/v1/attempts", {}, "POST"),
  ];
  for (const r of reqs) await e.fetch(r, {}, ctx);
  await Promise.all(ctx.pending);
  assert.equal(app.calls, reqs.length);
  assert.equal(e.lru.size, 0);
  assert.equal(cache.m.size, 0);
});

test("a failing Cache API is a miss", async () => {
  const app = fakeApp();
  const broken = { match: async () => { throw new Error("down"); }, put: async () => { throw new Error("down"); } };
  const e = edge({ app, data, cache: broken });
  const res = await e.fetch(get("/api/v1/attempts?q=0.1"), {}, ctx);
  assert.equal(res.status, 200);
  await Promise.all(ctx.pending);
});
