// entry.mjs: the main module of retrylab's Worker, written by
// `make worker` (wasm/worker/cmd/workerassets) next to the modules of
// workers-assets-gen. It runs for the paths of wrangler.toml's [assets]
// run_worker_first (the API, the charts, percent-escapes, empty segments)
// and for the misses (the pages and assets never reach it), and decides,
// without starting the Go program, where the request goes:
//
//   - a path with a malformed percent-escape (/%zz, /api/v1/%zz): 400
//     here, with the headers the native handler sends on its 400s (the Go
//     shim would fail to parse the URL and answer 500 without them);
//   - the API, any method but GET and HEAD (405 with Allow), and any path
//     the assets layer would normalize (an encoded or literal dot segment,
//     an empty segment, a backslash: /it/embed/%2e%2e/retries/): the Go
//     handler, which answers as `retrylab serve` does (404 for those
//     paths, not the page they normalize to);
//   - everything else: the static assets (env.ASSETS), and the Go
//     handler's 404 page when there is no such file.
//
// An isolate runs one request's code at a time, and a computation of the
// Go program does not yield: a page that reaches an isolate while it
// computes waits for it. (Yielding before computing, to let the pages
// queued behind go first, made the computations of an isolate interleave
// and finish together, each as late as the last: worse.) The API's work
// bound for the Worker (wasm/worker's workScale) keeps that wait short;
// the pages, served by the assets layer, do not wait.
//
// What goes to the Go program passes first through the edge layer
// (edge.mjs, wasm/worker/edge): a repeated API or chart question is
// answered from its caches without starting Go. edge-data.mjs holds the
// bundle's version, which the Go handler reads from
// globalThis.RETRYLAB_VERSION, so its ETags and the edge's cache keys name
// the same deployment.
import app from "./worker.mjs";
import data from "./edge-data.mjs";
import { edge } from "./edge.mjs";
// API_ROOT: site/server's APIRoot, from Go (edge-rules.mjs, go generate)
import { API_ROOT as API, LANGS, QVALUE } from "./edge-rules.mjs";

globalThis.RETRYLAB_VERSION = data.version;
const go = edge({ app, data });

// The headers of the native handler's 400 answer of the API (the security
// headers, Cache-Control, CORS, Content-Type), written by workerassets.
const HEADERS = /*HEADERS*/{};

// The message of the 500 that answers an exception in this Worker, by
// language ("" English; the others err.internal of each language's
// strings, content/LANG/strings.toml), written by workerassets.
const INTERNAL = /*INTERNAL*/{};

const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

// The longest path, in bytes as sent, and the most segments a request may
// have: site/server's MaxPathBytes and MaxPathSegments, written by
// workerassets. Past them, 414 here, before anything else reads the path.
const MAX_PATH_BYTES = /*MAX_PATH_BYTES*/0;
const MAX_PATH_SEGMENTS = /*MAX_PATH_SEGMENTS*/0;

