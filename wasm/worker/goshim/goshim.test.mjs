// goshim.mjs's life cycle with a stand-in for wasm_exec.js's Go class, run
// by node (TestNode): what a real Go program cannot easily be made to do.
// real.test.mjs runs it with a real Go program.
import { test } from "node:test";
import assert from "node:assert/strict";
import { goShim } from "./goshim.mjs";

// fakeGo returns a Go class whose program runs behave(rc, imports, go) as
// its main: it may call imports.workers.ready() and set
// rc.binding.handleRequest.
function fakeGo(behave) {
  return class {
    constructor() {
      this.importObject = { go: {} };
      this.exit = () => {};
    }
    async run(instance, rc) {
      behave(rc, instance.imports, this);
    }
  };
}

const instantiate = (mod, imports) => ({ imports, exports: { mem: { buffer: { byteLength: 65536 } } } });

test("a program that does not call Ready is not kept; the next request tries again", async () => {
  let runs = 0;
  const Go = fakeGo((rc, imports) => {
    runs++;
    if (runs === 1) return; // no Ready
    rc.binding.handleRequest = async () => new Response("ok");
    imports.workers.ready();
  });
  const shim = goShim({}, { Go, instantiate });
  await assert.rejects(shim.fetch(new Request("https://w.test/"), {}, {}), /did not call workers.Ready/);
  assert.equal(await (await shim.fetch(new Request("https://w.test/"), {}, {})).text(), "ok");
  assert.equal(shim.state().starts, 2);
});

test("a call into Go that throws drops the instance; a rejected request does not", async () => {
  let n = 0;
  const Go = fakeGo((rc, imports) => {
    rc.binding.handleRequest = (req) => {
      n++;
      if (req.url.endsWith("/trap")) throw new WebAssembly.RuntimeError("unreachable");
      if (req.url.endsWith("/reject")) return Promise.reject(new Error("refused"));
      return Promise.resolve(new Response(String(n)));
    };
    imports.workers.ready();
  });
  const shim = goShim({}, { Go, instantiate });
  const get = (p) => shim.fetch(new Request("https://w.test" + p), {}, {});
  await assert.rejects(get("/reject"), /refused/);
  assert.equal(shim.state().starts, 1);
  await assert.rejects(get("/trap"), WebAssembly.RuntimeError);
  assert.equal(shim.state().memory, 0);
  await get("/");
  assert.equal(shim.state().starts, 2);
});

test("env and ctx are the calling request's; scheduled needs the binding's runScheduler", async () => {
  const seen = [];
  const Go = fakeGo((rc, imports) => {
    rc.binding.handleRequest = async () => {
      seen.push([rc.env.NAME, rc.ctx.id]);
      return new Response("");
    };
    imports.workers.ready();
  });
  const shim = goShim({}, { Go, instantiate });
  await shim.fetch(new Request("https://w.test/"), { NAME: "a" }, { id: 1 });
  await shim.fetch(new Request("https://w.test/"), { NAME: "b" }, { id: 2 });
  assert.deepEqual(seen, [["a", 1], ["b", 2]]);
  await assert.rejects(shim.scheduled({}, {}, {}), /no runScheduler/);
});
