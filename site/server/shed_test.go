package server

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func shedDo(h http.Handler, target, remote string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("GET", target, nil)
	r.RemoteAddr = remote
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestShedRate: each client has its own bucket; past it a 429 with the
// Retry-After the bucket computes, and the site's headers; pages are
// never limited.
func TestShedRate(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1e9, 0)}
	h := Shed(New(Config{Dist: testDist()}), ShedConfig{Rate: 0.25, Burst: 2, Now: clk.now})
	a, b := "192.0.2.1:1000", "192.0.2.2:1000"
	for i := 0; i < 2; i++ {
		if w := shedDo(h, "/api/v1/attempts", a); w.Code != 200 {
			t.Fatalf("request %d: %d", i, w.Code)
		}
	}
	w := shedDo(h, "/api/v1/attempts", a)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "4" {
		t.Fatalf("past the burst: %d, Retry-After %q; want 429, 4 (one token at 0.25/s)", w.Code, w.Header().Get("Retry-After"))
	}
	checkSecurity(t, w, "429")
	if w.Header().Get("Content-Type") != "application/json" || w.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("429 headers %v", w.Header())
	}
	if w := shedDo(h, "/api/v1/attempts", b); w.Code != 200 {
		t.Errorf("another client: %d", w.Code)
	}
	for i := 0; i < 20; i++ {
		if w := shedDo(h, "/it/", a); w.Code != 200 {
			t.Fatalf("page %d: %d", i, w.Code)
		}
	}
	clk.add(3 * time.Second)
	if w := shedDo(h, "/api/v1/attempts", a); w.Code != 429 || w.Header().Get("Retry-After") != "1" {
		t.Errorf("after 3 s: %d, Retry-After %q; want 429, 1", w.Code, w.Header().Get("Retry-After"))
	}
	clk.add(time.Second)
	if w := shedDo(h, "/api/v1/attempts", a); w.Code != 200 {
		t.Errorf("after 4 s: %d", w.Code)
	}
}

// TestShedInFlight: with every computing slot taken, an API request
// waits QueueWait and gets a 503 with Retry-After, and its token is given
// back; a page is served at once meanwhile.
func TestShedInFlight(t *testing.T) {
	release, entered := make(chan struct{}), make(chan struct{}, 1)
	site := New(Config{Dist: testDist()})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/slow" {
			entered <- struct{}{}
			<-release
		}
		site.ServeHTTP(w, r)
	})
	clk := &fakeClock{t: time.Unix(1e9, 0)}
	h := Shed(slow, ShedConfig{InFlight: 1, QueueWait: 20 * time.Millisecond, Rate: 1, Burst: 2, Now: clk.now})
	done := make(chan int)
	go func() { done <- shedDo(h, "/api/v1/slow", "192.0.2.9:1").Code }()
	<-entered
	w := shedDo(h, "/api/v1/attempts", "192.0.2.1:1")
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("slots full: %d, Retry-After %q; want 503, 1", w.Code, w.Header().Get("Retry-After"))
	}
	// That the 503 waited QueueWait is TestShedQueueWait's (an order of
	// events, not a time).
	checkSecurity(t, w, "503")
	if w := shedDo(h, "/it/", "192.0.2.1:1"); w.Code != 200 {
		t.Errorf("page while the slot is held: %d", w.Code)
	}
	close(release)
	if code := <-done; code != 404 {
		t.Errorf("slow request: %d", code)
	}
	// The 503 did not spend 192.0.2.1's tokens: two requests still pass.
	for i := 0; i < 2; i++ {
		if w := shedDo(h, "/api/v1/attempts", "192.0.2.1:1"); w.Code != 200 {
			t.Errorf("after the 503, request %d: %d", i, w.Code)
		}
	}
}

// TestShedQueueWait: a request that finds every slot taken waits for
// one: released while it waits, the slot is its own (200); with no wait
// (negative QueueWait), 503 at once. Checked by the order of events, not
// by the time waited.
func TestShedQueueWait(t *testing.T) {
	for _, tt := range []struct {
		wait time.Duration
		want int
	}{{time.Minute, 404}, {-1, 503}} {
		release, entered := make(chan struct{}), make(chan struct{}, 1)
		site := New(Config{Dist: testDist()})
		slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/v1/slow" {
				entered <- struct{}{}
				<-release
			}
			site.ServeHTTP(w, r)
		})
		h := Shed(slow, ShedConfig{InFlight: 1, QueueWait: tt.wait})
		done := make(chan int)
		go func() { done <- shedDo(h, "/api/v1/slow", "192.0.2.9:1").Code }()
		<-entered
		second := make(chan int)
		// the second request is queued (a minute) or refused (no wait);
		// the first is released only after the second has been answered
		// or has had the time to queue: a queued request is still waiting
		// when the slot frees, whatever the machine's speed
		go func() { second <- shedDo(h, "/api/v1/unknown", "192.0.2.1:1").Code }()
		if tt.wait < 0 {
			if code := <-second; code != tt.want {
				t.Errorf("QueueWait %v: %d, want %d", tt.wait, code, tt.want)
			}
			close(release)
			<-done
			continue
		}
		for len(h.(*shed).lanes[1].slot) == 1 && queued(h.(*shed)) == 0 {
			runtime.Gosched()
		}
		close(release)
		<-done
		if code := <-second; code != tt.want {
			t.Errorf("QueueWait %v: %d, want %d (the slot freed while it waited)", tt.wait, code, tt.want)
		}
	}
}

