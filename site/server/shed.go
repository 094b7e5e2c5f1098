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
	// InFlight is the most heavy API requests computed at once. Default:
	// GOMAXPROCS-1, at least 1, so that a core stays free for the pages.
	InFlight int
	// CheapInFlight is the most cheap API requests computed at once, in
	// a lane of their own, so that heavy requests holding every slot of
	// InFlight do not keep cheap answers waiting. A request is cheap when
	// its declared work is at most Cheap of its calculator's ServerWork
	// (Weigh). Default: max(2, InFlight), a floor for a machine of one or
	// two cores.
	CheapInFlight int
	// Cheap is the share of a calculator's ServerWork up to which a
	// request is cheap. Default 0.1 (make bench's calibration puts
	// ServerWork at about 35 ms of CPU: a cheap request costs a few ms).
	Cheap float64
	// Weigh returns an API request's declared work as a share of its
	// calculator's ServerWork. Default: the site handler's (New) when
	// Shed wraps it, else 1 for every request (all heavy).
	Weigh func(r *http.Request) float64
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
	if c.CheapInFlight <= 0 {
		c.CheapInFlight = max(2, c.InFlight)
	}
	if !(c.Cheap > 0) {
		c.Cheap = 0.1
	}
	if c.Weigh == nil {
		c.Weigh = func(*http.Request) float64 { return 1 }
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
	next  http.Handler
	cfg   ShedConfig
	lanes [2]lane // cheap, heavy

	mu      sync.Mutex
	clients map[string]*client
	held    map[heldKey]int // slots held by a client in a lane
}

// A lane is a set of computing slots; a computing request holds one, and
// a client at most share of them.
type lane struct {
	slot  chan struct{}
	share int
}

type heldKey struct {
	lane   int
	client string
}

// share is the most slots of a lane of n one client may hold: half, at
// least one.
func share(n int) int { return max(1, n/2) }

type client struct {
	lim  *rate.Limiter
	last time.Time // of the last request
}

// Shed wraps the site's handler h with load shedding for the API: a
// token bucket per client (429 past it, with Retry-After), then two
// lanes of computing slots, CheapInFlight for cheap requests and
// InFlight for heavy ones (a request waits up to QueueWait for a slot of
// its lane, then 503 with Retry-After), of which one client holds at most
// half (429 "busy" beyond). The site's handler stops a computation whose
// client has gone, and its slot is free at once. Other paths go straight
// to h. A refusal is the API's JSON error with the site's headers.
func Shed(h http.Handler, cfg ShedConfig) http.Handler {
	if site, ok := h.(*handler); ok && cfg.Weigh == nil {
		cfg.Weigh = site.weigh
	}
	cfg.defaults()
	s := &shed{next: h, cfg: cfg, clients: map[string]*client{}, held: map[heldKey]int{}}
	for i, n := range []int{cfg.CheapInFlight, cfg.InFlight} {
		s.lanes[i] = lane{slot: make(chan struct{}, n), share: share(n)}
	}
	return s
}

func (s *shed) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, s.cfg.Base+APIRoot) {
		s.next.ServeHTTP(w, r)
		return
	}
	now := s.cfg.Now()
	key := clientKey(r.RemoteAddr)
	res := s.limiter(key, now).ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		s.refuse(w, r, http.StatusTooManyRequests, "rate_limited", d,
			"too many requests from your address; retry after the seconds Retry-After says")
		return
	}
	ln := 0
	if s.cfg.Weigh(r) > s.cfg.Cheap {
		ln = 1
	}
	if !s.hold(ln, key) {
		s.refuse(w, r, http.StatusTooManyRequests, "busy", time.Second,
			"your address already has as many computations in progress as it may; retry when one has ended")
		return
	}
	defer s.unhold(ln, key)
	if !s.acquire(r, s.lanes[ln].slot) {
		res.CancelAt(now) // the client is not charged for the server's load
		s.refuse(w, r, http.StatusServiceUnavailable, "overloaded", time.Second,
			"the server is computing as much as it can; retry after the seconds Retry-After says")
		return
	}
	defer func() { <-s.lanes[ln].slot }()
	s.next.ServeHTTP(w, r)
}

// hold counts a slot of lane ln for client key (waiting or computing),
// false if the client already holds its share.
func (s *shed) hold(ln int, key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := heldKey{ln, key}
	if s.held[k] >= s.lanes[ln].share {
		return false
	}
	s.held[k]++
	return true
}

func (s *shed) unhold(ln int, key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := heldKey{ln, key}
	if s.held[k]--; s.held[k] <= 0 {
		delete(s.held, k)
	}
}

// acquire takes a computing slot of slot, waiting up to QueueWait (or
// until the client goes away).
func (s *shed) acquire(r *http.Request, slot chan struct{}) bool {
	select {
	case slot <- struct{}{}:
		return true
	default:
	}
	if s.cfg.QueueWait < 0 {
		return false
	}
	t := time.NewTimer(s.cfg.QueueWait)
	defer t.Stop()
	select {
	case slot <- struct{}{}:
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
