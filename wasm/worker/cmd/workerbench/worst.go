package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"retrylab/core/calc"
	"retrylab/wasm/worker/assetsdir"
	"retrylab/wasm/worker/local"
)

// worstRequest is one line of core/calc's TestServerWorkQueries: a
// calculator's worst accepted request (or one of its costliest probes) as
// the API's query.
type worstRequest struct {
	calc  *calc.Calculator
	args  calc.Args
	query string // encoded, as the API reads it
}

// readWorst reads the "NAME QUERY" lines TestServerWorkQueries writes
// (go test ./core/calc -run '^TestServerWorkQueries$' -args
// -serverwork.queries FILE) and checks them against reg: every line names
// a calculator and parses, and every calculator of reg with a work bound
// has at least one line, so the workerd figures cover them all.
func readWorst(r io.Reader, reg *calc.Registry) ([]worstRequest, error) {
	var out []worstRequest
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" {
			continue
		}
		name, q, _ := strings.Cut(line, " ")
		c, ok := reg.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("line %d: no calculator %q", n, name)
		}
		vals, err := url.ParseQuery(q)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		a, err := c.Parse(vals)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		out = append(out, worstRequest{calc: c, args: a, query: q})
		seen[name] = true
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var missing []string
	for _, c := range reg.List() {
		if c.Work != nil && !seen[c.Name] {
			missing = append(missing, c.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no worst accepted request for %s (core/calc's TestServerWorkQueries writes one per calculator)", strings.Join(missing, ", "))
	}
	return out, nil
}

// uncachedPath is the API path of w spelled so that the Worker's edge
// layer cannot canonicalize it and passes it to Go, which computes it
// (worker/edge's canonValue leaves a value with a control character to
// Go; Go trims it, calc.Param's strings.TrimSpace): a tab after the value
// of the first number, list, boolean or choice, given or at its default. The answer is
// the same question's.
func uncachedPath(w worstRequest) (string, error) {
	vals, err := url.ParseQuery(w.query)
	if err != nil {
		return "", err
	}
	for _, p := range w.calc.Params {
		switch p.Kind {
		case calc.Int, calc.Float, calc.IntList, calc.FloatList, calc.Bool, calc.Choice:
		default:
			continue // text, JSON, big integers: Go's own reading
		}
		v := p.Default
		if vs, ok := vals[p.Name]; ok {
			v = vs[0]
		}
		vals.Set(p.Name, v+"\t")
		return "/api/v1/" + w.calc.Name + "?" + vals.Encode(), nil
	}
	// only text, JSON or big integers, which the edge layer leaves to Go
	// when given (worstCPU checks that Go answered)
	return "/api/v1/" + w.calc.Name + "?" + w.query, nil
}

// worstCost is what one request cost the Worker's workerd process.
type worstCost struct {
	all, thread, wall time.Duration
}

// worstCPU sends each request of file to the Worker on workerd, one at a
// time, reps times, and prints, per calculator, its costliest request's
// CPU time on workerd (the least of its reps, as core/calc's
// BenchmarkServerWork takes the least of five): the Worker's process (the
// user Worker: entry.mjs, the edge layer, Go), all its threads, and the
// thread that ran the request (the isolate's, the most of the
// request's CPU: what Cloudflare's cpu_ms counts), by the scheduler's
// nanosecond counts (local.Threads), against wrangler.toml's cpu_ms; and
// the request's wall time. workerd freezes performance.now() and Date
// between I/O, so the Worker cannot time itself; the scheduler can. It
// returns an error when one is over cpu_ms or is not a 200 computed by
// Go. scale is the Worker's share of the bounds (wasm/worker's workScale),
// at which the requests were searched.
func worstCPU(ctx context.Context, root, file string, reps int, scale float64) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	reg := calc.New()
	reqs, err := readWorst(f, reg)
	if err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	wr, err := assetsdir.ReadWrangler(filepath.Join(root, "wasm", "worker", "wrangler.toml"))
	if err != nil {
		return err
	}
	cpuLimit := time.Duration(wr.Limits.CPUMS) * time.Millisecond
	w, err := local.Start(ctx, root, time.Minute)
	if err != nil {
		return err
	}
	defer w.Stop()
	pid := w.PID("worker")
	client := &http.Client{Timeout: 2 * time.Minute}
	get := func(path string, fromGo bool) (worstCost, error) {
		before, err := local.Threads(pid)
		if err != nil {
			return worstCost{}, err
		}
		start := time.Now()
		res, err := client.Get(w.URL + path)
		if err != nil {
			return worstCost{}, err
		}
		_, err = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		wall := time.Since(start)
		if err != nil {
			return worstCost{}, err
		}
		if ec := res.Header.Get("X-Edge-Cache"); res.StatusCode != 200 || (fromGo && ec != "" && ec != "miss") {
			return worstCost{}, fmt.Errorf("%.200s: %d, X-Edge-Cache %q; want a 200 computed by Go", path, res.StatusCode, res.Header.Get("X-Edge-Cache"))
		}
		after, err := local.Threads(pid)
		if err != nil {
			return worstCost{}, err
		}
		c := worstCost{wall: wall}
		for tid, d := range after {
			d -= before[tid]
			c.all += d
			c.thread = max(c.thread, d)
		}
		return c, nil
	}
	// Warm up: the first request of the isolate compiles the module and
	// starts Go; the next few run while V8 optimizes.
	for _, c := range reg.List() {
		path, err := uncachedPath(worstRequest{calc: c}) // the defaults
		if err != nil {
			return err
		}
		for range 3 {
			if _, err := get(path, false); err != nil {
				return err
			}
		}
	}
	fmt.Printf("workerd-cpu: each calculator's worst accepted request (core/calc's worstAccepted and serverProbes, %d of them), one at a time, the least of %d runs; CPU time of the Worker's workerd process by the scheduler (its busiest thread, the isolate's: what cpu_ms counts; all its threads), and the wall time\n", len(reqs), reps)
	over := false
	for _, c := range reg.List() {
		var worst worstCost
		var worstReq worstRequest
		for _, r := range reqs {
			if r.calc != c {
				continue
			}
			path, err := uncachedPath(r)
			if err != nil {
				return err
			}
			var best worstCost
			for k := range reps {
				got, err := get(path, true)
				if err != nil {
					return err
				}
				if k == 0 || got.thread < best.thread {
					best = got
				}
			}
			if best.thread >= worst.thread {
				worst, worstReq = best, r
			}
		}
		if worstReq.calc == nil {
			continue
		}
		verdict := "OK, under"
		if worst.thread > cpuLimit {
			verdict, over = "OVER", true
		}
		fmt.Printf("workerd-cpu: %-16s worst accepted %8.2f ms of CPU on workerd (all threads %8.2f ms; wall %8.2f ms), work %.0f of bound %.0f: %s the Worker's cpu_ms %d  %.100s\n",
			c.Name, ms(worst.thread), ms(worst.all), ms(worst.wall), c.Work(worstReq.args), c.ServerWork*scale, verdict, wr.Limits.CPUMS, worstReq.query)
	}
	if over {
		return fmt.Errorf("a calculator's worst accepted request is OVER the Worker's cpu_ms on workerd: lower wasm/worker's workScale")
	}
	return nil
}
