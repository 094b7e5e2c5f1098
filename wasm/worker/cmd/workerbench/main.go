// Command workerbench measures the Cloudflare Worker on the real workerd
// binary against its floor (`make bench`, wasm/worker/bench.sh):
//
//	workerbench [-worst FILE -scale S] [-paths=true] [-floor=true] [-n 2000] [-c 2] [-timeout 15m]
//
// With -worst, it first sends each calculator's worst accepted requests
// (the lines core/calc's TestServerWorkQueries writes) to the Worker on
// workerd, one at a time, and prints the costliest one's CPU time per
// calculator against wrangler.toml's cpu_ms (worst.go); with -paths, paths
// of 2,000 to 8,000 segments and the CPU time each workerd process spends
// on them (paths.go). Then, unless -floor=false:
//
// It starts two workerd processes: bare, a syumai/workers handler that
// answers a constant with syumai's own shim (wasm/workerbare: the cost of
// starting Go per request, without our code), and the Worker of `make
// worker` (worker/workerd.capnp), whose shim starts Go once per isolate
// (worker/goshim). After a warm-up it measures, n requests each, c at a
// time:
//
//   - bare, and api-uncached (/api/v1/attempts on n distinct questions,
//     each a miss of the edge layer's caches, worker/edge, so each runs
//     Go), alternating in 10 chunks so that both see the same load of the
//     machine;
//   - api-repeated: one question n times, answered by the edge layer;
//   - svg: /api/v1/jitter.svg on n distinct seeds (a seed is a big
//     integer, which the edge layer leaves to Go: each runs Go);
//   - static: a CSS file of the static assets;
//   - mixed: 5,000 requests of the four kinds of the Worker in turn, in 10
//     steps, with workerd's resident memory after each (both processes).
//
// For each it prints requests per second, latency p50/p99 and workerd's CPU
// time per request (user+system, /proc/PID/stat; the Worker's two
// processes, the assets layer and the user Worker, summed), then the
// goals' verdicts: api-uncached at least 0.85× bare's rate; api-repeated
// at least 10× bare's; no error; workerd's memory flat (the peak of the
// mixed run's second half within 16 MiB of its first half's). It exits 1
// when a goal is missed. Run it from the repository after `make worker`;
// it builds the bare handler into build/workerbench.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"retrylab/site/load"
	"retrylab/wasm/worker/assetsdir"
	"retrylab/wasm/worker/local"
)

func main() {
	n := flag.Int("n", 2000, "requests per scenario (the Worker gets 4n after a warm-up of 200)")
	c := flag.Int("c", 2, "requests in flight")
	timeout := flag.Duration("timeout", 15*time.Minute, "bound of each scenario")
	worst := flag.String("worst", "", "first, the CPU time on workerd of the worst accepted requests listed in this file (core/calc's TestServerWorkQueries -serverwork.queries)")
	scale := flag.Float64("scale", 1, "the Worker's share of the work bounds (wasm/worker's workScale), at which -worst's requests were searched")
	reps := flag.Int("reps", 3, "runs of each -worst request (the least is kept)")
	paths := flag.Bool("paths", true, "time long paths (2,000 to 8,000 segments) on workerd, per process")
	floor := flag.Bool("floor", true, "measure the Worker against its floor (the scenarios below)")
	flag.Parse()
	if *worst != "" {
		root, err := local.Root(".")
		if err == nil {
			err = worstCPU(context.Background(), root, *worst, *reps, *scale)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "workerbench:", err)
			os.Exit(1)
		}
	}
	if *paths {
		root, err := local.Root(".")
		if err == nil {
			err = longPaths(context.Background(), root)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "workerbench:", err)
			os.Exit(1)
		}
	}
	if !*floor {
		return
	}
	if err := run(*n, *c, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "workerbench:", err)
		os.Exit(1)
	}
}

