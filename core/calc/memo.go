package calc

import (
	"strconv"

	"retrylab/core/policies"
)

// Memo keeps parts of the runs of a calculator that a later run with
// other parameters can take again instead of computing them: the policies
// calculator keeps each policy's run (its result and, under WithTrace, its
// trace) by what that run reads, the scenario, the seed and the trace's
// size, the attempts only for the policies that read them (naive, backoff:
// policies.Preset.Attempts 0). A policy's run does not depend on the other
// policies run beside it (policies.RunAll), so a reader who turns a policy
// on, or changes the attempts, waits for the runs that changed, not all of
// them (TestMemoSameResult holds the results to those computed whole).
//
// The zero value is an empty Memo ready to use; a nil *Memo keeps nothing.
// It holds at most MemoParts parts, the oldest dropped first. Not safe for
// concurrent use. The browser's playground keeps one per Go program;
// the command line, the API and the build keep none: each of their runs
// is the first.
type Memo struct {
	// parts holds a calculator's own type of part (the policies':
	// memoPart): any, so that the modules of the other calculators do
	// not link the policies' types with the Memo
	parts map[string]any
	order []string // keys, the oldest first
}

// MemoParts bounds a Memo: 64 policy runs, some 4.5 MB with their traces
// at the policies widget's defaults (0.57 MB live for its eight runs,
// measured with runtime.ReadMemStats after a collection).
const MemoParts = 64

type memoPart struct {
	res   policies.Result
	trace policies.Trace
}

func (m *Memo) get(key string) (any, bool) {
	if m == nil {
		return nil, false
	}
	p, ok := m.parts[key]
	return p, ok
}

func (m *Memo) put(key string, p any) {
	if m == nil {
		return
	}
	if m.parts == nil {
		m.parts = map[string]any{}
	}
	if _, ok := m.parts[key]; ok {
		m.parts[key] = p
		return
	}
	for len(m.order) >= MemoParts {
		delete(m.parts, m.order[0])
		m.order = m.order[1:]
	}
	m.parts[key] = p
	m.order = append(m.order, key)
}

// WithMemo returns a with m, which the calculators that keep parts of
// their runs (the policies calculator) read and fill. nil keeps nothing.
// It carries over to Vary's variant, as WithTrace does.
func (a Args) WithMemo(m *Memo) Args {
	a.memo = m
	return a
}

// policyKey is the key of p's run on s with seed and trace marks: every
// field of s that the run reads, as the exact text of its value.
func policyKey(s policies.Scenario, p policies.Policy, seed uint64, trace int) string {
	b := make([]byte, 0, 160)
	b = append(b, p...)
	b = append(b, '|')
	b = append(b, s.Loop...)
	b = append(b, '|')
	b = append(b, s.Trigger...)
	for _, v := range [...]float64{s.RatePerS, s.ThinkMS, s.ServiceMS, s.TimeoutMS,
		s.TriggerStartS, s.TriggerS, s.TriggerFactor, s.HorizonS, s.BinS} {
		b = strconv.AppendFloat(append(b, '|'), v, 'g', -1, 64)
	}
	attempts := 0 // the policy's own: the scenario's does not change its run
	if pre, _ := policies.Find(p); pre.Attempts == 0 {
		attempts = s.Attempts
	}
	for _, v := range [...]int{s.Clients, s.Slots, s.QueueCap, attempts, trace} {
		b = strconv.AppendInt(append(b, '|'), int64(v), 10)
	}
	b = strconv.AppendUint(append(b, '|'), seed, 10)
	return string(b)
}