// queued returns the slots held or awaited in s's lanes (hold counts a
// request from before it waits).
func queued(s *shed) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, v := range s.held {
		n += v
	}
	return n - len(s.lanes[1].slot) - len(s.lanes[0].slot)
}

// TestShedLanes: with the heavy lane full (InFlight 1), a cheap request
// by declared work is answered at once while a heavy one is refused; one
// client holds at most its share of a lane (half, at least one).
func TestShedLanes(t *testing.T) {
	release, entered := make(chan struct{}), make(chan struct{}, 4)
	site := New(Config{Dist: testDist()}).(*handler)
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("hold") != "" {
			entered <- struct{}{}
			<-release
			return
		}
		site.ServeHTTP(w, r)
	})
	weigh := func(r *http.Request) float64 {
		q := r.URL.Query()
		q.Del("hold")
		r2 := r.Clone(r.Context())
		r2.URL.RawQuery = q.Encode()
		return site.weigh(r2)
	}
	h := Shed(slow, ShedConfig{InFlight: 1, CheapInFlight: 4, QueueWait: -1, Rate: 100, Burst: 100, Weigh: weigh})
	heavy := "/api/v1/policies?rate_per_s=500&horizon_s=60" // about half of ServerWork
	if wt := weigh(httptest.NewRequest("GET", heavy, nil)); !(wt > 0.1 && wt <= 1) {
		t.Fatalf("%s weighs %g of ServerWork, want a heavy request the server accepts", heavy, wt)
	}
	done := make(chan int, 8)
	go func() { done <- shedDo(h, heavy+"&hold=1", "192.0.2.9:1").Code }()
	<-entered
	if w := shedDo(h, heavy, "192.0.2.1:1"); w.Code != 503 {
		t.Errorf("heavy with the heavy lane full: %d, want 503", w.Code)
	}
	if w := shedDo(h, "/api/v1/jitter", "192.0.2.1:1"); w.Code != 200 {
		t.Errorf("cheap (jitter's defaults) with the heavy lane full: %d, want 200", w.Code)
	}
	// 192.0.2.9 takes its share of the cheap lane (2 of 4), then is busy
	for range 2 {
		go func() { done <- shedDo(h, "/api/v1/attempts?hold=1", "192.0.2.9:2").Code }()
		<-entered
	}
	w := shedDo(h, "/api/v1/attempts", "192.0.2.9:3")
	if w.Code != 429 || !strings.Contains(w.Body.String(), `"busy"`) || w.Header().Get("Retry-After") != "1" {
		t.Errorf("past its share: %d %s", w.Code, w.Body.String())
	}
	if w := shedDo(h, "/api/v1/attempts", "192.0.2.1:1"); w.Code != 200 {
		t.Errorf("another client meanwhile: %d", w.Code)
	}
	close(release)
	for range 3 {
		<-done
	}
	if w := shedDo(h, "/api/v1/attempts", "192.0.2.9:3"); w.Code != 200 {
		t.Errorf("after its computations ended: %d", w.Code)
	}
}

// TestShedForget: the buckets kept stay within MaxClients; a forgotten
// bucket that had refilled is the same as a new one.
func TestShedForget(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1e9, 0)}
	h := Shed(New(Config{Dist: testDist()}), ShedConfig{Rate: 1, Burst: 1, MaxClients: 3, Now: clk.now}).(*shed)
	for i := 0; i < 50; i++ {
		shedDo(h, "/api/v1/attempts", "198.51.100."+strconv.Itoa(i)+":1")
		if len(h.clients) > 3 {
			t.Fatalf("%d buckets after %d clients", len(h.clients), i+1)
		}
	}
}

func TestClientKey(t *testing.T) {
	tests := map[string]string{
		"192.0.2.1:80":             "192.0.2.1",
		"[::ffff:192.0.2.1]:80":    "192.0.2.1",
		"[2001:db8:1:2:3:4:5:6]:1": "2001:db8:1:2::/64",
		"[2001:db8:1:2::9]:1":      "2001:db8:1:2::/64",
		"[2001:db8:1:3::9]:1":      "2001:db8:1:3::/64",
		"pipe":                     "pipe",
		"[]:":                      "[]:",
	}
	for in, want := range tests {
		if got := clientKey(in); got != want {
			t.Errorf("clientKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	for d, want := range map[time.Duration]int{0: 1, time.Millisecond: 1, time.Second: 1, 1001 * time.Millisecond: 2, 4 * time.Second: 4} {
		if got := retryAfter(d); got != want {
			t.Errorf("retryAfter(%v) = %d, want %d", d, got, want)
		}
	}
}

// FuzzClientKey: any remote address gives a non-empty key for a
// non-empty address, and one IPv6 /64 gives one key.
func FuzzClientKey(f *testing.F) {
	for _, s := range []string{"192.0.2.1:80", "[2001:db8::1]:1", "[fe80::1%eth0]:1", "x", ":1", "[::]:0", "[]:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, remote string) {
		k := clientKey(remote)
		if remote != "" && k == "" && !strings.HasPrefix(remote, ":") {
			t.Fatalf("clientKey(%q) is empty", remote)
		}
	})
}
