// Command workerbench measures the Cloudflare Worker on the real workerd
// binary against its floor (`make bench`, scripts/bench.d/50-worker.sh):
//
//	workerbench [-n 2000] [-c 2] [-timeout 15m]
//
// It serves, one after the other, each on its own workerd process:
//
//   - bare: a syumai/workers handler that answers a constant
//     (wasm/workerbare), the cost of starting Go per request;
//   - then the Worker of `make worker` (worker/workerd.capnp), with
//     api-uncached: /api/v1/attempts on n distinct questions, each a miss
//     of the edge layer's caches (worker/edge), so each starts Go;
//     api-repeated: one question n times, answered by the edge layer;
//     svg: /api/v1/jitter.svg on n distinct seeds (a seed is a big
//     integer, which the edge layer leaves to Go: each starts Go);
//     static: a CSS file of the static assets.
//
// For each it prints requests per second, latency p50/p99 and workerd's CPU
// time per request (user+system of the process, /proc/PID/stat), then the
// goals' verdicts: api-uncached at least 0.85× bare's rate; api-repeated at
// least 10× bare's; no error; workerd's memory flat (resident memory at the
// end within 32 MiB of what it was after the first 200 requests of the
// Worker). It exits 1 when a goal is missed. Run it from the repository
// after `make worker`; it builds the bare handler into build/workerbench.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"retrylab/worker/assetsdir"
	"retrylab/worker/load"
	"retrylab/worker/local"
)

func main() {
	n := flag.Int("n", 2000, "requests per scenario (the Worker gets 4n after a warm-up of 200)")
	c := flag.Int("c", 2, "requests in flight")
	timeout := flag.Duration("timeout", 15*time.Minute, "bound of each scenario")
	flag.Parse()
	if err := run(*n, *c, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "workerbench:", err)
		os.Exit(1)
	}
}

// Goals of issue 20.
const (
	uncachedGoal = 0.85     // api-uncached rate / bare rate, at least
	repeatedGoal = 10.0     // api-repeated rate / bare rate, at least
	memoryGoal   = 32 << 20 // RSS growth over the Worker's runs, at most
)

type scenario struct {
	name    string
	targets []load.Target
}

type measure struct {
	name string
	res  load.Result
	cpu  time.Duration // workerd CPU time over the run
}

