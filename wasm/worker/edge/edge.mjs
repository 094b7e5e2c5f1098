// The edge layer of retrylab's Worker: a little JavaScript in front of
// the Go program's shim (wasm/worker/goshim) that answers a repeated API
// or chart request without running Go (a computation costs 1 ms of CPU
// and more, and the first request of an isolate starts the Go instance,
// about 8 ms). An answer of /api/v1/NAME or /api/v1/NAME.svg depends only
// on the deployed version and the canonical question (site/server's APIKey
// and ETag), so the layer computes the same canonical key here, from the
// table of the calculators' parameters that `make worker` writes
// (edge-data.mjs, worker/edge/data.go), and keeps the answers Go gave:
//
//   - in a bounded in-isolate LRU cache (entries and bytes), then
//   - in the Cache API (caches.default) where the platform has it, under a
//     key that holds the version, so a deployment never serves the answers
//     of the previous one.
//
// A request whose key it cannot compute with certainty (an unknown or
// repeated parameter, a value outside the spellings it knows, a Text or
// JSON parameter) goes to Go unchanged, as do every other path and method.
// Only 200 answers marked public with an ETag are kept. If-None-Match
// matching a kept answer's ETag is answered 304 here.

import { API, CHART, LANGS, BOOL_TRUE, BOOL_FALSE, PLAIN_MIN, PLAIN_MAX, KIND } from "./edge-rules.mjs";

// What Go declares (the API's paths, the chart languages, the spellings
// of a boolean, where a float takes an exponent) comes from
// edge-rules.mjs, generated from Go (go generate ./wasm/worker/edge); the
// calculators' table and the version from edge-data.mjs (make worker).

/** @typedef {{name: string, kind: string, def: string|null, choices?: string[]}} Param */
/** @typedef {{status: number, headers: [string, string][], body: Uint8Array, etag: string}} Entry */

// LRU is a cache bounded by entry count and by total body bytes; get
// refreshes an entry's recency, set evicts the least recent until both
// bounds hold. An entry larger than maxBytes/8 is not kept.
export class LRU {
  /** @param {number} maxEntries @param {number} maxBytes */
  constructor(maxEntries, maxBytes) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.bytes = 0;
    /** @type {Map<string, Entry>} */
    this.map = new Map();
  }
  get size() {
    return this.map.size;
  }
  /** @param {string} key */
  get(key) {
    const e = this.map.get(key);
    if (e !== undefined) {
      this.map.delete(key);
      this.map.set(key, e);
    }
    return e;
  }
  /** @param {string} key @param {Entry} e */
  set(key, e) {
    if (e.body.byteLength > this.maxBytes / 8) return false;
    const old = this.map.get(key);
    if (old !== undefined) {
      this.bytes -= old.body.byteLength;
      this.map.delete(key);
    }
    this.map.set(key, e);
    this.bytes += e.body.byteLength;
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [k, v] = this.map.entries().next().value;
      this.map.delete(k);
      this.bytes -= v.body.byteLength;
    }
    return true;
  }
}

const numberRE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

// canonNumber returns the canonical text Go's calc package gives the
// number s (strconv.Itoa for integers, calc.FormatFloat for floats), or
// null when s is not a plain decimal number or its text would differ
// (floats below PLAIN_MIN or from PLAIN_MAX on, which Go spells with an
// exponent).
function canonNumber(s, integer) {
  if (!numberRE.test(s)) return null;
  const x = Number(s);
  if (!Number.isFinite(x)) return null;
  // Go refuses what a float64 cannot hold as written (calc's inexact):
  // an integer from 2^53 on (2^53+1 would read as 2^53) and a nonzero
  // number that underflows (1e-400 would read as 0); so do not give them
  // the key of the number they round to.
  const [mant, exp = "0"] = s.split(/[eE]/);
  if (x === 0 && /[1-9]/.test(mant)) return null;
  if (integer) {
    // a fraction that rounds to an integer (1.0000000000000000001) is
    // not one (calc's decimal): the significant digits times a power of
    // ten whose exponent must not be negative
    const [ip, fp = ""] = mant.replace(/^[+-]/, "").split(".");
    const digits = (ip + fp).replace(/^0+/, "");
    const sig = digits.replace(/0+$/, "");
    if (sig !== "" && Number(exp) - fp.length + (digits.length - sig.length) < 0) return null;
    if (!Number.isSafeInteger(x)) return null;
    return String(x === 0 ? 0 : x);
  }
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const a = Math.abs(x);
  if (a < PLAIN_MIN || a >= PLAIN_MAX) return null;
  return String(x);
}

// trim removes the spaces calc.Param's parse trims (strings.TrimSpace; the
// other white space never gets here, see canonValue).
const trim = (s) => s.replace(/^ +| +$/g, "");

// canonValue returns the canonical text of v for p, or null.
function canonValue(p, v) {
  if (/[^\x20-\x7e]/.test(v)) return null;
  v = trim(v);
  switch (p.kind) {
    case KIND.Int:
    case KIND.Float:
      return canonNumber(v, p.kind === KIND.Int);
    case KIND.IntList:
    case KIND.FloatList: {
      if (v === "") return null;
      const out = [];
      for (const part of v.split(",")) {
        const c = canonNumber(trim(part), p.kind === KIND.IntList);
        if (c === null) return null;
        out.push(c);
      }
      return out.join(",");
    }
    case KIND.Bool: {
      const b = v.toLowerCase();
      if (BOOL_TRUE.includes(b)) return "true";
      if (BOOL_FALSE.includes(b)) return "false";
      return null;
    }
    case KIND.Choice:
      return p.choices && p.choices.includes(v) ? v : null;
  }
  return null; // big int, text, JSON: Go decides
}