// rawPath returns the path of a URL's text as the client sent it, before
// any parser normalizes its dot segments.
function rawPath(url) {
  const s = url.indexOf("://");
  const i = url.indexOf("/", s < 0 ? 0 : s + 3);
  if (i < 0) { return "/"; }
  const p = url.slice(i);
  const e = p.search(/[?#]/);
  return e < 0 ? p : p.slice(0, e);
}

// plain reports whether the assets layer serves path as it is: no
// segment (once decoded) empty or starting with a dot, no backslash.
function plain(path) {
  const segs = path.slice(1).split("/");
  for (let i = 0; i < segs.length; i++) {
    let s;
    try { s = decodeURIComponent(segs[i]); } catch (e) { return false; }
    if ((s === "" && i !== segs.length - 1) || s.startsWith(".") || s.includes("\\") || s.includes("/")) {
      return false;
    }
  }
  return true;
}

// tooLong reports whether path has more bytes or segments than the site
// serves: one pass over it.
function tooLong(path) {
  if (path.length > MAX_PATH_BYTES) return true;
  let segs = 0;
  for (let i = 0; i < path.length; i++) {
    if (path.charCodeAt(i) === 47 && ++segs > MAX_PATH_SEGMENTS) return true;
  }
  return false;
}

// ours answers status with the API's JSON error and the native handler's
// headers (HEADERS).
function ours(status, code, message, method) {
  const body = JSON.stringify({ error: { param: "", code, message } }) + "\n";
  return new Response(method === "HEAD" ? null : body, { status, headers: new Headers(HEADERS) });
}

// acceptLang is site/server's acceptLang: the language of LANGS that an
// Accept-Language header prefers ("" when it prefers English or none of
// them): the tag with the highest q whose primary subtag is one of them
// or "en", the first of equals.
const QVALUE_RE = new RegExp(QVALUE);
export function acceptLang(header) {
  let best = "", bestQ = 0;
  for (const part of header.split(",")) {
    const i = part.trim().indexOf(";");
    const tag = i < 0 ? part.trim() : part.trim().slice(0, i);
    const params = i < 0 ? "" : part.trim().slice(i + 1);
    const primary = tag.trim().toLowerCase().split("-")[0];
    let q = 1;
    const p = params.trim().replaceAll(" ", "");
    if (p.startsWith("q=")) {
      const v = p.slice(2);
      // RFC 9110's qvalue, the grammar Go checks (site/server.QValue)
      if (!QVALUE_RE.test(v)) continue;
      q = Number(v);
    }
    if (q <= bestQ) continue;
    if (primary === "en") {
      best = ""; bestQ = q;
    } else if (LANGS.includes(primary)) {
      best = primary; bestQ = q;
    }
  }
  return best;
}

// langOf is the language of the API's error messages for req, as
// site/server's apiLang reads it: ?lang= given once as one of LANGS,
// else Accept-Language.
export function langOf(req) {
  let vs = [];
  try {
    vs = new URL(req.url).searchParams.getAll("lang");
  } catch (e) { /* the header decides */ }
  if (vs.length > 0) {
    return vs.length === 1 && LANGS.includes(vs[0]) ? vs[0] : "";
  }
  return acceptLang(req.headers.get("accept-language") || "");
}

// internal answers an exception of this Worker (the Go program's, the
// edge layer's, the assets binding's): workerd would answer its own 500,
// plain text without our headers. The API's JSON error, with the
// native handler's headers, in the reader's language.
function internal(req) {
  let lang = "";
  try { lang = langOf(req); } catch (e) { /* English */ }
  const res = ours(500, "internal", INTERNAL[lang] || INTERNAL[""], req.method);
  res.headers.append("Vary", "Accept-Language");
  return res;
}

function badRequest(path, method) {
  const h = new Headers(HEADERS);
  let body;
  if (path.startsWith(API)) {
    body = JSON.stringify({ error: { param: "", code: "syntax", message: "bad escape in the path" } }) + "\n";
  } else {
    h.delete("Access-Control-Allow-Origin");
    h.set("Content-Type", "text/plain; charset=utf-8");
    body = "400 bad request: a malformed percent-escape in the path\n";
  }
  return new Response(method === "HEAD" ? null : body, { status: 400, headers: h });
}

// route answers req (see the comment at the top); what it throws,
// fetch answers with internal's 500.
async function route(req, env, ctx) {
  const path = rawPath(req.url);
  if (tooLong(path)) {
    return ours(414, "uri_too_long", `the path is longer than this site's paths (at most ${MAX_PATH_BYTES} bytes and ${MAX_PATH_SEGMENTS} segments)`, req.method);
  }
  if (BAD_ESCAPE.test(path)) {
    return badRequest(path, req.method);
  }
  if (path.startsWith(API) || (req.method !== "GET" && req.method !== "HEAD") || !plain(path)) {
    return await go.fetch(req, env, ctx);
  }
  const res = await env.ASSETS.fetch(req);
  if (res.status === 404) {
    return await go.fetch(req, env, ctx);
  }
  return res;
}

export default {
  async fetch(req, env, ctx) {
    try {
      return await route(req, env, ctx);
    } catch (e) {
      return internal(req);
    }
  },
  scheduled: app.scheduled,
};
