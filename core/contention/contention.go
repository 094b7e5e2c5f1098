// Package contention reproduces the experiment of Marc Brooker's
// "Exponential Backoff And Jitter" (AWS Architecture Blog, 2015): N
// clients each update one row of a remote store under optimistic
// concurrency (read the version, write conditionally on it); a write with
// a stale version fails, and its client sleeps a backoff and starts again
// with a new read. The model follows the post's public simulator,
// aws-samples/aws-arch-backoff-simulator, src/backoff_simulator.py
// (https://github.com/aws-samples/aws-arch-backoff-simulator): every
// message takes |Normal(mean, sd)| of network delay (10 ms and 2 ms there),
// the backoff before the read that follows the n-th failed write (n from
// 1) is computed from min(cap, base·2^n) with base 5 ms and cap 2,000 ms,
// the run ends when the last client has its successful answer, and the
// work is the number of writes the store handles. The code here is ours,
// written from that description; the draws are math/rand/v2's PCG and its
// NormFloat64 and Float64 (core/standin/pcgrand) with a seed that is an argument, so the numbers are not the original's, only
// its shapes.
package contention

import (
	"math"

	"retrylab/core/standin/pcgrand"
)

// Strategy is a backoff strategy of the post.
type Strategy int

// The strategies, in the order the results list them.
const (
	None         Strategy = iota // no wait: retry at once
	Exponential                  // min(cap, base·2^n), no jitter
	Full                         // uniform(0, min(cap, base·2^n))
	Equal                        // half the exponential value plus uniform(0, that half)
	Decorrelated                 // min(cap, uniform(base, 3·previous sleep)), previous starting at base
)

// Strategies lists every strategy in order.
var Strategies = []Strategy{None, Exponential, Full, Equal, Decorrelated}

var names = [...]string{"none", "exponential", "full", "equal", "decorrelated"}

// String is the strategy's name as the calculator spells it.
func (s Strategy) String() string { return names[s] }

// Params are the inputs of one configuration.
type Params struct {
	Clients   int
	BaseMS    float64
	CapMS     float64
	NetMeanMS float64 // mean network delay of one message
	NetSDMS   float64 // its standard deviation
}

// Result is the mean over runs of one strategy at one client count.
type Result struct {
	TimeMS float64 // mean time until every client has written
	Calls  float64 // mean writes the store handled
}

type event struct {
	t      float64
	write  bool // false: a read reaches the store; true: a write does
	client int32
	val    int64 // the version the write is conditional on
}

// heap is a binary min-heap of events by time.
type heap []event