// escape is Go's url.QueryEscape for the ASCII the canonical texts hold.
export function escape(s) {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, "+");
}

// parseQuery splits a raw query as site/server's parseQuery does ('&'
// only, '+' is a space), or returns null where Go would refuse it or
// decode bytes that are not UTF-8.
function parseQuery(raw) {
  /** @type {Map<string, string[]>} */
  const m = new Map();
  if (raw === "") return m;
  for (const pair of raw.split("&")) {
    if (pair === "") continue;
    const i = pair.indexOf("=");
    const k = i < 0 ? pair : pair.slice(0, i);
    const v = i < 0 ? "" : pair.slice(i + 1);
    let key, value;
    try {
      key = decodeURIComponent(k.replace(/\+/g, " "));
      value = decodeURIComponent(v.replace(/\+/g, " "));
    } catch {
      return null;
    }
    const vs = m.get(key);
    if (vs) vs.push(value);
    else m.set(key, [value]);
  }
  return m;
}

// canonicalKey returns site/server's APIKey for the request
// /api/v1/{rest}?{rawQuery} (rest is NAME or NAME.svg), or null when it
// cannot tell with certainty. data is edge-data.mjs's table.
export function canonicalKey(data, rest, rawQuery) {
  let name = rest, svg = false;
  if (name.endsWith(CHART)) {
    name = name.slice(0, -CHART.length);
    svg = true;
  }
  if (!Object.hasOwn(data.calculators, name)) return null;
  const params = data.calculators[name];
  const q = parseQuery(rawQuery);
  if (q === null) return null;
  let lang = LANGS[0];
  if (svg && q.has("lang")) {
    const vs = q.get("lang");
    if (vs.length !== 1 || !LANGS.includes(vs[0])) return null;
    lang = vs[0];
    q.delete("lang");
  }
  for (const k of q.keys()) {
    if (!params.some((p) => p.name === k)) return null;
  }
  const pairs = [];
  for (const p of params) {
    const vs = q.get(p.name);
    if (vs === undefined) continue;
    if (vs.length !== 1) return null;
    const c = canonValue(p, vs[0]);
    if (c === null) return null;
    if (p.def !== null && c === p.def) continue;
    pairs.push(escape(p.name) + "=" + escape(c));
  }
  const canon = pairs.join("&");
  if (svg) return name + CHART + "?lang=" + lang + (canon ? "&" + canon : "");
  return canon ? name + "?" + canon : name;
}

// etagMatch is site/server's etagMatch: a list of tags, "*", W/ ignored.
function etagMatch(header, etag) {
  return header.split(",").some((t) => {
    t = t.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}

// cacheable reports whether Go's answer may be kept: 200, public, not
// no-store, with an ETag.
function cacheable(res) {
  const cc = res.headers.get("cache-control") || "";
  return res.status === 200 && res.headers.has("etag") && /\bpublic\b/.test(cc) && !/no-store|private/.test(cc);
}

async function toEntry(res) {
  const body = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: [...res.headers], body, etag: res.headers.get("etag") };
}

// respond answers req from entry: 304 when If-None-Match holds its ETag,
// the headers alone for HEAD, else the body.
function respond(entry, req, source) {
  const headers = new Headers(entry.headers);
  headers.set("X-Edge-Cache", source);
  const inm = req.headers.get("if-none-match");
  if (inm && etagMatch(inm, entry.etag)) {
    headers.delete("content-type");
    headers.delete("content-length");
    return new Response(null, { status: 304, headers });
  }
  return new Response(req.method === "HEAD" ? null : entry.body, { status: entry.status, headers });
}

/**
 * edge returns the Worker's handler: app (the shim's {fetch}) behind the
 * caches.
 * @param {{app: {fetch: Function}, data: {version: string, calculators: Record<string, Param[]>},
 *   cache?: Cache|null, maxEntries?: number, maxBytes?: number}} opts
 */
export function edge(opts) {
  const { app, data } = opts;
  const lru = new LRU(opts.maxEntries ?? 512, opts.maxBytes ?? 8 << 20);
  let cache = opts.cache;
  const cacheOf = () => {
    if (cache === undefined) {
      cache = globalThis.caches && globalThis.caches.default ? globalThis.caches.default : null;
    }
    return cache;
  };
  return {
    lru,
    async fetch(req, env, ctx) {
      if (req.method !== "GET" && req.method !== "HEAD") return app.fetch(req, env, ctx);
      const url = new URL(req.url);
      if (!url.pathname.startsWith(API)) return app.fetch(req, env, ctx);
      const key = canonicalKey(data, url.pathname.slice(API.length), url.search.slice(1));
      if (key === null) return app.fetch(req, env, ctx);
      let entry = lru.get(key);
      if (entry !== undefined) return respond(entry, req, "isolate");
      const c = cacheOf();
      const cacheKey = url.origin + "/_edge/" + data.version + "/" + key;
      if (c) {
        try {
          const hit = await c.match(cacheKey);
          if (hit && cacheable(hit)) {
            entry = await toEntry(hit);
            lru.set(key, entry);
            return respond(entry, req, "cache");
          }
        } catch {
          // the Cache API is an optimization: a failure is a miss
        }
      }
      const headers = new Headers(req.headers);
      headers.delete("if-none-match");
      const res = await app.fetch(new Request(req.url, { method: "GET", headers }), env, ctx);
      if (!cacheable(res)) return res;
      entry = await toEntry(res);
      lru.set(key, entry);
      if (c) {
        const put = c
          .put(cacheKey, new Response(entry.body, { status: 200, headers: entry.headers }))
          .catch(() => {});
        if (ctx && typeof ctx.waitUntil === "function") ctx.waitUntil(put);
      }
      return respond(entry, req, "miss");
    },
  };
}
