// Package policies is a seeded discrete-event simulation of one service on
// its worst day, under the retry policies of real systems: no retries,
// naive retries, exponential backoff with full jitter, gRPC's retry
// throttling, Envoy's retry budget, Finagle's RetryBudget, the AWS SDKs'
// retry quota and the Google SRE book's retry budgets and adaptive
// throttling (rules.go cites where each rule and default comes from).
//
// The service has Slots workers and a FIFO queue of at most QueueCap
// calls; a call takes an exponential service time of mean ServiceMS. A
// call that finds the queue full fails fast. A client waits TimeoutMS for
// each attempt and then gives up; the server does not know, and works on
// the abandoned call anyway when its turn comes: that is wasted work.
// During the trigger window, the service times are TriggerFactor times
// longer (Latency) or only Slots/TriggerFactor workers take new calls
// (Capacity). Clients are open loop (new requests arrive as a Poisson
// process of RatePerS, whatever the answers) or closed loop (Clients
// users, each sending a request, waiting for its final outcome, then
// thinking for an exponential time of mean ThinkMS).
//
// After the trigger ends, a service whose clients do not retry drains its
// queue and comes back. With naive retries, the timeouts the trigger
// caused produce retries, the retries keep the queue long enough to time
// out again, and goodput stays near zero long after the trigger is gone:
// a metastable failure (Bronson et al., HotOS 2021). A retry budget cuts
// the feedback.
//
// Every policy treats an attempt that timed out like any retryable
// failure. That fits Envoy (per_try_timeout), Finagle and the AWS SDKs; in
// gRPC a deadline ends the whole call, so the gRPC policy here stands for a
// client whose attempts fail with a retryable status (UNAVAILABLE) when the
// server is too slow. One client process holds each budget; the server
// never cancels abandoned work.
//
// Time is int64 simulated nanoseconds, no clock. Randomness comes from
// math/rand/v2 PCG streams derived from the seed given to Run (one for
// arrivals and think times, one for service times, one for the policies'
// own draws), so every policy sees the same arrivals, and a seed gives one
// result on amd64 and in the browser's WebAssembly. The package imports
// neither time nor fmt.
package policies

import (
	"math"
	"math/rand/v2"
	"strconv"

	"retrylab/core/meter"
	"strings"
)

const (
	ms  = int64(1_000_000)
	sec = int64(1_000_000_000)
)

// Loop is how clients generate requests.
type Loop string

const (
	Open   Loop = "open"   // Poisson arrivals at RatePerS, independent of answers
	Closed Loop = "closed" // Clients users who wait for each answer, then think
)

// Trigger is what goes wrong during the trigger window.
type Trigger string

const (
	Latency  Trigger = "latency"  // service times × TriggerFactor
	Capacity Trigger = "capacity" // only ceil(Slots / TriggerFactor) workers take new calls
)

// Scenario is one outage. Validate lists the ranges.
type Scenario struct {
	Loop     Loop
	RatePerS float64 // open loop: new requests per second, > 0
	Clients  int     // closed loop: users, >= 1
	ThinkMS  float64 // closed loop: mean think time, ms, >= 0.001 (a user refused at once comes back later, not at the same instant forever)

	Slots     int     // calls served at once, >= 1
	ServiceMS float64 // mean (exponential) service time of a call, ms, > 0
	QueueCap  int     // calls waiting for a worker at most, >= 0; beyond, fail fast
	TimeoutMS float64 // per-attempt client timeout, ms, > 0

	Trigger       Trigger
	TriggerStartS float64 // s; at least 2 bins after 0
	TriggerS      float64 // s, > 0; the trigger ends at least 2 bins before HorizonS
	TriggerFactor float64 // >= 1

	HorizonS float64 // new requests start in [0, HorizonS), s
	BinS     float64 // width of a bin of the series, s
	Attempts int     // attempts per request of naive and backoff, first included, in [1, 10]
}

// Default is the calculator's scenario: about 70% utilization (140
// requests/s on 20 workers of 100 ms), a 1 s timeout, service times three
// times longer for 5 s from t = 120 s, 300 s in all; naive and backoff make
// 3 attempts. The 120 s before the trigger are a warm-up of healthy
// traffic, as long as the longest window of any preset (the SRE book's two
// minutes), so that no budget starts the outage with an empty window; the
// 175 s after the trigger are enough for every verdict at the defaults to
// be the same at three times the horizon (TestClaimsHold).
func Default() Scenario {
	return Scenario{
		Loop: Open, RatePerS: 140, Clients: 160, ThinkMS: 1000,
		Slots: 20, ServiceMS: 100, QueueCap: 1000, TimeoutMS: 1000,
		Trigger: Latency, TriggerStartS: WarmupS, TriggerS: 5, TriggerFactor: 3,
		HorizonS: 300, BinS: 5, Attempts: 3,
	}
}

// WarmupS is the default healthy time before the trigger: the longest
// window of the presets (SRELimits' 120 s).
const WarmupS = 120

