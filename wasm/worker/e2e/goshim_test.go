//go:build e2e

package e2e

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"retrylab/site/server"
)

// TestGoInterleaved: one Go instance serves the isolate (wasm/worker/goshim),
// so requests meet inside it. 8 at a time, requests whose Go code waits on
// JavaScript (a 404 page, read through the ASSETS binding; a chart's
// strings on first use) and requests that compute: each answer is the
// native server's, and workerd logs no request that lost its context or
// its Go instance.
func TestGoInterleaved(t *testing.T) {
	langs := server.ChartLangs()
	var paths []string
	for i := range 240 {
		switch i % 3 {
		case 0:
			paths = append(paths, fmt.Sprintf("/no-such-page-%d/", i))
		case 1:
			paths = append(paths, fmt.Sprintf("/api/v1/attempts?n=6&q=0.%06d", 100000+i))
		case 2: // a seed is a big integer: the edge layer leaves it to Go
			paths = append(paths, fmt.Sprintf("/api/v1/jitter.svg?lang=%s&seed=%d", langs[i%len(langs)], 7000+i))
		}
	}
	want := make([]answer, len(paths))
	for i, p := range paths {
		want[i] = do(t, "GET", native.URL+p)
	}
	logBefore := len(worker.Log())
	got := make([]answer, len(paths))
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				got[i], errs[i] = fetch(worker.URL + paths[i])
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, p := range paths {
		if errs[i] != nil {
			t.Errorf("GET %s: %v", p, errs[i])
			continue
		}
		same(t, p, got[i], want[i])
	}
	log := worker.Log()[logBefore:]
	t.Logf("workerd logged %d bytes meanwhile", len(log))
	for _, bad := range []string{"different request", "Cannot perform I/O", "exited with code", "Uncaught", "never generate a response"} {
		if strings.Contains(log, bad) {
			t.Errorf("workerd's log says %q:\n%s", bad, log)
			break
		}
	}
}

// fetch is do for a goroutine: it returns its error.
func fetch(url string) (answer, error) {
	res, err := client.Get(url)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return answer{res.StatusCode, res.Header, b}, err
}
