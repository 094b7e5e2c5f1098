package policies

import (
	"math"

	"retrylab/core/internal/group"
	"retrylab/core/meter"
)

// The trace of a run: what a request-flow view draws (site/widget,
// view flow). RunTraced runs the same simulation as RunAll and, beside
// each Result, records two things:
//
//   - the attempts of a bounded sample of requests (every stride-th
//     request by order of arrival, at most maxMarks of them: the sample
//     is fixed by the seed, as the arrivals are), each attempt with the
//     times it was sent, taken by a worker, finished by the server and
//     settled for the client, and its outcome;
//   - exact counters of every request, not only the sampled ones, at the
//     end of every bin of BinS until the last event: attempts in flight,
//     calls queued, answers in time, retries sent and wasted server time,
//     each as the state just before the events at that instant (the
//     convention of Result.Queue). The last frame comes after every event:
//     its counters are the Result's totals.
//
// The hooks cost the untraced runs one nil check each.

// Outcome is how an attempt ended for its client.
type Outcome uint8

const (
	Served    Outcome = iota // answered before the client's timeout
	TimedOut                 // the client gave up; the server works on anyway
	Rejected                 // the queue was full: failed fast
	Throttled                // the client's own policy refused to send it
)

// Attempt is one attempt of a traced request. Times in seconds.
type Attempt struct {
	Retry   bool
	Outcome Outcome
	SentS   float64
	StartS  float64 // a worker takes it (SentS for Rejected and Throttled)
	EndS    float64 // the server is done with it (SentS for Rejected and Throttled)
	DoneS   float64 // the client knows: the answer, its timeout, or SentS
}

// Mark is one traced request.
type Mark struct {
	Req      int // the request's number, in order of arrival
	Attempts []Attempt
	// Denied: after its last attempt failed, the policy's budget refused
	// the retry (at the last attempt's DoneS).
	Denied bool
}

// Served reports whether the request got an answer in time.
func (k *Mark) Served() bool {
	n := len(k.Attempts)
	return n > 0 && k.Attempts[n-1].Outcome == Served
}

// Counters are a run's exact counters at the instants TS (s): the end of
// each bin, then one instant after the last event. Served, Retries and
// WastedS are totals so far.
type Counters struct {
	TS       []float64
	InFlight []int // attempts sent whose client does not know the outcome yet
	Queue    []int // calls waiting for a worker
	Served   []int // answers in time so far
	Retries  []int // retries sent so far (refused by the queue included)
	WastedS  []float64
}

// Trace is one policy's trace.
type Trace struct {
	Stride   int // the sample holds requests 0, Stride, 2·Stride, …
	Marks    []Mark
	Counters Counters
}

// tracer records a run's trace (sim.tr).
type tracer struct {
	stride, max int
	marks       []Mark // Req and Denied; their Attempts come from log at the end
	bin         int64
	last        int64 // the latest time of any event
	traceMem
}

// traceMem is a tracer's working memory, none of which a Trace holds: the
// next policy's tracer reuses it (tracing.mem), emptied.
type traceMem struct {
	// log holds the sampled requests' attempts in the order they were
	// recorded, logMarks each one's mark (its index in marks): trace
	// gives every mark its attempts in one slice of them all
	// (group.By), not one growing slice a mark (thousands of
	// allocations a traced RunAll, dear in WebAssembly).
	log      []Attempt
	logMarks []int32
	// frames[k] holds the differences of the counters at frame k (the
	// instant (k+1)·bin), summed at the end.
	frames []frameDiff
	// answeredAt is each answered request's earliest in-time end plus
	// one, by request number (0: not answered yet): a request counts as
	// served once, at its first answer, however many copies (hedging)
	// come back in time. A slice, not a map: request numbers are dense,
	// and the map's lookups were most of a traced run's time.
	answeredAt []int64
}

// frameDiff is one frame's differences of the counters (Counters).
type frameDiff struct {
	inflight, queue, served, retries int
	wasted                           int64 // ns
}

// tracing is what runAll needs to trace each policy's run (RunTraced):
// the tracers' parameters, their reused memory, and the traces so far.
type tracing struct {
	stride, max int   // tracer's
	requests    int   // answeredAt's room
	bin         int64 // tracer's, ns
	mem         traceMem
	traces      []Trace
}

