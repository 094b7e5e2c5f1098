package server

import (
	"math"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// ShedConfig configures Shed. A zero field takes its default.
type ShedConfig struct {
	// Base is the path the site lives under ("/" when empty): the requests
	// under Base+"api/" compute and are limited; the pages and assets are
	// served at once, never queued behind a computation.
	Base string
	// InFlight is the most API requests computed at once. Default:
	// GOMAXPROCS-1, at least 1, so that a core stays free for the pages.
	InFlight int
	// QueueWait is how long an API request waits for a computing slot
	// before a 503. Default 100 ms; negative: no wait.
	QueueWait time.Duration
	// Rate is each client's sustained API requests per second (default 5)
	// and Burst the requests it may make at once (default 10): a token
	// bucket per client address (an IPv6 address by its /64). Past it,
	// 429 with the Retry-After the bucket computes.
	Rate  float64
	Burst int
	// MaxClients bounds the buckets kept (default 10,000); beyond, the
	// buckets that have refilled are forgotten, then any.
	MaxClients int
	// Now is the clock (default time.Now), for tests.
	Now func() time.Time
}

// DefaultInFlight is the in-flight limit Shed uses when ShedConfig's is
// zero: GOMAXPROCS-1, at least 1.
func DefaultInFlight() int { return max(1, runtime.GOMAXPROCS(0)-1) }

func (c *ShedConfig) defaults() {
	if c.Base == "" {
		c.Base = "/"
	}
	if c.InFlight <= 0 {
		c.InFlight = DefaultInFlight()
	}
	if c.QueueWait == 0 {
		c.QueueWait = 100 * time.Millisecond
	}
	if c.Rate <= 0 {
		c.Rate = 5
	}
	if c.Burst <= 0 {
		c.Burst = 10
	}
	if c.MaxClients <= 0 {
		c.MaxClients = 10000
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

type shed struct {
	next http.Handler
	cfg  ShedConfig
	slot chan struct{} // a computing request holds one

	mu      sync.Mutex
	clients map[string]*client
}

type client struct {
	lim  *rate.Limiter
	last time.Time // of the last request
}

// Shed wraps the site's handler h with load shedding for the API: a
// token bucket per client (429 past it, with Retry-After), then at most
// InFlight computations at once (a request waits up to QueueWait for a
// slot, then 503 with Retry-After). Other paths go straight to h. A
// refusal is the API's JSON error with the site's headers.
func Shed(h http.Handler, cfg ShedConfig) http.Handler {
	cfg.defaults()
	return &shed{next: h, cfg: cfg, slot: make(chan struct{}, cfg.InFlight), clients: map[string]*client{}}
}

func (s *shed) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, s.cfg.Base+"api/") {
		s.next.ServeHTTP(w, r)
		return
	}
	now := s.cfg.Now()
	res := s.limiter(clientKey(r.RemoteAddr), now).ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		s.refuse(w, r, http.StatusTooManyRequests, "rate_limited", d,
			"too many requests from your address; retry after the seconds Retry-After says")
		return
	}
	if !s.acquire(r) {
		res.CancelAt(now) // the client is not charged for the server's load
		s.refuse(w, r, http.StatusServiceUnavailable, "overloaded", time.Second,
			"the server is computing as much as it can; retry after the seconds Retry-After says")
		return
	}
	defer func() { <-s.slot }()
	s.next.ServeHTTP(w, r)
}

// acquire takes a computing slot, waiting up to QueueWait (or until the
// client goes away).
func (s *shed) acquire(r *http.Request) bool {
	select {
	case s.slot <- struct{}{}:
		return true
	default:
	}
	if s.cfg.QueueWait < 0 {
		return false
	}
	t := time.NewTimer(s.cfg.QueueWait)
	defer t.Stop()
	select {
	case s.slot <- struct{}{}:
		return true
	case <-t.C:
	case <-r.Context().Done():
	}
	return false
}

// limiter returns the bucket of client key, creating it.
func (s *shed) limiter(key string, now time.Time) *rate.Limiter {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.clients[key]; ok {
		c.last = now
		return c.lim
	}
	if len(s.clients) >= s.cfg.MaxClients {
		s.forget(now)
	}
	c := &client{lim: rate.NewLimiter(rate.Limit(s.cfg.Rate), s.cfg.Burst), last: now}
	s.clients[key] = c
	return c.lim
}

// forget drops the buckets that have refilled since their last request
// (a new bucket would be the same); if none has, one at random.
func (s *shed) forget(now time.Time) {
	full := time.Duration(float64(s.cfg.Burst) / s.cfg.Rate * float64(time.Second))
	for k, c := range s.clients {
		if now.Sub(c.last) >= full {
			delete(s.clients, k)
		}
	}
	for k := range s.clients {
		if len(s.clients) < s.cfg.MaxClients {
			break
		}
		delete(s.clients, k)
	}
}

// refuse writes a 429 or 503 with Retry-After: d in whole seconds, at
// least 1.
func (s *shed) refuse(w http.ResponseWriter, r *http.Request, status int, code string, d time.Duration, msg string) {
	securityHeaders(w)
	w.Header().Set("Retry-After", itoa(retryAfter(d)))
	writeJSONError(w, r, status, "", code, msg)
}

// retryAfter is d in whole seconds, rounded up, at least 1.
func retryAfter(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// clientKey is the bucket of a remote address: its IP, an IPv6 address
// by its /64 (one host usually holds the whole /64).
func clientKey(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil || host == "" { // "[]:" splits into an empty host: the address as it is
		host = remote
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}