// FieldError is a Scenario field out of range.
type FieldError struct {
	Field string // the Scenario field
	Msg   string
}

func (e *FieldError) Error() string { return "policies: " + e.Field + " " + e.Msg }

// MaxBins bounds HorizonS / BinS.
const MaxBins = 2000

// Validate reports the first field out of range as a *FieldError.
func (s Scenario) Validate() error {
	bad := func(f, msg string) error { return &FieldError{f, msg} }
	ok := func(v, lo, hi float64) bool { return v >= lo && v <= hi } // false for NaN
	switch {
	case s.Loop != Open && s.Loop != Closed:
		return bad("Loop", "must be open or closed")
	case s.Loop == Open && !ok(s.RatePerS, 1e-9, 1e6):
		return bad("RatePerS", "must be in (0, 1e6]")
	case s.Loop == Closed && (s.Clients < 1 || s.Clients > 1e6):
		return bad("Clients", "must be in [1, 1e6]")
	case s.Loop == Closed && !ok(s.ThinkMS, 1e-3, 3.6e6):
		return bad("ThinkMS", "must be in [0.001, 3.6e6]")
	case s.Slots < 1 || s.Slots > 100000:
		return bad("Slots", "must be in [1, 100000]")
	case !ok(s.ServiceMS, 1e-3, 3.6e6):
		return bad("ServiceMS", "must be in [0.001, 3.6e6]")
	case s.QueueCap < 0 || s.QueueCap > 1e7:
		return bad("QueueCap", "must be in [0, 1e7]")
	case !ok(s.TimeoutMS, 1e-3, 3.6e6):
		return bad("TimeoutMS", "must be in [0.001, 3.6e6]")
	case s.Trigger != Latency && s.Trigger != Capacity:
		return bad("Trigger", "must be latency or capacity")
	case !ok(s.TriggerFactor, 1, 1000):
		return bad("TriggerFactor", "must be in [1, 1000]")
	case !ok(s.HorizonS, 1e-3, 86400):
		return bad("HorizonS", "must be in (0, 86400]")
	case !ok(s.BinS, 1e-3, s.HorizonS) || s.HorizonS/s.BinS > MaxBins:
		return bad("BinS", "must be in (0, HorizonS] with at most "+strconv.Itoa(MaxBins)+" bins")
	case !ok(s.TriggerStartS, 2*s.BinS, s.HorizonS):
		return bad("TriggerStartS", "must leave two bins before the trigger")
	case !ok(s.TriggerS, 1e-3, s.HorizonS) || s.TriggerStartS+s.TriggerS > s.HorizonS-2*s.BinS:
		return bad("TriggerS", "must end the trigger two bins before the horizon")
	case s.Attempts < 1 || s.Attempts > 10:
		return bad("Attempts", "must be in [1, 10]")
	}
	return nil
}

// Result is one policy's run.
type Result struct {
	Policy        Policy
	Requests      int // new requests (originals)
	Attempts      int // attempts sent to the server (originals and retries)
	Retries       int // retries sent
	Succeeded     int // requests that got an answer in time
	TimedOut      int // attempts the client gave up on
	Rejected      int // attempts that found the queue full (fail fast)
	Throttled     int // attempts refused by the client itself (adaptive throttling)
	RetriesDenied int // retries a budget refused
	BusyS         float64
	WastedS       float64 // server time on calls whose client had given up, s
	// Before is the share of requests arriving before the trigger that
	// succeeded (bins from the second to the trigger's start).
	Before    float64
	Recovered bool
	// Draining: not recovered, but the queue at the end is well below
	// its level a tenth of the horizon earlier (under 80 %): the service
	// is still coming back when the run stops, and a longer horizon may
	// see it recover.
	Draining bool
	// RecoveryS is the time from the end of the trigger to the start of
	// the first bin from which every bin's success share stays within 5%
	// of Before (valid when Recovered).
	RecoveryS float64
	// Per bin of BinS from 0: attempts sent and retries sent per second,
	// answers in time per second (goodput), calls queued at the bin's end,
	// and the share of the requests arriving in the bin that succeeded (-1
	// for a bin without arrivals).
	Offered, RetryRate, Goodput, Share []float64
	Queue                              []int
}

// event kinds
const (
	evSend     = iota // an attempt of request req is sent
	evAnswer          // req's current attempt is answered in time
	evArrive          // closed loop: a client sends a new request
	evDeadline        // req's deadline (Preset.Deadline) ends its current attempt
	evHedge           // req's hedging delay has passed: send the next copy
)

type event struct {
	t    int64
	req  int32
	kind uint8
}

// events is a 4-ary min-heap ordered by time. Equal times come out in an
// order fixed by the sequence of pushes and pops, the same on every run;
// the results depend on that order, so pop, which unrolls the comparison
// of four children (in WebAssembly every taken branch and loop turn goes
// through the function's br_table), moves exactly the events of the plain
// loop (TestEventsPopSameAsRef). top is h[0].t, or math.MaxInt64 when h
// is empty, so that run reads it without a branch: an empty events needs
// top set to math.MaxInt64.
type events struct {
	h   []event
	top int64
}