// newTracer returns a tracer of tg's parameters on mem emptied, its
// answeredAt cleared and with room for at least requests requests. Not
// inlined: it runs once a policy, and three callers.
//
//go:noinline
func newTracer(tg *tracing, mem traceMem, requests int) *tracer {
	if cap(mem.answeredAt) < requests {
		mem.answeredAt = make([]int64, requests)
	}
	mem.answeredAt = mem.answeredAt[:cap(mem.answeredAt)]
	clear(mem.answeredAt)
	marks := min(tg.max, tg.requests/tg.stride+1) // the marks a run is expected to sample
	if cap(mem.log) == 0 {
		// room for two attempts a mark in the log (it grows beyond)
		mem.log, mem.logMarks = make([]Attempt, 0, 2*marks), make([]int32, 0, 2*marks)
	}
	mem.log, mem.logMarks, mem.frames = mem.log[:0], mem.logMarks[:0], mem.frames[:0]
	return &tracer{
		stride: tg.stride, max: tg.max, bin: tg.bin, traceMem: mem,
		marks: make([]Mark, 0, marks), // a Trace holds them
	}
}

// clone returns a tracer holding what p recorded (the shared prefix's),
// on mem.
func (tg *tracing) clone(p *tracer) *tracer {
	tr := newTracer(tg, tg.mem, len(p.answeredAt))
	tr.marks = append(tr.marks, p.marks...)
	tr.log, tr.logMarks, tr.frames = append(tr.log, p.log...), append(tr.logMarks, p.logMarks...), append(tr.frames, p.frames...)
	copy(tr.answeredAt, p.answeredAt) // the rest of tr's is 0, as answered grows it
	tr.last = p.last
	return tr
}

// frame returns the first frame k whose instant (k+1)·bin is above t:
// the first whose state an event at t is part of, making room for it and
// the next in frames. Not inlined: sent calls it once, refused once, and
// its appends inlined there made sent the largest function of the
// policies module (make bench's size table). Times are never negative,
// so the division is unsigned: in WebAssembly a signed 64-bit division
// is a call to the runtime (wasmDiv, for MinInt64 / -1), an unsigned one
// an instruction.
//
//go:noinline
func (tr *tracer) frame(t int64) int {
	k := int(uint64(t) / uint64(tr.bin))
	for len(tr.frames) <= k+1 {
		tr.frames = append(tr.frames, frameDiff{})
	}
	tr.last = max(tr.last, t)
	return k
}

// from is frame(t) for a time t whose frame is k or the next, without
// a division there, and without making room: frames must hold t's frame
// and the next already.
func (tr *tracer) from(k int, t int64) int {
	if d := t - int64(k)*tr.bin; d >= 0 && d < 2*tr.bin {
		return k + lt(tr.bin-1, d) // k, or k+1 for d >= bin
	}
	return int(uint64(t) / uint64(tr.bin))
}

// mark returns the index in marks of request id's sampled mark, or -1.
func (tr *tracer) mark(id int32) int {
	if uint64(id)%uint64(tr.stride) != 0 { // id >= 0: unsigned (frame)
		return -1
	}
	i := int(uint64(id) / uint64(tr.stride))
	if i >= tr.max {
		return -1
	}
	for len(tr.marks) <= i {
		tr.marks = append(tr.marks, Mark{Req: len(tr.marks) * tr.stride})
	}
	return i
}

// attempt logs an attempt of request id when it is sampled: its times
// (ns) become seconds only then.
func (tr *tracer) attempt(id int32, retry bool, out Outcome, sent, start, end, done int64) {
	if i := tr.mark(id); i >= 0 {
		tr.log = append(tr.log, Attempt{Retry: retry, Outcome: out, SentS: secs(sent), StartS: secs(start), EndS: secs(end), DoneS: secs(done)})
		tr.logMarks = append(tr.logMarks, int32(i))
	}
}

// firstAbove is the first frame whose instant is above t (the frame of
// an event at t): state counts an event at t in frames from here.
func (tr *tracer) firstAbove(t int64) int { return tr.frame(t) }

// sent records an attempt the server took: sent at now, started at
// start, done by the server at end; the client gives up at deadline.
// Every time it counts at is in [now, end], but for an earlier answer of
// the request, whose frame is there already: room for end's frame is room
// for them all, and each frame is found from now's (from), most in it or
// the next.
func (tr *tracer) sent(now int64, id int32, retry bool, start, end, deadline int64) {
	sentK := int(uint64(now) / uint64(tr.bin))
	kEnd := tr.from(sentK, end)
	if len(tr.frames) <= kEnd+1 {
		tr.frame(end)
	}
	tr.last = max(tr.last, end)
	f := tr.frames[:kEnd+2]
	if retry {
		f[sentK].retries++
	}
	// queued: sent < F < start; the first frame whose instant is at start
	// or above
	hi := tr.from(sentK, start)
	if hi > 0 && int64(hi)*tr.bin == start {
		hi--
	}
	if sentK < hi {
		f[sentK].queue++
		f[hi].queue--
	}
	done, out := end, Served
	if end > deadline {
		done, out = deadline, TimedOut
		f[tr.from(sentK, deadline)].wasted += end - start
	} else if prev := tr.answered(id); prev < 0 {
		tr.answeredAt[id] = end + 1
		f[tr.from(sentK, end)].served++
	} else if end < prev { // a later copy answers first (prev past end: frames has its frame)
		tr.frames[tr.from(sentK, prev)].served--
		f[tr.from(sentK, end)].served++
		tr.answeredAt[id] = end + 1
	}
	// in flight: sent < F <= done
	if hi := tr.from(sentK, done); sentK < hi {
		f[sentK].inflight++
		f[hi].inflight--
	}
	if uint64(id)%uint64(tr.stride) == 0 { // the call only for a sampled request (mark)
		tr.attempt(id, retry, out, now, start, end, done)
	}
}