func (h *heap) push(e event) {
	*h = append(*h, e)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].t <= s[i].t {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *heap) pop() event {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && s[r].t < s[l].t {
			m = r
		}
		if s[i].t <= s[m].t {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// A Sim runs the simulation, holding the state of runs for the next:
// the calculator makes its 55 Runs with one.
type Sim struct {
	p       Params
	r       pcgrand.PCG
	expo    []float64 // min(cap, base·2^n) for n from 0, up to the first that is cap (n 1000 at most)
	attempt []int     // failed writes of each client
	sleep   []float64 // each client's previous sleep (Decorrelated), ms
	q       heap      // runHeap's events
	t       tree      // runTree's events
}

// Run returns the mean completion time and writes of runs seeded runs of
// strategy st (runs >= 1). Each strategy and client count draws from its
// own stream of seed, so adding a strategy or a client count changes no
// other result.
func Run(p Params, st Strategy, runs int, seed uint64) Result {
	var s Sim
	return s.Run(p, st, runs, seed)
}

// Run is Run(p, st, runs, seed), with s's memory.
func (s *Sim) Run(p Params, st Strategy, runs int, seed uint64) Result {
	s.start(p, st, seed)
	var tsum, csum float64
	for range runs {
		t, c := s.run(st)
		tsum += t
		csum += float64(c)
	}
	return Result{TimeMS: tsum / float64(runs), Calls: csum / float64(runs)}
}

// start readies s for the runs of Run(p, st, runs, seed).
func (s *Sim) start(p Params, st Strategy, seed uint64) {
	// rand.NewPCG(seed, uint64(st)<<32|uint64(p.Clients)), as pcgrand.
	s.p, s.r = p, pcgrand.New(seed, uint64(st)<<32|uint64(p.Clients))
	// The ceilings of the waits, once: base·2^n grows with n (base > 0),
	// and from the first n where the ceiling is cap it stays cap.
	s.expo = s.expo[:0]
	for n := 0; n <= 1000; n++ {
		v := math.Min(p.CapMS, math.Ldexp(p.BaseMS, n))
		s.expo = append(s.expo, v)
		if p.BaseMS > 0 && v == p.CapMS {
			break
		}
	}
}

// delay draws the network delay of one message.
func (s *Sim) delay() float64 { return math.Abs(s.p.NetMeanMS + s.p.NetSDMS*s.r.NormFloat64()) }

func (s *Sim) backoff(st Strategy, c int) float64 {
	// math.Min(cap, math.Ldexp(base, min(n, 1000))): the wait's ceiling
	expo := s.expo[min(s.attempt[c], len(s.expo)-1)]
	switch st {
	case Exponential:
		return expo
	case Full:
		return s.r.Float64() * expo
	case Equal:
		return expo/2 + s.r.Float64()*expo/2
	case Decorrelated:
		lo, hi := s.p.BaseMS, s.sleep[c]*3
		s.sleep[c] = min(s.p.CapMS, lo+(hi-lo)*s.r.Float64()) // as math.Min, inline
		return s.sleep[c]
	}
	return 0
}

// run simulates one run and returns its completion time and writes:
// runTree's, unless two events had the same time, and then runHeap's
// from the same draws.
func (s *Sim) run(st Strategy) (float64, int) {
	r := s.r
	if t, c, ok := s.runTree(st); ok {
		return t, c
	}
	s.r = r
	return s.runHeap(st)
}

// reset makes every client's state that of the run's start.
func (s *Sim) reset() {
	n := s.p.Clients
	s.attempt = append(s.attempt[:0], make([]int, n)...)
	s.sleep = s.sleep[:0]
	for range n {
		s.sleep = append(s.sleep, s.p.BaseMS)
	}
}

// runHeap simulates one run and returns its completion time and writes.
// Only the store's state matters between messages, so a client's steps
// between two visits to the store are folded into one event: the read's
// answer travels back and the write travels out (two delays); a failed
// write's answer travels back, the client sleeps, and the next read
// travels out (two delays and the backoff); a successful write's answer
// travels back and ends that client (one delay).
func (s *Sim) runHeap(st Strategy) (float64, int) {
	n := s.p.Clients
	s.q = s.q[:0]
	s.reset()
	for c := range n {
		s.q.push(event{t: s.delay(), client: int32(c)})
	}
	var version int64
	calls, end := 0, 0.0
	for len(s.q) > 0 {
		e := s.q.pop()
		t := e.t
		if !e.write {
			s.q.push(event{t: t + s.delay() + s.delay(), write: true, client: e.client, val: version})
			continue
		}
		calls++
		if e.val == version {
			version++
			end = max(end, t+s.delay())
			continue
		}
		c := int(e.client)
		s.attempt[c]++
		back := s.delay()
		s.q.push(event{t: t + back + s.backoff(st, c) + s.delay(), client: e.client})
	}
	return end, calls
}

// runTree is runHeap with the events in a tree, one a client, as long as
// the event taken next is the only one of its time: then the events come
// in the same order as from runHeap's heap, whatever its arrangement. It
// reports false, in the middle of the run, at the first event that had
// another of its time (which one the heap gives first depends on the
// heap's arrangement): where every delay is the same (net_sd_ms 0), at
// once; with random delays, never in practice. It reports false at once
// unless the parameters are at least 0 and at most 1e100: every time is
// then a float64 at least +0, short of +Inf, never NaN, and the tree
// orders them by their bits.
func (s *Sim) runTree(st Strategy) (end float64, calls int, ok bool) {
	for _, v := range [...]float64{s.p.BaseMS, s.p.CapMS, s.p.NetMeanMS, s.p.NetSDMS} {
		if !(v >= 0 && v <= 1e100) {
			return 0, 0, false
		}
	}
	n := s.p.Clients
	s.reset()
	q := &s.t
	q.clear(n)
	for c := range n {
		q.key[c] = math.Float64bits(s.delay()) // a read, reaching the store
	}
	q.build()
	var version int64
	for active := n; active > 0; {
		c, t := q.winner, math.Float64frombits(q.wkey)
		var next float64
		switch {
		case !(t < math.Inf(1)):
			return 0, 0, false // a client without events, or times past the largest float
		case !q.write[c]:
			next = t + s.delay() + s.delay()
			q.write[c], q.val[c] = true, version
		case q.val[c] == version:
			calls++
			version++
			end = max(end, t+s.delay())
			next = math.Inf(1) // the client is done
			active--
		default:
			calls++
			s.attempt[c]++
			back := s.delay()
			next = t + back + s.backoff(st, int(c)) + s.delay()
			q.write[c] = false
		}
		if q.update(math.Float64bits(next)) {
			return 0, 0, false
		}
	}
	return end, calls, true
}

// tree is a tournament tree of the clients' next events by time (a loser
// tree): each inner node holds the client that lost the match there and
// its time, the earlier of its two subtrees' winners taking the place up.
// The winner of the root's match is the client of the earliest event.
// The times are float64s at least +0 held as their bits
// (math.Float64bits), which order them as the floats: +Inf, a client
// without events, comes last.
type tree struct {
	write  []bool   // whether the client's event is a write reaching the store (else a read)
	val    []int64  // the version a write is conditional on
	node   []node   // the inner nodes 1 … m-1: the losers of their matches
	up     []int32  // build's winners of the nodes
	key    []uint64 // the leaves' times before build; +Inf for none
	m      int      // leaves: the clients and padding, a power of two
	winner int32    // the client of the earliest event
	wkey   uint64   // its time
}

// node is an inner node of a tree: the loser of its match.
type node struct {
	key    uint64 // the time of the loser's event
	client int32
}

// clear makes q hold n clients, all without events.
func (q *tree) clear(n int) {
	q.m = 1
	for q.m < n {
		q.m *= 2
	}
	q.key = q.key[:0]
	for range q.m {
		q.key = append(q.key, math.Float64bits(math.Inf(1)))
	}
	q.write = append(q.write[:0], make([]bool, n)...)
	q.val = append(q.val[:0], make([]int64, n)...)
	q.node = append(q.node[:0], make([]node, q.m)...)
	q.up = append(q.up[:0], make([]int32, 2*q.m)...)
}

// build plays every match, from the times in key.
func (q *tree) build() {
	for c := range q.m {
		q.up[q.m+c] = int32(c)
	}
	for i := q.m - 1; i > 0; i-- {
		a, b := q.up[2*i], q.up[2*i+1]
		if q.key[b] < q.key[a] {
			a, b = b, a
		}
		q.up[i], q.node[i] = a, node{q.key[b], b}
	}
	q.winner = q.up[1]
	q.wkey = q.key[q.winner]
}

// update gives the winner's client the next event time k and replays its
// matches. It reports whether the winner's event had another of its time:
// the runner-up is one of the clients it beat on its way up, the losers
// on its path.
func (q *tree) update(k uint64) (tie bool) {
	nodes := q.node
	w, old := q.winner, q.wkey
	ties := 0
	// The matches' outcomes are coin flips: the loop makes them without
	// a branch, whose mispredictions cost more than the rest.
	for i := uint(q.m+int(w)) / 2; i > 0; i /= 2 {
		nd := &nodes[i]
		l, kl := nd.client, nd.key
		ties += b2i(kl == old)
		lt := kl < k
		nd.client, nd.key = pick(lt, w, l), pick(lt, k, kl)
		w = pick(lt, l, w)
		k = pick(lt, kl, k)
	}
	q.winner, q.wkey = w, k
	return ties > 0
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	return int(pick(b, int32(1), 0))
}

// pick is x if c, else y: a conditional move, without a branch.
func pick[T int32 | uint64](c bool, x, y T) T {
	if c {
		return x
	}
	return y
}

// Work is an upper bound on the writes of runs runs at n clients for
// one strategy: no backoff makes about n²/2 writes, and no strategy
// makes more than n·(n+1)/2 in expectation.
func Work(n, runs int) float64 { return float64(runs) * float64(n) * float64(n+1) / 2 }
