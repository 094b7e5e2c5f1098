// Package openclosed runs one server under an open population of clients
// (new requests arrive at a rate that does not depend on how the server
// answers) and under a closed one (a fixed set of clients, each waiting
// for its answer and a think time before its next request), with the
// same timeout, retries and backoff, through the same load spike. It
// follows the model of Marc Brooker's simulator
// mbrooker/simulator_example, simple_collapse_sim/sim.py
// (https://github.com/mbrooker/simulator_example), written for "Open and
// Closed, Omission and Collapse" (2023,
// https://brooker.co.za/blog/2023/05/10/open-closed.html): the server
// takes base + slope × (calls in progress) seconds per call and has no
// limit on concurrency, each message takes an exponential network delay,
// a client gives up an attempt after its timeout and retries (up to 3
// attempts there), and the backoff before retry k is uniform(0,
// base·2^k) with base 10 s. The closed population, its think time and
// its spike (more clients for the same seconds) are ours. Randomness is
// an argument (a seed).
package openclosed

import (
	"math"
	"math/rand/v2"
)

// Params are the inputs of one run.
type Params struct {
	Closed       bool
	Backoff      bool
	RatePerS     float64 // open: arrivals per second; closed: the population is sized for this rate
	PeakPerS     float64 // the rate during the spike (closed: clients scaled by PeakPerS/RatePerS)
	SpikeStartS  float64
	SpikeS       float64
	HorizonS     float64
	Attempts     int // attempts per request, first included
	TimeoutS     float64
	ServiceS     float64 // the server's time per call with nothing else in progress
	SlopeS       float64 // extra seconds per call in progress
	NetS         float64 // mean network delay of one message
	BackoffBaseS float64
	ThinkS       float64 // closed: mean think time between a client's requests
}

// Result is the outcome of one run.
type Result struct {
	Clients   int     // closed: the population before the spike (0 when open)
	Requests  int     // requests started within the horizon
	Attempts  int     // attempts sent
	Successes int     // requests answered within their timeout
	ServerS   float64 // seconds of server time spent on finished calls
	// Per one-second bin: attempts sent, successes, calls in progress at
	// the bin's end.
	AttemptsPerS []float64
	SuccessPerS  []float64
	InProgress   []int
}

const (
	kArrive = iota
	kStart  // a closed client starts a request
	kServerIn
	kServerOut
	kAnswer
	kTimeout
)

type event struct {
	t      float64
	kind   uint8
	client int32
	try    int32
}

type client struct {
	cur, used int32
	busy      bool
	extra     bool // a closed client added for the spike
	backoff   float64
}

type sim struct {
	p       Params
	r       *rand.Rand
	q       []event
	clients []client
	conc    int
	res     Result
}

// push adds e to the event heap, a binary min-heap by time (dropped past
// the horizon). Sift-up moves a hole rather than swapping: the same
// places as swaps, fewer writes.
func (s *sim) push(e event) {
	if e.t > s.p.HorizonS {
		return
	}
	s.q = append(s.q, e)
	q := s.q
	i := len(q) - 1
	for i > 0 {
		p := (i - 1) / 2
		if q[p].t <= e.t {
			break
		}
		q[i] = q[p]
		i = p
	}
	q[i] = e
}

// pop removes the earliest event. It is the classic pop (the last event
// x moved to the root and sifted down, towards the earlier child, the
// left one on a tie, while a child is strictly earlier than x) done
// bottom-up: the hole goes down that path to a leaf, then x climbs back
// while it is no later than the parent. The path's times never decrease,
// so x stops where the classic pop puts it, ties included (and with a
// NaN, where every comparison is false, at the leaf as there), in about
// half the comparisons: x, from the bottom, rarely climbs far.
func (s *sim) pop() event {
	q := s.q
	top := q[0]
	n := len(q) - 1
	x := q[n]
	q = q[:n]
	s.q = q
	if n == 0 {
		return top
	}
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && q[r].t < q[l].t {
			l = r
		}
		q[i] = q[l]
		i = l
	}
	for i > 0 {
		p := (i - 1) / 2
		if !(x.t <= q[p].t) {
			break
		}
		q[i] = q[p]
		i = p
	}
	q[i] = x
	return top
}

func (s *sim) net() float64 { return s.r.ExpFloat64() * s.p.NetS }

func (s *sim) bin(t float64) int { return min(int(t), len(s.res.AttemptsPerS)-1) }

// send sends client c's next attempt after wait seconds.
func (s *sim) send(t float64, c int32, wait float64) {
	cl := &s.clients[c]
	cl.used++
	s.res.Attempts++
	s.res.AttemptsPerS[s.bin(t+wait)]++
	s.push(event{t: t + wait + s.net(), kind: kServerIn, client: c, try: cl.cur})
	s.push(event{t: t + wait + s.p.TimeoutS, kind: kTimeout, client: c, try: cl.cur})
}

