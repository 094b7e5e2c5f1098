package load

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// AbuseConfig is a run of Abuse: Concurrency clients each sending the
// Heavy requests (in order, client c from the c-th of Concurrency equal
// shares of the list on, round the list) back to back for Duration, while one
// reader fetches Page every PageEvery. A client refused with a 429 or
// 503 waits as the article teaches: Retry-After is a floor, and full
// jitter above it (uniform in [Retry-After, 2 × Retry-After)), so that
// the refused clients do not all come back in the same instant. (A
// client that ignores Retry-After only gets more refusals, each a few
// microseconds of the server's time; on a small machine its loop then
// measures the load generator more than the server.)
type AbuseConfig struct {
	BaseURL     string   // http://127.0.0.1:PORT
	Heavy       []string // paths with their query: the largest requests the server accepts
	Concurrency int
	Duration    time.Duration
	Page        string        // a page's path, fetched every PageEvery
	PageEvery   time.Duration // default 100 ms
	// Bound is the most a heavy request may take to get its 200 (a 429
	// or 503 may come at any time before the run's end).
	Bound time.Duration
	// Control, if set, is the base URL of a second server like the first
	// that gets no heavy request: each time the page is fetched, it is
	// fetched from Control too, at the same moment. Its latencies are the
	// machine's own noise (other processes, the load generator, the heavy
	// requests' CPU on the other cores), which a page bound judged on a
	// shared machine must allow for; what the first server adds beyond
	// them is its own queueing.
	Control string
}

// AbuseResult is what an Abuse run saw. Errors lists everything that is
// not a 200 within Bound or a 429/503 with a Retry-After of whole
// seconds (at least 1) for the heavy requests, and not a 200 for the
// page.
type AbuseResult struct {
	OK, TooMany, Unavailable int           // heavy requests answered 200, 429, 503
	SlowestOK                time.Duration // the slowest heavy 200
	Pages                    int           // pages fetched with 200
	PageP50, PageP99         time.Duration
	PageMax                  time.Duration
	PageTimes                []time.Duration // every fetch of the page, in order
	// The same for the page from Control (zero without it).
	ControlP50, ControlP99, ControlMax time.Duration
	ControlTimes                       []time.Duration
	Errors                             int
	Failures                           []string // the first few errors
}

func (r AbuseResult) String() string {
	ms := func(d time.Duration) string {
		return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + "ms"
	}
	control := ""
	if len(r.ControlTimes) > 0 {
		control = fmt.Sprintf("; control page: p50 %s, p99 %s, max %s", ms(r.ControlP50), ms(r.ControlP99), ms(r.ControlMax))
	}
	return fmt.Sprintf("heavy: %d × 200 (slowest %s), %d × 429, %d × 503; page: %d fetched, p50 %s, p99 %s, max %s%s; %d errors %v",
		r.OK, ms(r.SlowestOK), r.TooMany, r.Unavailable, r.Pages, ms(r.PageP50), ms(r.PageP99), ms(r.PageMax), control, r.Errors, r.Failures)
}

