// goshim.mjs with a real Go program (testdata/app, served with
// goshim.Serve through syumai/workers), run by node: `go test -tags e2e
// ./wasm/worker/goshim` (TestNode) builds the program and sets
// GOSHIM_WASM (its wasm) and GOSHIM_WASM_EXEC (syumai/workers' wasm_exec.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { goShim } from "./goshim.mjs";

await import(process.env.GOSHIM_WASM_EXEC);
const mod = new WebAssembly.Module(readFileSync(process.env.GOSHIM_WASM));

const get = (shim, path, env = {}, method = "GET") =>
  shim.fetch(new Request("https://w.test" + path, { method }), env, { waitUntil() {} });

// quiet silences the Go runtime's report of a crash (written to console).
async function quiet(f) {
  const { log, error, warn } = console;
  console.log = console.error = console.warn = () => {};
  try {
    return await f();
  } finally {
    Object.assign(console, { log, error, warn });
  }
}

test("one Go start serves every request; the response whole", async () => {
  const shim = goShim(mod);
  for (let i = 1; i <= 200; i++) {
    const res = await get(shim, "/count");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-served"), String(i));
  }
  const big = await get(shim, "/big");
  assert.equal(big.headers.get("content-length"), "1000000");
  assert.equal((await big.arrayBuffer()).byteLength, 1_000_000);
  const tea = await get(shim, "/status");
  assert.equal(tea.status, 418);
  assert.equal(await tea.text(), "teapot");
  const head = await get(shim, "/count", {}, "HEAD");
  assert.equal(head.status, 200);
  assert.equal((await get(shim, "/nowhere")).status, 404);
  // syumai/workers' Done channel is never closed: no response reaches its appCloser
  assert.equal(await (await get(shim, "/done")).text(), "open");
  assert.equal(shim.state().starts, 1);
  assert.equal(shim.state().exits, 0);
});

test("each request's env, also while another waits", async () => {
  const shim = goShim(mod);
  for (const name of ["a", "b", "c"]) {
    assert.equal(await (await get(shim, "/env", { NAME: name })).text(), `${name} ${name}`);
  }
  // a waits on JavaScript; b enters, answers and leaves meanwhile
  let open;
  globalThis.gate = () => new Promise((r) => { open = r; });
  const a = get(shim, "/env?wait=gate", { NAME: "a" });
  const b = await get(shim, "/env", { NAME: "b" });
  assert.equal(await b.text(), "b b");
  open();
  // before its wait, a read its own env; after it, the latest request's
  // (the same bindings in a Worker isolate: see goshim.mjs)
  assert.equal(await (await a).text(), "a b");
  assert.equal(shim.state().starts, 1);
});

test("a panic fails its request and those waiting in the instance; the next request gets a fresh instance", async () => {
  const shim = goShim(mod);
  await get(shim, "/count");
  await get(shim, "/count");
  globalThis.never = () => new Promise(() => {});
  const waiting = get(shim, "/env?wait=never", { NAME: "w" });
  await quiet(() => assert.rejects(get(shim, "/panic"), /exited with code 2/));
  await assert.rejects(waiting, /exited with code 2/);
  const res = await get(shim, "/count");
  assert.equal(res.headers.get("x-served"), "1");
  assert.deepEqual([shim.state().starts, shim.state().exits], [2, 1]);
});

test("out of memory: the next request gets a fresh instance", async () => {
  const shim = goShim(mod);
  await get(shim, "/count");
  await quiet(() => assert.rejects(get(shim, "/oom"), /exited with code 2/));
  assert.equal(shim.state().memory, 0);
  const res = await get(shim, "/count");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-served"), "1");
  assert.deepEqual([shim.state().starts, shim.state().exits], [2, 1]);
});

test("memory stays flat over 5,000 requests", async () => {
  const shim = goShim(mod);
  const mem = [];
  for (let i = 1; i <= 5000; i++) {
    const res = await get(shim, i % 2 ? "/big" : "/count");
    await res.arrayBuffer();
    if (i % 1000 === 0) mem.push(shim.state().memory);
  }
  const growth = mem[mem.length - 1] - mem[0];
  assert.ok(growth <= 8 << 20, `the instance's memory grew by ${growth} bytes after the first 1,000 requests: ${mem}`);
  assert.equal(shim.state().starts, 1);
});