// begin starts a new request of client c.
func (s *sim) begin(t float64, c int32) {
	cl := &s.clients[c]
	cl.busy, cl.used, cl.backoff = true, 0, s.p.BackoffBaseS
	s.res.Requests++
	s.send(t, c, 0)
}

// finish ends client c's request; a closed client thinks, then starts
// another unless it was added for the spike and the spike is over.
func (s *sim) finish(t float64, c int32) {
	cl := &s.clients[c]
	cl.busy = false
	cl.cur++
	if s.p.Closed && !(cl.extra && t >= s.p.SpikeStartS+s.p.SpikeS) {
		s.push(event{t: t + s.r.ExpFloat64()*s.p.ThinkS, kind: kStart, client: c})
	}
}

func (s *sim) inSpike(t float64) bool {
	return t >= s.p.SpikeStartS && t < s.p.SpikeStartS+s.p.SpikeS
}

// ClosedClients is the closed population that, at the nominal latency
// (the server's fixed point with RatePerS calls per second and no
// timeouts), makes RatePerS requests per second.
func ClosedClients(p Params) int {
	inProgress := p.RatePerS * p.ServiceS / math.Max(1-p.RatePerS*p.SlopeS, 0.05)
	latency := p.ServiceS + p.SlopeS*inProgress + 2*p.NetS
	return max(1, int(math.Round(p.RatePerS*(p.ThinkS+latency))))
}

// Run simulates p with draws from seed.
func Run(p Params, seed uint64) Result {
	var r Runner
	return r.Run(p, seed)
}

// Runner runs simulations one after another on the same storage (the
// event heap, the clients, the random source): a run reuses what the one
// before it grew. Nothing else carries over; each Result is its own.
// The zero value is ready to use.
type Runner struct {
	q       []event
	clients []client
	pcg     rand.PCG
}

// Run simulates p with draws from seed, as the function Run does.
func (b *Runner) Run(p Params, seed uint64) Result {
	b.pcg.Seed(seed, 0x6f70656e636c6f73)
	s := &sim{p: p, r: rand.New(&b.pcg), q: b.q[:0], clients: b.clients[:0]}
	defer func() { b.q, b.clients = s.q[:0], s.clients[:0] }()
	bins := max(1, int(math.Ceil(p.HorizonS)))
	s.res.AttemptsPerS = make([]float64, bins)
	s.res.SuccessPerS = make([]float64, bins)
	s.res.InProgress = make([]int, bins)
	if p.Closed {
		k := ClosedClients(p)
		peak := max(k, int(math.Round(float64(k)*p.PeakPerS/p.RatePerS)))
		s.res.Clients = k
		s.clients = append(s.clients, make([]client, peak)...) // zeroed
		for c := range peak {
			s.clients[c].extra = c >= k
			at := s.r.ExpFloat64() * p.ThinkS
			if c >= k {
				at += p.SpikeStartS
			}
			s.push(event{t: at, kind: kStart, client: int32(c)})
		}
	} else {
		s.push(event{t: s.r.ExpFloat64() / p.RatePerS, kind: kArrive})
	}
	next := 1.0 // the end of the current bin
	for len(s.q) > 0 {
		e := s.pop()
		for e.t >= next && int(next) <= bins {
			s.res.InProgress[int(next)-1] = s.conc
			next++
		}
		t := e.t
		switch e.kind {
		case kArrive:
			s.clients = append(s.clients, client{})
			s.begin(t, int32(len(s.clients)-1))
			rate := p.RatePerS
			if s.inSpike(t) {
				rate = p.PeakPerS
			}
			s.push(event{t: t + s.r.ExpFloat64()/rate, kind: kArrive})
		case kStart:
			s.begin(t, e.client)
		case kServerIn:
			s.conc++
			s.push(event{t: t + p.ServiceS + p.SlopeS*float64(s.conc), kind: kServerOut, client: e.client, try: e.try})
			s.res.ServerS += p.ServiceS + p.SlopeS*float64(s.conc)
		case kServerOut:
			s.conc--
			s.push(event{t: t + s.net(), kind: kAnswer, client: e.client, try: e.try})
		case kAnswer:
			cl := &s.clients[e.client]
			if cl.busy && e.try == cl.cur {
				s.res.Successes++
				s.res.SuccessPerS[s.bin(t)]++
				s.finish(t, e.client)
			}
		case kTimeout:
			cl := &s.clients[e.client]
			if !cl.busy || e.try != cl.cur {
				break
			}
			if int(cl.used) >= p.Attempts {
				s.finish(t, e.client)
				break
			}
			cl.cur++
			wait := 0.0
			if p.Backoff {
				cl.backoff *= 2
				wait = s.r.Float64() * cl.backoff
			}
			s.send(t, e.client, wait)
		}
	}
	for ; int(next) <= bins; next++ {
		s.res.InProgress[int(next)-1] = s.conc
	}
	return s.res
}

// Work bounds the attempts of one run: the peak rate over the horizon,
// times the attempts of each request.
func Work(p Params) float64 { return p.PeakPerS * p.HorizonS * float64(p.Attempts) }