// Abuse runs cfg. It returns once Duration has passed and every request
// sent has its answer (each request is bounded by Duration + Bound).
func Abuse(ctx context.Context, cfg AbuseConfig) (AbuseResult, error) {
	if (len(cfg.Heavy) == 0) != (cfg.Concurrency <= 0) || cfg.Duration <= 0 || cfg.Bound <= 0 || cfg.Page == "" {
		return AbuseResult{}, fmt.Errorf("load: Abuse needs heavy requests and a concurrency (or neither: the page alone), a duration, a bound and a page")
	}
	if cfg.PageEvery <= 0 {
		cfg.PageEvery = 100 * time.Millisecond
	}
	end := time.Now().Add(cfg.Duration)
	rctx, cancel := context.WithDeadline(ctx, end.Add(cfg.Bound+time.Second))
	defer cancel()
	endCtx, cancelEnd := context.WithDeadline(rctx, end) // a refused client waits no later than the end
	defer cancelEnd()
	tr := &http.Transport{MaxIdleConnsPerHost: cfg.Concurrency + 1, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var (
		mu       sync.Mutex
		res      AbuseResult
		pages    []time.Duration
		controls []time.Duration
		wg       sync.WaitGroup
	)
	var getFrom func(base, path string) (int, http.Header, time.Duration, error)
	fail := func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		res.Errors++
		if len(res.Failures) < 5 {
			res.Failures = append(res.Failures, msg)
		}
	}
	get := func(path string) (int, http.Header, time.Duration, error) {
		return getFrom(cfg.BaseURL, path)
	}
	getFrom = func(base, path string) (int, http.Header, time.Duration, error) {
		t0 := time.Now()
		req, _ := http.NewRequestWithContext(rctx, "GET", base+path, nil)
		r, err := client.Do(req)
		if err != nil {
			return 0, nil, 0, err
		}
		_, err = io.Copy(io.Discard, r.Body)
		r.Body.Close()
		return r.StatusCode, r.Header, time.Since(t0), err
	}
	for c := 0; c < cfg.Concurrency; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Client c starts at its share of Heavy, so that with more
			// paths than the clients send (distinct questions, which no
			// cache answers) no two clients send the same one.
			for i := c * len(cfg.Heavy) / cfg.Concurrency; time.Now().Before(end); i++ {
				path := cfg.Heavy[i%len(cfg.Heavy)]
				status, hdr, d, err := get(path)
				if err != nil {
					fail(fmt.Sprintf("%.60s: %v", path, err))
					return
				}
				switch status {
				case http.StatusOK:
					mu.Lock()
					res.OK++
					res.SlowestOK = max(res.SlowestOK, d)
					mu.Unlock()
					if d > cfg.Bound {
						fail(fmt.Sprintf("%.60s: 200 after %v, more than %v", path, d, cfg.Bound))
					}
				case http.StatusTooManyRequests, http.StatusServiceUnavailable:
					n, err := strconv.Atoi(hdr.Get("Retry-After"))
					if err != nil || n < 1 {
						fail(fmt.Sprintf("%.60s: %d with Retry-After %q", path, status, hdr.Get("Retry-After")))
						continue
					}
					mu.Lock()
					if status == http.StatusTooManyRequests {
						res.TooMany++
					} else {
						res.Unavailable++
					}
					mu.Unlock()
					ra := time.Duration(n) * time.Second
					wait := time.NewTimer(ra + rand.N(ra))
					select {
					case <-wait.C:
					case <-endCtx.Done():
					}
					wait.Stop()
				default:
					fail(fmt.Sprintf("%.60s: status %d", path, status))
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(cfg.PageEvery)
		defer tick.Stop()
		for time.Now().Before(end) {
			var control sync.WaitGroup
			if cfg.Control != "" {
				control.Add(1)
				go func() {
					defer control.Done()
					status, _, d, err := getFrom(cfg.Control, cfg.Page)
					if err != nil || status != http.StatusOK {
						fail(fmt.Sprintf("control page %s: %d %v", cfg.Page, status, err))
						return
					}
					mu.Lock()
					controls = append(controls, d)
					mu.Unlock()
				}()
			}
			status, _, d, err := get(cfg.Page)
			if err != nil || status != http.StatusOK {
				fail(fmt.Sprintf("page %s: %d %v", cfg.Page, status, err))
			} else {
				mu.Lock()
				pages = append(pages, d)
				mu.Unlock()
			}
			control.Wait()
			select {
			case <-tick.C:
			case <-rctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	res.PageTimes, res.ControlTimes = slices.Clone(pages), slices.Clone(controls)
	res.Pages = len(pages)
	res.PageP50, res.PageP99, res.PageMax = spread(pages)
	res.ControlP50, res.ControlP99, res.ControlMax = spread(controls)
	return res, ctx.Err()
}

// spread sorts ds and returns its p50, p99 and maximum (zero when empty).
func spread(ds []time.Duration) (p50, p99, maxd time.Duration) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	slices.Sort(ds)
	p50, p99 = percentiles(ds)
	return p50, p99, ds[len(ds)-1]
}

// Behind counts the ticks at which the page took more than d longer than
// the control's page fetched at the same moment (PageTimes[i] against
// ControlTimes[i]; ticks that lack either are not counted). A page that
// waits behind the computations is behind at most ticks; the machine's
// own stalls, which hit either server now and then, at a few.
func (r AbuseResult) Behind(d time.Duration) int {
	n := 0
	for i := range min(len(r.PageTimes), len(r.ControlTimes)) {
		if r.PageTimes[i]-r.ControlTimes[i] > d {
			n++
		}
	}
	return n
}