func (m measure) String() string {
	perReq := time.Duration(0)
	if m.res.Requests+m.res.Errors > 0 {
		perReq = m.cpu / time.Duration(m.res.Requests+m.res.Errors)
	}
	return fmt.Sprintf("%-13s %8.0f req/s  p50 %7.2f ms  p99 %7.2f ms  CPU %6.2f ms/req  %d errors",
		m.name, m.res.PerSecond(), ms(m.res.P50), ms(m.res.P99), ms(perReq), m.res.Errors)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func run(n, c int, timeout time.Duration) error {
	root, err := local.Root(".")
	if err != nil {
		return err
	}
	if err := local.Check(root); err != nil {
		return err
	}
	bareConfig, err := buildBare(root)
	if err != nil {
		return err
	}
	files, _, err := assetsdir.List(filepath.Join(root, "dist"))
	if err != nil {
		return err
	}
	static := ""
	for _, f := range files {
		if p := assetsdir.URLPath(f); strings.HasSuffix(p, ".css") {
			static = p
			break
		}
	}
	if static == "" {
		return fmt.Errorf("no CSS file in dist/")
	}
	distinct := func(f func(i int) string) []load.Target {
		t := make([]load.Target, n)
		for i := range t {
			t[i] = load.Target{Path: f(i), Status: 200}
		}
		return t
	}
	// distinct canonical questions: q differs in its sixth decimal
	uncached := distinct(func(i int) string {
		return "/api/v1/attempts?n=7&q=" + strconv.FormatFloat(float64(i+1)/1e6, 'f', -1, 64)
	})
	svg := distinct(func(i int) string { return "/api/v1/jitter.svg?seed=" + strconv.Itoa(1000+i) })
	repeated := []load.Target{{Path: "/api/v1/attempts?q=0.9&n=5", Status: 200}}

	ctx := context.Background()
	fmt.Printf("workerd %s, %d requests per scenario, %d at a time, on 127.0.0.1\n", workerdVersion(root), n, c)
	var all []measure
	bench := func(s *local.Server, sc scenario) (measure, error) {
		before, err := s.CPU()
		if err != nil {
			return measure{}, err
		}
		res, err := load.Run(ctx, load.Config{BaseURL: s.URL, Targets: sc.targets, Requests: n, Concurrency: c, Timeout: timeout})
		if err != nil {
			return measure{}, err
		}
		after, err := s.CPU()
		if err != nil {
			return measure{}, err
		}
		m := measure{sc.name, res, after - before}
		fmt.Println(m)
		for _, f := range res.Failures {
			fmt.Printf("              error: %s\n", f)
		}
		all = append(all, m)
		return m, nil
	}

	bare, err := local.StartConfig(ctx, root, bareConfig, time.Minute)
	if err != nil {
		return err
	}
	floor, err := bench(bare, scenario{"bare", []load.Target{{Path: "/", Status: 200}}})
	bare.Stop()
	if err != nil {
		return err
	}

	w, err := local.Start(ctx, root, time.Minute)
	if err != nil {
		return err
	}
	defer w.Stop()
	// warm up: the first requests of an isolate compile the wasm
	if _, err := load.Run(ctx, load.Config{BaseURL: w.URL, Targets: distinct(func(i int) string { return "/api/v1/attempts?n=" + strconv.Itoa(1+i) }), Requests: 200, Concurrency: c, Timeout: timeout}); err != nil {
		return err
	}
	rssStart, err := w.RSS()
	if err != nil {
		return err
	}
	var got = map[string]measure{"bare": floor}
	for _, sc := range []scenario{
		{"api-uncached", uncached},
		{"api-repeated", repeated},
		{"svg", svg},
		{"static", []load.Target{{Path: static, Status: 200}}},
	} {
		m, err := bench(w, sc)
		if err != nil {
			return err
		}
		got[sc.name] = m
	}
	rssEnd, err := w.RSS()
	if err != nil {
		return err
	}

	errors := 0
	for _, m := range all {
		errors += m.res.Errors
	}
	ok := true
	verdict := func(pass bool, format string, args ...any) {
		word := "MET   "
		if !pass {
			word, ok = "MISSED", false
		}
		fmt.Printf("goal %s "+format+"\n", append([]any{word}, args...)...)
	}
	ratio := func(name string) float64 {
		if floor.res.PerSecond() == 0 {
			return 0
		}
		return got[name].res.PerSecond() / floor.res.PerSecond()
	}
	verdict(ratio("api-uncached") >= uncachedGoal, "api-uncached %.2f× bare (goal ≥ %.2f×)", ratio("api-uncached"), uncachedGoal)
	verdict(ratio("api-repeated") >= repeatedGoal, "api-repeated %.1f× bare (goal ≥ %.0f×)", ratio("api-repeated"), repeatedGoal)
	verdict(errors == 0, "%d errors over %d requests (goal 0)", errors, n*len(all))
	verdict(rssEnd-rssStart <= memoryGoal, "workerd RSS %.1f MiB after the warm-up, %.1f MiB after %d requests on the Worker (goal: growth ≤ %d MiB)",
		float64(rssStart)/(1<<20), float64(rssEnd)/(1<<20), 4*n, memoryGoal>>20)
	if !ok {
		return fmt.Errorf("goals missed")
	}
	return nil
}

// workerdVersion returns the version of the workerd package npm installed.
func workerdVersion(root string) string {
	b, err := os.ReadFile(filepath.Join(root, "node_modules", "workerd", "package.json"))
	if err != nil {
		return "?"
	}
	var pkg struct{ Version string }
	if json.Unmarshal(b, &pkg) != nil {
		return "?"
	}
	return pkg.Version
}

// buildBare builds the bare handler into build/workerbench/bare (the shim
// of workers-assets-gen and app.wasm) and writes its workerd
// configuration; it returns the configuration's path.
func buildBare(root string) (string, error) {
	dir := filepath.Join(root, "build", "workerbench", "bare")
	goTool := os.Getenv("GO")
	if goTool == "" {
		goTool = "go"
	}
	for _, args := range [][]string{
		{"tool", "workers-assets-gen", "-mode=go", "-o", dir},
		{"build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "app.wasm"), "./wasm/workerbare"},
	} {
		cmd := exec.Command(goTool, args...)
		cmd.Dir = root
		cmd.Env = os.Environ()
		if args[0] == "build" {
			cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	config := filepath.Join(dir, "bare.capnp")
	return config, os.WriteFile(config, []byte(bareCapnp), 0o644)
}

// bareCapnp serves the bare handler alone; the socket is replaced by
// local.StartConfig's --socket-fd.
const bareCapnp = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "bare", worker = .bare)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "bare")],
);

const bare :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "shim.mjs", esModule = embed "shim.mjs"),
    (name = "wasm_exec.js", esModule = embed "wasm_exec.js"),
    (name = "app.wasm", wasm = embed "app.wasm"),
  ],
  compatibilityDate = "2026-11-01",
);
`
