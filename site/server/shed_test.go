package server

import (
	"net/http"
	"net/http/httptest"
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
	start := time.Now()
	w := shedDo(h, "/api/v1/attempts", "192.0.2.1:1")
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("slots full: %d, Retry-After %q; want 503, 1", w.Code, w.Header().Get("Retry-After"))
	}
	if waited := time.Since(start); waited < 20*time.Millisecond {
		t.Errorf("503 after %v, before QueueWait", waited)
	}
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