// Goals of issue 20.
const (
	uncachedGoal = 0.85     // api-uncached rate / bare rate, at least
	repeatedGoal = 10.0     // api-repeated rate / bare rate, at least
	memoryGoal   = 16 << 20 // RSS growth from the first half of the mixed run to the second, at most
	// memoryRequests is the length of the mixed run that checks memory.
	memoryRequests = 5000
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
	// runOn sends targets (round-robin, count requests) to s and
	// measures workerd's CPU time over the run.
	runOn := func(s *local.Server, targets []load.Target, count int) (load.Result, time.Duration, error) {
		before, err := s.CPU()
		if err != nil {
			return load.Result{}, 0, err
		}
		res, err := load.Run(ctx, load.Config{BaseURL: s.URL, Targets: targets, Requests: count, Concurrency: c, Timeout: timeout})
		if err != nil {
			return load.Result{}, 0, err
		}
		after, err := s.CPU()
		return res, after - before, err
	}
	var all []measure
	report := func(m measure) {
		fmt.Println(m)
		for _, f := range m.res.Failures {
			fmt.Printf("              error: %s\n", f)
		}
		all = append(all, m)
	}

	bare, err := local.StartConfig(ctx, root, bareConfig, time.Minute)
	if err != nil {
		return err
	}
	defer bare.Stop()
	w, err := local.Start(ctx, root, time.Minute)
	if err != nil {
		return err
	}
	defer w.Stop()
	// Warm up both: the first requests of an isolate compile the wasm.
	if _, _, err := runOn(bare, []load.Target{{Path: "/", Status: 200}}, 50); err != nil {
		return err
	}
	warm := distinct(func(i int) string { return "/api/v1/attempts?n=" + strconv.Itoa(1+i%1000) })
	if _, _, err := runOn(w, warm, 200); err != nil {
		return err
	}

	// bare and api-uncached alternate in chunks, so that the ratio of
	// their rates holds under the same load of the machine.
	const chunks = 10
	var bareRes, apiRes []load.Result
	var bareCPU, apiCPU time.Duration
	for k := 0; k < chunks; k++ {
		lo, hi := k*n/chunks, (k+1)*n/chunks
		r, cpu, err := runOn(bare, []load.Target{{Path: "/", Status: 200}}, hi-lo)
		if err != nil {
			return err
		}
		bareRes, bareCPU = append(bareRes, r), bareCPU+cpu
		r, cpu, err = runOn(w, uncached[lo:hi], hi-lo)
		if err != nil {
			return err
		}
		apiRes, apiCPU = append(apiRes, r), apiCPU+cpu
	}
	floor := measure{"bare", load.Merge(bareRes...), bareCPU}
	report(floor)
	report(measure{"api-uncached", load.Merge(apiRes...), apiCPU})
	for _, sc := range []scenario{
		{"api-repeated", repeated},
		{"svg", svg},
		{"static", []load.Target{{Path: static, Status: 200}}},
	} {
		r, cpu, err := runOn(w, sc.targets, n)
		if err != nil {
			return err
		}
		report(measure{sc.name, r, cpu})
	}
	got := map[string]measure{}
	for _, m := range all {
		got[m.name] = m
	}

	// Memory: 5,000 requests of the four kinds in turn (new questions,
	// so that the caches fill), in 10 steps; workerd's resident memory
	// after each. Flat: the second half's peak within memoryGoal of the
	// first half's.
	var mixed []load.Target
	for i := 0; i < memoryRequests/4; i++ {
		mixed = append(mixed,
			load.Target{Path: "/api/v1/attempts?n=9&q=" + strconv.FormatFloat(float64(i+1)/1e6, 'f', -1, 64), Status: 200},
			repeated[0],
			load.Target{Path: "/api/v1/jitter.svg?lang=es&seed=" + strconv.Itoa(50000+i), Status: 200},
			load.Target{Path: static, Status: 200})
	}
	var rss []int64
	var memRes []load.Result
	var memCPU time.Duration
	step := len(mixed) / 10
	for k := 0; k < 10; k++ {
		r, cpu, err := runOn(w, mixed[k*step:(k+1)*step], step)
		if err != nil {
			return err
		}
		memRes, memCPU = append(memRes, r), memCPU+cpu
		m, err := w.RSS()
		if err != nil {
			return err
		}
		rss = append(rss, m)
	}
	report(measure{"mixed", load.Merge(memRes...), memCPU})
	peak := func(xs []int64) int64 { return slices.Max(xs) }
	var mib []string
	for _, m := range rss {
		mib = append(mib, strconv.FormatFloat(float64(m)/(1<<20), 'f', 1, 64))
	}
	fmt.Printf("workerd RSS (MiB) after each %d of the %d mixed requests: %s\n", step, len(mixed), strings.Join(mib, " "))

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
	cpuRatio := float64(bareCPU) / float64(max(apiCPU, 1))
	verdict(ratio("api-uncached") >= uncachedGoal, "api-uncached %.2f× bare's rate (goal ≥ %.2f×); by workerd's CPU per request, %.2f×", ratio("api-uncached"), uncachedGoal, cpuRatio)
	verdict(ratio("api-repeated") >= repeatedGoal, "api-repeated %.1f× bare's rate (goal ≥ %.0f×)", ratio("api-repeated"), repeatedGoal)
	total := 0
	for _, m := range all {
		total += m.res.Requests + m.res.Errors
	}
	verdict(errors == 0, "%d errors over %d requests (goal 0)", errors, total)
	first, second := peak(rss[:5]), peak(rss[5:])
	verdict(second-first <= memoryGoal, "workerd RSS peak %.1f MiB in the second half of the mixed run, %.1f MiB in the first (goal: flat, within %d MiB)",
		float64(second)/(1<<20), float64(first)/(1<<20), memoryGoal>>20)
	if !ok {
		return fmt.Errorf("goals missed")
	}
	return nil
}

// workerdVersion returns the version of the workerd package npm installed.
func workerdVersion(root string) string {
	b, err := os.ReadFile(filepath.Join(root, local.NodeModules, "workerd", "package.json"))
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