// answered returns request id's earliest in-time end so far, or -1,
// and makes room for id in answeredAt.
func (tr *tracer) answered(id int32) int64 {
	if int(id) >= len(tr.answeredAt) {
		tr.answeredAt = append(tr.answeredAt, make([]int64, int(id)+1-len(tr.answeredAt))...)
	}
	return tr.answeredAt[id] - 1
}

// refused records an attempt refused at now by the full queue (Rejected)
// or the client's policy (Throttled).
func (tr *tracer) refused(now int64, id int32, retry bool, out Outcome) {
	k := tr.firstAbove(now)
	if retry && out == Rejected {
		tr.frames[k].retries++
	}
	tr.attempt(id, retry, out, now, now, now, now)
}

// denied records that the budget refused request id's retry.
func (tr *tracer) denied(id int32) {
	if i := tr.mark(id); i >= 0 {
		tr.marks[i].Denied = true
	}
}

// trace sums the differences into the counters.
func (tr *tracer) trace() Trace {
	n := tr.firstAbove(tr.last) + 1 // the frame after every event
	c := Counters{TS: make([]float64, n), InFlight: make([]int, n), Queue: make([]int, n), Served: make([]int, n), Retries: make([]int, n), WastedS: make([]float64, n)}
	var in, q, sv, rt int
	var w int64
	for k := 0; k < n; k++ {
		f := &tr.frames[k]
		in += f.inflight
		q += f.queue
		sv += f.served
		rt += f.retries
		w += f.wasted
		c.TS[k] = secs(int64(k+1) * tr.bin)
		c.InFlight[k], c.Queue[k], c.Served[k], c.Retries[k], c.WastedS[k] = in, q, sv, rt, float64(w)/1e9
	}
	// Each mark's attempts, in the order logged: a slice each of one
	// array (its capacity its length: an append copies), nil for none.
	g := group.By(tr.logMarks, tr.log, len(tr.marks))
	for i := range tr.marks {
		tr.marks[i].Attempts = g.Of(i)
	}
	return Trace{Stride: tr.stride, Marks: tr.marks, Counters: c}
}

func secs(t int64) float64 { return float64(t) / 1e9 }

// RunTraced is RunAll with a trace of each run: the attempts of at most
// maxMarks requests (a sample spread over the run by the expected number
// of requests), and the exact counters.
func RunTraced(s Scenario, ps []Policy, seed uint64, maxMarks int) ([]Result, []Trace, error) {
	return RunTracedMeter(s, ps, seed, maxMarks, nil)
}

// RunTracedMeter is RunTraced with a meter (RunAllMeter's).
func RunTracedMeter(s Scenario, ps []Policy, seed uint64, maxMarks int, mt *meter.Meter) ([]Result, []Trace, error) {
	expected := s.RatePerS * s.HorizonS
	if s.Loop == Closed {
		expected = float64(s.Clients) * s.HorizonS * 1000 / math.Max(s.ThinkMS+s.ServiceMS, 1e-3)
	}
	maxMarks = max(maxMarks, 1)
	stride := 1
	if expected > float64(maxMarks) && !math.IsInf(expected, 0) {
		stride = int(math.Ceil(expected / float64(maxMarks)))
	}
	tg := &tracing{stride: stride, max: maxMarks, bin: max(1, nsOf(s.BinS*1e9)), traces: make([]Trace, 0, len(ps))}
	// answeredAt's room, and the marks': the requests expected, 10 % over, at most 2^20
	// (it grows beyond); none for a scenario Validate refuses (NaN)
	if e := expected*1.1 + 16; e > 0 {
		tg.requests = int(math.Min(e, 1<<20))
	}
	rs, err := runAll(s, ps, seed, mt, tg)
	if err != nil {
		return nil, nil, err
	}
	return rs, tg.traces, nil
}
