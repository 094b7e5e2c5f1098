package policies

import "math"

// A run goes the same way under every policy whose rule lets each first
// attempt through and only acts on a failure (a retry, a refusal, a pause,
// a breaker opening), until an attempt first fails: the same arrivals, the
// same service draws, the same calls on the same workers. With no failure
// before the trigger, as at the defaults, that is the whole warm-up. RunAll
// simulates that prefix once (runPrefix) and starts each such policy's run
// from it (runFrom): the state where the prefix stopped, and the policy's
// rule fed the calls the prefix would have made to it (replay). The result
// is the run's from the start, exactly (TestPrefixSameAsRun).

// prefix is a run of the shared prefix, stopped before the first event at
// which a policy could act: a timeout, or a new request that the queue
// refuses (or the end of the run).
type prefix struct {
	m    sim   // the run, stopped there
	next int64 // the next arrival then, ns
	// The first attempts sent and the answers, in the order of the run:
	// ts holds the time, ids the request (^id for an answer).
	ts  []int64
	ids []int32
}

// sharesPrefix reports whether preset q's runs start as the prefix does
// in open loop: its rule refuses no first attempt before a failure, and it
// sends no hedge.
func sharesPrefix(q Preset) bool {
	return q.HedgeDelayMS == 0 &&
		(q.SRE == nil || !q.SRE.Throttle) && // adaptive throttling refuses early
		(q.Breaker == nil || q.Breaker.FailureRatio > 0) // else it opens on no failure
}

// runPrefix simulates the shared prefix of open-loop scenario s on the
// draws of arr and svc (kept: the policies' runs read them again). Its
// rule does nothing and its answers are events, as for a policy whose
// rule is told of them. With tg (RunTraced), it records the prefix's
// trace in a tracer of its own memory, p.m.tr, which each policy's run
// starts from a copy of (the prefix makes the same calls to it as the
// policy's own run would).
func runPrefix(s Scenario, arr *arrStream, svc *svcStream, tg *tracing) *prefix {
	p := &prefix{}
	m := &p.m
	*m = sim{
		s: s, rule: rule{kind: kindFixed, attempts: 1}, arr: arr, svc: svc,
		q: events{top: math.MaxInt64}, timeouts: fifo{top: math.MaxInt64},
		admitsAll: true, maxAttempts: 1,
	}
	if tg != nil {
		m.tr = newTracer(tg, traceMem{}, tg.requests) // memory of its own
	}
	// Room for the requests before the trigger, when the first failures
	// usually come, and their answers.
	w := s
	w.HorizonS = s.TriggerStartS
	n := expectedRequests(w)
	m.reqs = make([]request, 0, n)
	p.ts, p.ids = make([]int64, 0, 2*n), make([]int32, 0, 2*n)
	next := m.setup()
	for {
		src, t := m.nextEvent(next)
		if t >= m.sampleAt {
			m.sample(t)
		}
		switch src {
		case 3:
			if start, _ := m.pick(next); start > next && m.count >= s.QueueCap && m.queued(next) >= s.QueueCap {
				p.next = next
				return p // the queue refuses this request
			}
			p.ts, p.ids = append(p.ts, next), append(p.ids, int32(len(m.reqs)))
			m.arrive(next, -1)
			next += max(1, m.arrNs())
		case 1:
			e := m.q.pop() // an answer: the prefix has no other event
			p.ts, p.ids = append(p.ts, t), append(p.ids, ^e.req)
			m.succeed(t, &m.reqs[e.req])
		default:
			p.next = next
			return p // a timeout, or the end
		}
	}
}

// runFrom runs m, set up for its policy (sharesPrefix), from the end of
// prefix p: what run does, without simulating the prefix again.
func (m *sim) runFrom(p *prefix) {
	m.setup()
	b := &p.m
	m.arrN, m.svcN = b.arrN, b.svcN
	// Only the requests with an event to come are read again: the others'
	// places in m.reqs keep what they hold.
	lo := int32(len(b.reqs))
	for _, e := range b.q.h {
		lo = min(lo, e.req)
	}
	if b.timeouts.size > 0 {
		lo = min(lo, b.timeouts.ring[b.timeouts.head].req) // the earliest sent
	}
	if cap(m.reqs) < len(b.reqs) {
		m.reqs = make([]request, 0, len(b.reqs))
	}
	m.reqs = m.reqs[:len(b.reqs)]
	copy(m.reqs[lo:], b.reqs[lo:])
	copy(m.normal, b.normal)
	copy(m.blocked, b.blocked)
	for i := range b.timeouts.size {
		e := b.timeouts.ring[(b.timeouts.head+i)&(len(b.timeouts.ring)-1)]
		m.timeouts.push(e.t, e.req)
	}
	if len(m.starts) < len(b.starts) {
		m.starts = make([]int64, len(b.starts))
	}
	for i := range b.count {
		m.starts[i] = b.starts[(b.head+i)&(len(b.starts)-1)]
	}
	m.head, m.count = 0, b.count
	m.busy, m.wasted = b.busy, b.wasted
	copy(m.offered, b.offered)
	copy(m.good, b.good)
	copy(m.arrived, b.arrived)
	copy(m.succ, b.succ)
	copy(m.res.Queue, b.res.Queue[:b.sampled])
	m.sampled, m.sampleAt = b.sampled, b.sampleAt
	m.res.Requests, m.res.Attempts, m.res.Succeeded = b.res.Requests, b.res.Attempts, b.res.Succeeded
	if m.quiet {
		// A quiet rule counts a success when the call is placed.
		for _, e := range b.q.h {
			m.succeed(e.t, &m.reqs[e.req])
		}
	} else {
		m.q.h = append(m.q.h[:0], b.q.h...)
		m.q.top = b.q.top
	}
	m.replay(p)
	m.loop(p.next)
}

// replay does to m what its send and its answers would have done in the
// prefix besides what the prefix did: the rule told of each first attempt
// and each answer, a request's deadline and retry limit, the meter told of
// each attempt.
func (m *sim) replay(p *prefix) {
	// The answers change nothing for a quiet rule, nor for one whose
	// budget a first attempt's success cannot raise (gRPC's tokens and
	// the AWS quota start full, and the prefix holds no failure).
	still := m.quiet || m.rule.full()
	if still && m.admitsAll && !m.deadlines && !m.perReq && m.meter == nil {
		return // nothing to do (none, naive, backoff, grpc, aws)
	}
	for i, id := range p.ids {
		t := p.ts[i]
		if id < 0 {
			if !still {
				m.rule.done(t, false, true, false, 0)
			}
			continue
		}
		r := &m.reqs[id]
		if m.deadlines {
			r.deadline = t + m.timeout
		}
		if m.perReq {
			r.limit = int16(min(m.rule.finagle.limit(t), math.MaxInt16))
		}
		if m.meter != nil && m.meter.Add(1) {
			m.halt = true
		}
		if !m.admitsAll && !m.rule.send(t, false, m.pr) {
			panic("policies: a rule that shares the prefix refused a first attempt")
		}
	}
}