func (q *events) push(e event) {
	q.h = append(q.h, e)
	h := q.h
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if h[p].t <= e.t {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
	if i == 0 {
		q.top = e.t
	}
}

func (q *events) pop() event {
	h := q.h
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	q.h = h
	i := 0
	for {
		c := 4*i + 1
		if c+3 >= n {
			break
		}
		// Four children: the first of the earliest, without a branch:
		// the first of the earlier pair's earliest.
		x := c + lt(h[c+1].t, h[c].t)
		y := c + 2 + lt(h[c+3].t, h[c+2].t)
		m := x + (y-x)*lt(h[y].t, h[x].t)
		mt := h[m].t
		if mt >= last.t {
			h[i] = last
			q.top = h[0].t
			return top
		}
		h[i] = h[m]
		i = m
	}
	// Fewer than four children.
	if c := 4*i + 1; c < n {
		m := c
		for j := c + 1; j < n; j++ {
			if h[j].t < h[m].t {
				m = j
			}
		}
		if h[m].t < last.t {
			h[i] = h[m]
			i = m
		}
	}
	q.top = math.MaxInt64
	if n > 0 {
		h[i] = last
		q.top = h[0].t
	}
	return top
}

// fifo holds the timeouts: each is its attempt's send time plus the same
// timeout, and attempts are sent in time order, so they come due in the
// order they were scheduled, without a heap. Its ring's length is a power
// of two (64, then doubled).
type fifo struct {
	ring       []timeout
	head, size int
	top        int64 // ring[head].t, or math.MaxInt64 when empty
}

type timeout struct {
	t   int64 // ns
	req int32
}

func (f *fifo) push(t int64, req int32) {
	if f.size == len(f.ring) {
		f.grow()
	}
	if f.size == 0 {
		f.top = t
	}
	f.ring[(f.head+f.size)&(len(f.ring)-1)] = timeout{t, req}
	f.size++
}

// grow doubles the ring, its times first.
func (f *fifo) grow() {
	grown := make([]timeout, max(64, 2*len(f.ring)))
	for i := 0; i < f.size; i++ {
		grown[i] = f.ring[(f.head+i)&(len(f.ring)-1)]
	}
	f.ring, f.head = grown, 0
}

func (f *fifo) pop() timeout {
	e := f.ring[f.head]
	f.head = (f.head + 1) & (len(f.ring) - 1)
	f.size--
	f.top = math.MaxInt64
	if f.size > 0 {
		f.top = f.ring[f.head].t
	}
	return e
}

// slotHeap holds the times at which workers become free (min-heap). The
// workers are alike: only the times matter, not where they sit.
type slotHeap []int64

// replaceMin puts v, at least h[0], in the place of h[0]: v goes down,
// each level's earlier child (the left one on a tie) going up, the child
// found without a branch (lt), as where it sits is data a branch
// predictor cannot guess (TestSlotHeapReplaceMin).
func (h slotHeap) replaceMin(v int64) {
	n, i := len(h), 0
	for l := 1; l < n; l = 2*i + 1 {
		m := l + lt(h[min(l+1, n-1)], h[l]) // one child: compared with itself
		if h[m] >= v {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = v
}

// lt returns 1 if a < b, else 0, for a and b in [0, 2^63) (times in ns,
// whose difference cannot overflow), without a branch: the sign bit of
// a-b.
func lt(a, b int64) int { return int(uint64(a-b) >> 63) }

// request is one original request's state: 32 bytes, in a slice of
// every request (TestRequestFits: the narrow fields hold every preset's
// attempts).
type request struct {
	prev     int64 // the last pause before a retry, ns
	deadline int64 // Preset.Deadline: the end of the request's time, ns
	client   int32 // closed loop: the user; -1 for open loop
	token    int32 // what the policy's retry returned for the current attempt
	bin      int16 // the bin of its arrival (< MaxBins), -1 past the horizon
	attempts int16 // attempts made (sent or refused), at most the rule's max
	// limit is the retries allowed (Finagle's requeues), set by the first
	// attempt, at most math.MaxInt16 (more than any rule's attempts).
	limit int16
	live  uint8 // hedging: copies sent and not yet answered or given up
	over  bool  // hedging: the request has ended (an answer, or the deadline)
}

type sim struct {
	s    Scenario
	pol  Policy
	rule rule
	arr  *arrStream // arrivals and think times
	svc  *svcStream // service times
	pr   *rand.Rand // the policy's draws

	arrN, svcN int // the times of arr and svc read

	q           events
	timeouts    fifo
	maxAttempts int // the rule's max
	// quiet: the rule ignores outcomes, and a success needs no event: it
	// is counted when the call is placed. In closed loop the user's think
	// time is then drawn at that moment, not when the answer comes, which
	// changes the order of the draws: sre-budget keeps its events there,
	// its results being those drawn in the order of the answers.
	quiet       bool
	admitsAll   bool  // the rule's send admits every attempt and counts none
	budgeted    bool  // the rule's retry may refuse (else it admits every retry, token 0)
	pauses      bool  // the rule's wait may be > 0
	retryTO     bool  // timeouts may be retried
	deadlines   bool  // the timeout covers the whole request
	perReq      bool  // the rule caps each request's retries (request.limit)
	hedge       int64 // Preset.HedgeDelayMS in ns; 0: no hedging
	reqs        []request
	normal      slotHeap // workers always available
	blocked     slotHeap // workers idle during a capacity trigger
	starts      []int64  // start times of queued calls, FIFO ring (64, then doubled)
	head, count int      // starts[head] is the earliest of count; some may have started (queued)

	trigA, trigB, horizon, timeout, bin int64
	binAt                               int     // binOf's last bin, [binLo, binHi) (empty at first)
	binLo, binHi                        int64   // ns
	slowA, slowB                        int64   // latency trigger: service times longer in [slowA, slowB) (else empty)
	svcMean, slowMean                   float64 // ServiceMS in ns, and × TriggerFactor
	meanGap                             float64 // open loop: 1 / RatePerS, ns
	res                                 Result
	busy, wasted                        int64 // server ns
	offered, retried, good              []int
	arrived, succ                       []int
	sampled                             int   // queue samples taken
	sampleAt                            int64 // the end of bin sampled: sample when time reaches it
	meter                               *meter.Meter
	halt                                bool // meter said stop

	tr *tracer // RunTraced's recorder, nil otherwise
}

// Run simulates policy p on scenario s with the given seed.
func Run(s Scenario, p Policy, seed uint64) (Result, error) {
	rs, err := RunAll(s, []Policy{p}, seed)
	if err != nil {
		return Result{}, err
	}
	return rs[0], nil
}

// RunAll simulates each of ps on scenario s with the given seed: the
// results of Run, one by one, but the arrivals and the service times, the
// same for every policy, are drawn once, and one policy's working memory
// serves the next.
func RunAll(s Scenario, ps []Policy, seed uint64) ([]Result, error) {
	return RunAllMeter(s, ps, seed, nil)
}

// RunAllMeter is RunAll with a meter, told of every attempt (sent,
// refused or throttled): when it says stop, the run ends at once with
// meter.ErrStopped.
func RunAllMeter(s Scenario, ps []Policy, seed uint64, mt *meter.Meter) ([]Result, error) {
	return runAll(s, ps, seed, mt, nil)
}

// runAll is RunAllMeter; with tg (RunTraced) it records each policy's
// trace in tg.traces.
func runAll(s Scenario, ps []Policy, seed uint64, mt *meter.Meter, tg *tracing) ([]Result, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	presets := make([]Preset, len(ps))
	for i, p := range ps {
		q, ok := Find(p)
		if !ok {
			var names []string
			for _, n := range All() {
				names = append(names, string(n))
			}
			return nil, &FieldError{"Policy", "must be one of " + strings.Join(names, ", ")}
		}
		presets[i] = q
	}
	keep := len(ps) > 1
	arr := &arrStream{r: rand.New(rand.NewPCG(seed, 0x61727269766573)), keep: keep} // "arrives"
	svc := &svcStream{r: rand.New(rand.NewPCG(seed, 0x73657276696365)), keep: keep} // "service"
	if keep && s.Loop == Open {
		// Room for the draws of about every arrival, and a service time
		// each: appending from empty would copy them a dozen times.
		n := min(expectedRequests(s), 1<<20)
		arr.ns, svc.v = make([]int64, 0, n), make([]float64, 0, n)
	}
	// The prefix that the policies' runs share, when two or more do.
	var pre *prefix
	if shared := 0; keep && s.Loop == Open {
		for _, q := range presets {
			if sharesPrefix(q) {
				shared++
			}
		}
		if shared > 1 {
			pre = runPrefix(s, arr, svc, tg)
		}
	}
	out := make([]Result, len(ps))
	m := &sim{}
	for i, p := range ps {
		*m = sim{
			s: s, pol: p, rule: newRule(presets[i], s.Attempts), arr: arr, svc: svc,
			pr: rand.New(rand.NewPCG(seed, 0x706f6c69637921)), // "policy!"
			// the previous run's memory, emptied
			q:        events{h: m.q.h[:0], top: math.MaxInt64},
			timeouts: fifo{ring: m.timeouts.ring, top: math.MaxInt64},
			reqs:     m.reqs[:0], normal: m.normal, blocked: m.blocked, starts: m.starts,
			offered: m.offered, retried: m.retried, good: m.good, arrived: m.arrived, succ: m.succ,
		}
		m.quiet = m.rule.quiet() && (p != SREBudget || s.Loop == Open)
		m.admitsAll, m.budgeted, m.pauses = m.rule.admitsAll(), p.Budgeted(), m.rule.pauses()
		m.retryTO, m.deadlines = presets[i].RetryTimeouts, presets[i].Deadline
		m.perReq = m.rule.kind == kindFinagle && m.rule.finagle.perReq > 0
		m.hedge = nsOf(presets[i].HedgeDelayMS * 1e6)
		m.maxAttempts = m.rule.max()
		m.meter = mt
		fromPrefix := pre != nil && sharesPrefix(presets[i])
		if tg != nil {
			if fromPrefix {
				m.tr = tg.clone(pre.m.tr) // the prefix's trace so far
			} else {
				m.tr = newTracer(tg, tg.mem, tg.requests)
			}
		}
		if fromPrefix {
			m.runFrom(pre)
		} else {
			m.run()
		}
		if mt.Done() {
			return nil, meter.ErrStopped
		}
		if tg != nil {
			tg.traces = append(tg.traces, m.tr.trace())
			tg.mem = m.tr.traceMem
		}
		out[i] = m.res
	}
	return out, nil
}

// arrStream and svcStream are the streams of the arrivals' and the
// service times' draws, kept when keep: every policy's run reads the same
// draws in the same order, and only the first to need one draws it. Not
// kept, draw i is the next of r (one run reads it). Each place that reads
// an arrival draw turns it into ns in one way, the same in every run, so
// arrStream keeps the ns; a service time depends on when the call starts
// (the latency trigger), so svcStream keeps the draws (ExpFloat64).
type arrStream struct {
	r    *rand.Rand
	keep bool
	ns   []int64
}

type svcStream struct {
	r    *rand.Rand
	keep bool
	v    []float64
}

// arrNs returns the next time of arr, in ns: open loop, the gap to the
// next arrival (Poisson: ExpFloat64 × the mean gap; the first, the time of
// the first arrival); closed loop, a user's first start (Float64 × the
// mean think time, one per user), then a think time (ExpFloat64 × the mean
// think time).
func (m *sim) arrNs() int64 {
	i := m.arrN
	m.arrN++
	if i < len(m.arr.ns) {
		return m.arr.ns[i]
	}
	var t int64
	switch s := &m.s; {
	case s.Loop == Open:
		t = nsOf(float64(m.arr.r.ExpFloat64() * m.meanGap))
	case i < s.Clients:
		t = nsOf(float64(m.arr.r.Float64() * float64(s.ThinkMS*1e6)))
	default:
		t = nsOf(float64(m.arr.r.ExpFloat64() * s.ThinkMS * 1e6))
	}
	if m.arr.keep {
		m.arr.ns = append(m.arr.ns, t)
	}
	return t
}

// svcExp returns the next draw of svc.
func (m *sim) svcExp() float64 {
	i := m.svcN
	m.svcN++
	if i < len(m.svc.v) {
		return m.svc.v[i]
	}
	x := m.svc.r.ExpFloat64()
	if m.svc.keep {
		m.svc.v = append(m.svc.v, x)
	}
	return x
}

// expectedRequests returns a little more than the open-loop requests
// expected of s (Poisson: 10 % over the mean), at most 2^24: a capacity
// for the slices that hold one item per request.
func expectedRequests(s Scenario) int {
	return int(math.Min(float64(s.RatePerS*s.HorizonS)*1.1+16, 1<<24))
}

// zeroed returns buf resized to n and cleared, or a new slice if it is
// too short.
func zeroed[T int | int64](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// nsOf returns x rounded to the nearest integer, halves up: math.Round
// for x in [0, 2^63), the range of every time of a valid Scenario in ns
// (x-float64(i) is exact, the fraction of x).
func nsOf(x float64) int64 {
	i := int64(x)
	if x-float64(i) >= 0.5 {
		i++
	}
	return i
}

func (m *sim) run() {
	m.loop(m.setup())
}

// setup readies m for a run of its scenario: times in ns, empty series and
// workers; it returns the first open-loop arrival (math.MaxInt64 in closed
// loop, whose users' first requests it puts in the heap).
func (m *sim) setup() int64 {
	s := m.s
	m.trigA = nsOf(s.TriggerStartS * 1e9)
	m.trigB = nsOf(float64(s.TriggerStartS+s.TriggerS) * 1e9)
	m.horizon = nsOf(s.HorizonS * 1e9)
	m.timeout = nsOf(s.TimeoutMS * 1e6)
	m.bin = max(1, nsOf(s.BinS*1e9))
	m.svcMean = s.ServiceMS * 1e6
	m.slowMean = float64(m.svcMean * s.TriggerFactor)
	m.meanGap = 1e9 / s.RatePerS
	if s.Trigger == Latency {
		m.slowA, m.slowB = m.trigA, m.trigB
	}
	nb := int((m.horizon + m.bin - 1) / m.bin)
	m.offered, m.retried, m.good = zeroed(m.offered, nb), zeroed(m.retried, nb), zeroed(m.good, nb)
	m.arrived, m.succ = zeroed(m.arrived, nb), zeroed(m.succ, nb)
	m.res.Queue = make([]int, nb)
	m.res.Policy = m.pol

	avail := s.Slots
	if s.Trigger == Capacity {
		avail = int(math.Ceil(float64(s.Slots) / s.TriggerFactor))
	}
	m.normal = zeroed(m.normal, avail)
	m.blocked = zeroed(m.blocked, s.Slots-avail)
	if m.starts == nil {
		m.starts = make([]int64, 64)
	}

	// Open loop: the next Poisson arrival, drawn lazily from its stream.
	next := int64(math.MaxInt64)
	if s.Loop == Open {
		if m.reqs == nil {
			m.reqs = make([]request, 0, expectedRequests(s))
		}
		next = m.arrNs()
	} else {
		for c := 0; c < s.Clients; c++ {
			if t := m.arrNs(); t < m.horizon {
				m.q.push(event{t: t, kind: evArrive, req: int32(c)})
			}
		}
	}
	m.sampleAt = m.bin
	return next
}

// nextEvent chooses the earliest of: the heap (src 1), the timeouts (2),
// the next arrival next if before the horizon (3); on a tie, in that
// order; src 0 and t math.MaxInt64 when none is left. Without branches.
func (m *sim) nextEvent(next int64) (src int, t int64) {
	src, t = 3, next
	if next >= m.horizon {
		t = math.MaxInt64
	}
	if m.timeouts.top <= t {
		src, t = 2, m.timeouts.top
	}
	if m.q.top <= t {
		src, t = 1, m.q.top
	}
	if t == math.MaxInt64 {
		src = 0
	}
	return src, t
}

// loop runs the events from next, the next open-loop arrival, to the end,
// then finishes the result.
func (m *sim) loop(next int64) {
	for !m.halt {
		src, t := m.nextEvent(next)
		if t >= m.sampleAt {
			m.sample(t)
		}
		switch src {
		case 3:
			// arrive(next, -1), inlined
			id, b := int32(len(m.reqs)), m.binOf(next)
			m.reqs = append(m.reqs, request{bin: int16(b), client: -1})
			m.res.Requests++
			if b >= 0 {
				m.arrived[b]++
			}
			m.send(next, id)
			var gap int64 // arrNs, its common case inlined
			if i := m.arrN; i < len(m.arr.ns) {
				m.arrN++
				gap = m.arr.ns[i]
			} else {
				gap = m.arrNs()
			}
			next += max(1, gap)
		case 2:
			// The client gives up on request id's current attempt.
			id := m.timeouts.pop().req
			m.timedOut(t, id)
		case 1:
			e := m.q.pop()
			switch e.kind {
			case evArrive:
				m.arrive(t, e.req)
			case evSend:
				m.send(t, e.req)
			case evAnswer: // never for a quiet rule
				r := &m.reqs[e.req]
				if m.hedge > 0 {
					r.live--
					if r.over {
						break // another copy answered first
					}
					r.over = true
				}
				m.rule.done(t, r.attempts > 1, true, false, r.token)
				m.succeed(t, r)
			case evDeadline:
				m.timedOut(t, e.req)
			case evHedge:
				if r := &m.reqs[e.req]; !r.over && m.hedgeNext(t, r) {
					m.send(t, e.req)
				}
			}
		default:
			m.finish()
			return
		}
	}
}

// sample records the queue length at every bin end up to now, and sets
// sampleAt to the next bin end.
func (m *sim) sample(now int64) {
	for m.sampled < len(m.res.Queue) {
		end := int64(m.sampled+1) * m.bin
		if end > now {
			m.sampleAt = end
			return
		}
		m.res.Queue[m.sampled] = m.queued(end)
		m.sampled++
	}
	m.sampleAt = math.MaxInt64
}

// queued returns the calls queued at now (not started by now), after
// dropping from starts those that have started.
func (m *sim) queued(now int64) int {
	for m.count > 0 && m.starts[m.head] <= now {
		m.head = (m.head + 1) & (len(m.starts) - 1)
		m.count--
	}
	return m.count
}

// makeRoom drops the started calls from the full ring starts, and doubles
// it if none has started: before send adds a call sent at now that starts
// after now, the latest start so far.
func (m *sim) makeRoom(now int64) {
	if m.queued(now) < len(m.starts) {
		return
	}
	grown := make([]int64, 2*len(m.starts))
	for i := 0; i < m.count; i++ {
		grown[i] = m.starts[(m.head+i)&(len(m.starts)-1)]
	}
	m.starts, m.head = grown, 0
}

func (m *sim) binOf(t int64) int {
	if t >= m.binLo && t < m.binHi {
		return m.binAt
	}
	return m.binOfNew(t)
}

// binOfNew is binOf for a time outside the last bin it found, which it
// remembers (most times fall in the bin of the time before).
func (m *sim) binOfNew(t int64) int {
	if t < 0 || t >= m.horizon {
		return -1
	}
	b := t / m.bin
	m.binAt, m.binLo, m.binHi = int(b), b*m.bin, min((b+1)*m.bin, m.horizon)
	return m.binAt
}

// arrive starts a new request at now (client: the closed-loop user, -1
// for open loop).
func (m *sim) arrive(now int64, client int32) {
	id := int32(len(m.reqs))
	b := m.binOf(now)
	m.reqs = append(m.reqs, request{bin: int16(b), client: client})
	m.res.Requests++
	if b >= 0 {
		m.arrived[b]++
	}
	m.send(now, id)
}

// send makes request id's next attempt at now, and the retries that
// follow it at once (after a fast failure, when the policy does not
// pause). It holds the path of an attempt, the server's queue and worker
// heap inlined, and calls the rule only where it does something: in
// WebAssembly each call costs a trip through the Go stack in linear
// memory.
func (m *sim) send(now int64, id int32) {
	r := &m.reqs[id] // m.reqs grows only in arrive
	for {
		retry := r.attempts > 0
		if !retry {
			if m.deadlines {
				r.deadline = now + m.timeout
			}
			if m.perReq {
				r.limit = int16(min(m.rule.finagle.limit(now), math.MaxInt16))
			}
		}
		r.attempts++
		if m.meter != nil && m.meter.Add(1) {
			m.halt = true
		}
		if !m.admitsAll && !m.rule.send(now, retry, m.pr) {
			m.res.Throttled++
			if m.tr != nil {
				m.tr.refused(now, id, retry, Throttled)
			}
			m.fail(now, r)
			return
		}
		m.res.Attempts++
		if retry {
			m.res.Retries++
		}
		if b := m.binOf(now); b >= 0 {
			m.offered[b]++
			if retry {
				m.retried[b]++
			}
		}
		// The server: FIFO, the earliest free worker takes the call; with
		// the queue full, only a worker free now does. m.count may still
		// hold calls started since it was last brought up to date: only a
		// queue that looks full needs the exact count.
		start, h := m.pick(now)
		if start > now && m.count >= m.s.QueueCap && m.queued(now) >= m.s.QueueCap {
			m.res.Rejected++
			if m.tr != nil {
				m.tr.refused(now, id, retry, Rejected)
			}
			if !m.quiet {
				m.rule.done(now, retry, false, false, r.token)
			}
			if m.hedge > 0 {
				// A6: after a non-fatal status the next copy goes at once.
				if m.hedgeNext(now, r) {
					continue
				}
				if r.live == 0 {
					r.over = true
					m.fail(now, r)
				}
				return
			}
			if m.failed(now, id, false) {
				continue
			}
			return
		}
		d := m.svcMean
		if start >= m.slowA && start < m.slowB {
			d = m.slowMean
		}
		var x float64 // svcExp, its common case inlined
		if i := m.svcN; i < len(m.svc.v) {
			m.svcN++
			x = m.svc.v[i]
		} else {
			x = m.svcExp()
		}
		svc := max(1, nsOf(float64(x*d)))
		if m.hedge > 0 {
			r.live++
			if int(r.attempts) < m.maxAttempts && now+m.hedge < r.deadline {
				m.q.push(event{t: now + m.hedge, kind: evHedge, req: id})
			}
		}
		h.replaceMin(start + svc)
		if start > now {
			// enqueue(now, start), inlined: every call a storm queues
			if m.count == len(m.starts) {
				m.makeRoom(now)
			}
			m.starts[(m.head+m.count)&(len(m.starts)-1)] = start
			m.count++
		}
		m.busy += svc
		end, deadline := start+svc, now+m.timeout
		if m.deadlines && retry {
			deadline = r.deadline // before now + timeout: not in the FIFO's order
		}
		if m.tr != nil {
			m.tr.sent(now, id, retry, start, end, deadline)
		}
		switch {
		case end > deadline && m.deadlines && retry:
			m.wasted += svc
			m.q.push(event{t: deadline, kind: evDeadline, req: id})
		case end > deadline:
			m.wasted += svc
			m.timeouts.push(deadline, id)
		case !m.quiet:
			m.q.push(event{t: end, kind: evAnswer, req: id})
		default:
			// Nothing but the request waits for this answer: count it now,
			// at the time it comes.
			m.succeed(end, r)
		}
		return
	}
}

// pick returns the start of a call sent at now, and the heap of the worker
// that takes it: the earliest, a blocked worker counting as busy until the
// trigger's end.
func (m *sim) pick(now int64) (int64, *slotHeap) {
	best, h := int64(math.MaxInt64), (*slotHeap)(nil)
	if len(m.normal) > 0 {
		best, h = max(now, m.normal[0]), &m.normal
	}
	if len(m.blocked) > 0 {
		t := max(now, m.blocked[0])
		if t >= m.trigA && t < m.trigB {
			t = m.trigB
		}
		if t < best {
			best, h = t, &m.blocked
		}
	}
	return best, h
}

// failed decides, after a failed attempt of request r at now (timeout:
// by its timeout, else fast), whether it retries: true to send the retry
// at once; a retry after a pause is an event.
func (m *sim) failed(now int64, id int32, timeout bool) bool {
	r := &m.reqs[id]
	if int(r.attempts) >= m.maxAttempts || (timeout && !m.retryTO) || (m.perReq && r.attempts > r.limit) {
		m.fail(now, r)
		return false
	}
	if m.budgeted {
		ok, token := m.rule.retry(now, timeout)
		if !ok {
			m.res.RetriesDenied++
			if m.tr != nil {
				m.tr.denied(id)
			}
			m.fail(now, r)
			return false
		}
		r.token = token
	}
	if m.pauses {
		if w := m.rule.wait(int(r.attempts), r.prev, m.pr); w > 0 {
			r.prev = w
			if m.deadlines && now+w >= r.deadline {
				// The deadline comes during the pause: the call ends then
				// (counted now; the time matters only to a closed-loop
				// user's next request).
				m.fail(now, r)
				return false
			}
			m.q.push(event{t: now + w, kind: evSend, req: id})
			return false
		}
	}
	if m.deadlines && now >= r.deadline {
		m.fail(now, r)
		return false
	}
	return true
}

// hedgeNext reports whether request r may send its next copy at now:
// attempts left, before its deadline, and the throttle above its
// threshold (A6: hedged RPCs are throttled like retries).
func (m *sim) hedgeNext(now int64, r *request) bool {
	return int(r.attempts) < m.maxAttempts && now < r.deadline && m.rule.grpc.tokens > m.rule.grpc.maxTokens/2
}

// timedOut: the client gives up on request id's current attempt at now.
func (m *sim) timedOut(now int64, id int32) {
	r := &m.reqs[id]
	if m.hedge > 0 {
		r.live--
		if r.over {
			return // the request ended already: this copy's end changes nothing
		}
		r.over = true
	}
	if !m.quiet {
		m.rule.done(now, r.attempts > 1, false, true, r.token)
	}
	m.res.TimedOut++
	if m.failed(now, id, true) {
		m.send(now, id)
	}
}

// succeed ends request r at now with an answer in time.
func (m *sim) succeed(now int64, r *request) {
	m.res.Succeeded++
	if b := m.binOf(now); b >= 0 {
		m.good[b]++
	}
	if r.bin >= 0 {
		m.succ[r.bin]++
	}
	if r.client >= 0 {
		m.think(now, r.client)
	}
}

// fail ends request r at now without an answer.
func (m *sim) fail(now int64, r *request) {
	if r.client >= 0 {
		m.think(now, r.client)
	}
}

// think schedules closed-loop user client's next request, after a think
// time from now.
func (m *sim) think(now int64, client int32) {
	if t := now + m.arrNs(); t < m.horizon {
		m.q.push(event{t: t, kind: evArrive, req: client})
	}
}

// finish fills the series and judges the recovery.
func (m *sim) finish() {
	nb := len(m.offered)
	perS := 1e9 / float64(m.bin)
	res := &m.res
	res.BusyS, res.WastedS = float64(m.busy)/1e9, float64(m.wasted)/1e9
	res.Offered, res.RetryRate, res.Goodput, res.Share = make([]float64, nb), make([]float64, nb), make([]float64, nb), make([]float64, nb)
	for b := range nb {
		res.Offered[b] = float64(m.offered[b]) * perS
		res.RetryRate[b] = float64(m.retried[b]) * perS
		res.Goodput[b] = float64(m.good[b]) * perS
		res.Share[b] = -1
		if m.arrived[b] > 0 {
			res.Share[b] = float64(m.succ[b]) / float64(m.arrived[b])
		}
	}
	// Before: bins from the second to the last that ends by the trigger.
	a, s := 0, 0
	for b := 1; int64(b+1)*m.bin <= m.trigA; b++ {
		a += m.arrived[b]
		s += m.succ[b]
	}
	res.Before = 1
	if a > 0 {
		res.Before = float64(s) / float64(a)
	}
	// Recovery: the first bin starting at or after the trigger's end from
	// which no bin falls below 95% of Before.
	first := int((m.trigB + m.bin - 1) / m.bin)
	from := -1
	for b := nb - 1; b >= first; b-- {
		if m.arrived[b] > 0 && res.Share[b] < 0.95*res.Before {
			break
		}
		from = b
	}
	if from >= 0 {
		res.Recovered = true
		res.RecoveryS = float64(int64(from)*m.bin-m.trigB) / 1e9
	} else if back := nb - 1 - nb/10; back >= first && back < nb-1 {
		res.Draining = float64(res.Queue[nb-1]) < 0.8*float64(res.Queue[back])
	}
}
