package retry

import (
	"errors"
	"strconv"
)

// Order is the order in which a shared retry budget hands out tokens.
type Order uint8

const (
	// Rounds gives every request that may still retry its next retry
	// before any request gets a later one, in request order.
	Rounds Order = iota
	// Depth serves request by request: each uses all the retries it can
	// before the next request gets any.
	Depth
)

// String returns "rounds" or "depth".
func (o Order) String() string {
	switch o {
	case Rounds:
		return "rounds"
	case Depth:
		return "depth"
	}
	return "Order(" + strconv.Itoa(int(uint8(o))) + ")"
}

// Budget describes a retry budget without refill. Every call fails. A
// first attempt costs no token; each retry takes one token, atomically,
// from the counter of the process that handles the request. Request i (from
// 0) is handled by process i mod Processes, and each process has its own
// counter of Tokens. The zero Processes means 1.
type Budget struct {
	Requests  int   // original requests, >= 0
	Attempts  int   // attempts allowed per request (1 first + Attempts-1 retries), >= 1
	Tokens    int64 // retry tokens per counter, >= 0
	Processes int   // local counters, >= 1 (0 means 1)
	Order     Order
}

// BudgetResult is what a Budget admits.
type BudgetResult struct {
	FirstAttempts int64 // = Requests
	Retries       int64 // retries admitted, over all processes
	TotalAttempts int64 // FirstAttempts + Retries
	Unbudgeted    int64 // Requests × Attempts: the attempts without a budget
	TokensLeft    int64 // tokens no retry used, over all processes
	// Histogram[i] is the number of requests that made i+1 attempts,
	// i = 0..Attempts-1.
	Histogram []int64
}

// Run computes the admitted attempts. It works per process in
// O(Attempts) time, so the cost is O(Processes × Attempts) whatever the
// number of requests and tokens.
func (b Budget) Run() (BudgetResult, error) {
	procs := b.Processes
	if procs == 0 {
		procs = 1
	}
	switch {
	case b.Requests < 0:
		return BudgetResult{}, errors.New("retry: negative requests")
	case b.Attempts < 1:
		return BudgetResult{}, errors.New("retry: attempts must be >= 1")
	case b.Tokens < 0:
		return BudgetResult{}, errors.New("retry: negative tokens")
	case procs < 0:
		return BudgetResult{}, errors.New("retry: negative processes")
	case b.Order != Rounds && b.Order != Depth:
		return BudgetResult{}, errors.New("retry: unknown order " + b.Order.String())
	}
	res := BudgetResult{
		FirstAttempts: int64(b.Requests),
		Unbudgeted:    int64(b.Requests) * int64(b.Attempts),
		Histogram:     make([]int64, b.Attempts),
	}
	hist := make([]int64, b.Attempts)
	for p := 0; p < procs && p < b.Requests; p++ {
		r := int64(b.Requests / procs)
		if p < b.Requests%procs {
			r++
		}
		left := b.processHistogram(r, hist)
		res.TokensLeft += left
		for i, h := range hist {
			res.Histogram[i] += h
		}
	}
	if b.Requests < procs { // processes with no request keep their tokens
		res.TokensLeft += int64(procs-b.Requests) * b.Tokens
	}
	for i, h := range res.Histogram {
		res.Retries += int64(i) * h
	}
	res.TotalAttempts = res.FirstAttempts + res.Retries
	return res, nil
}

// processHistogram fills hist with the attempts histogram of one process
// handling r requests and returns its unused tokens.
func (b Budget) processHistogram(r int64, hist []int64) int64 {
	clear(hist)
	tokens := b.Tokens
	retries := int64(b.Attempts - 1)
	if b.Order == Depth {
		if retries == 0 {
			hist[0] = r
			return tokens
		}
		full := min(r, tokens/retries) // requests that retry to the limit
		tokens -= full * retries
		hist[retries] += full
		rest := r - full
		if rest > 0 && tokens > 0 { // one request gets what is left
			hist[tokens]++
			rest--
			tokens = 0
		}
		hist[0] += rest
		return tokens
	}
	// Rounds: g is the number of requests that reached attempt j+1; in
	// round j+1 the first min(tokens, g) of them get one more attempt.
	g := r
	for j := int64(0); j < retries; j++ {
		next := min(tokens, g)
		tokens -= next
		hist[j] = g - next
		g = next
	}
	hist[retries] = g
	return tokens
}

// AttemptsOf returns the attempts request i (from 0) makes under b, for
// drawing one request at a time. It costs O(Attempts); i must be in
// [0, Requests).
func (b Budget) AttemptsOf(i int) int {
	procs := b.Processes
	if procs <= 0 {
		procs = 1
	}
	if i < 0 || i >= b.Requests || b.Attempts < 1 {
		return 0
	}
	pos := int64(i / procs) // position of i among its process's requests
	retries := int64(b.Attempts - 1)
	tokens := b.Tokens
	if b.Order == Depth {
		if retries == 0 {
			return 1
		}
		full := tokens / retries
		switch {
		case pos < full:
			return b.Attempts
		case pos == full:
			return 1 + int(tokens-full*retries)
		}
		return 1
	}
	r := int64(b.Requests / procs)
	if i%procs < b.Requests%procs {
		r++
	}
	g := r
	n := 1
	for j := int64(0); j < retries; j++ {
		next := min(tokens, g)
		tokens -= next
		g = next
		if pos >= g {
			break
		}
		n++
	}
	return n
}
