package widget

import (
	"retrylab/core/calc"
	"retrylab/site/locale"
)

// A Set is a group of calculators with the views that draw their results:
// what one WebAssembly module of the playground holds
// (wasm/playground/NAME, compiled by build.sh). A module built on a
// smaller set links only the code of its calculators and of their views,
// so a reader of one article downloads that article's experiments and
// not the other's. The build gives each page the first set of Sets that
// holds all of the page's calculators (For). Sets are immutable; a nil
// *Set holds nothing.
type Set struct {
	name  string
	reg   *calc.Registry
	views viewTable
	enc   encoder // of the results of reg's calculators
}

// Retries is the set of the article on retries (calc.Retries).
func Retries() *Set {
	return &Set{name: "retries", reg: calc.Retries(), views: retriesViews(), enc: encodeRetries}
}

// RateLimits is the set of the article on rate limits (calc.RateLimits).
func RateLimits() *Set {
	return &Set{name: "rate-limits", reg: calc.RateLimits(), views: rateLimitsViews(), enc: encodeRateLimits}
}

// Policies is the set of the article on the retry policies of real
// systems (calc.Policies).
func Policies() *Set {
	return &Set{name: "policies", reg: calc.Policies(), views: policiesViews(), enc: encodePolicies}
}

// All is the set of every calculator (calc.New): the module of a page
// that mixes the articles' experiments.
func All() *Set { return &Set{name: "all", reg: calc.New(), views: allViews(), enc: encodeResult} }

// Sets returns every set a module is built from, in the order in which a
// page picks its module (For): the articles' sets first, All last.
func Sets() []*Set { return []*Set{Retries(), RateLimits(), Policies(), All()} }

// For returns the first of Sets that holds every calculator named, or nil
// when one of the names is no calculator at all. No names: nil (a page
// without widgets loads no module).
func For(names []string) *Set {
	if len(names) == 0 {
		return nil
	}
	for _, s := range Sets() {
		if s.HoldsAll(names) {
			return s
		}
	}
	return nil
}

// Name is the set's name: its module is wasm/playground/NAME, built to
// playground-NAME.wasm.
func (s *Set) Name() string {
	if s == nil {
		return ""
	}
	return s.name
}

// Registry returns the set's calculators.
func (s *Set) Registry() *calc.Registry {
	if s == nil {
		return &calc.Registry{}
	}
	return s.reg
}

// Holds reports whether calculator name is in the set.
func (s *Set) Holds(name string) bool {
	_, ok := s.Registry().Lookup(name)
	return ok
}

// HoldsAll reports whether every calculator named is in the set.
func (s *Set) HoldsAll(names []string) bool {
	for _, n := range names {
		if !s.Holds(n) {
			return false
		}
	}
	return true
}

// Views is Views for a calculator of the set.
func (s *Set) Views(c *calc.Calculator) []string { return s.table().names(c) }

// DefaultViews is DefaultViews for a calculator of the set.
func (s *Set) DefaultViews(c *calc.Calculator) []string { return s.table().defaults(c) }

// CheckViews is CheckViews for a calculator of the set.
func (s *Set) CheckViews(c *calc.Calculator, names []string) error {
	return s.table().check(c, names)
}

// RenderOutput is RenderOutput for a calculator of the set: a calculator
// the set does not hold has only the table and the generic bars, and its
// result must come Decoded or as JSON (a json.Marshaler).
func (s *Set) RenderOutput(c *calc.Calculator, a calc.Args, res any, viewNames []string, loc locale.Locale) (string, error) {
	return s.table().render(s.encoder(), c, a, res, viewNames, loc)
}

// Decode is Decode for a result of a calculator of the set.
func (s *Set) Decode(res any) (Decoded, error) {
	r, err := decodeWith(s.encoder(), res)
	if err != nil {
		return Decoded{}, err
	}
	return Decoded{r}, nil
}

// Cite is Cite for a result of a calculator of the set.
func (s *Set) Cite(c *calc.Calculator, res any, fieldSpec, format string, loc locale.Locale) (text, value string, err error) {
	r, err := decodeWith(s.encoder(), res)
	if err != nil {
		return "", "", err
	}
	return r.cite(c, fieldSpec, format, loc)
}

func (s *Set) table() viewTable {
	if s == nil {
		return nil
	}
	return s.views
}

// encoder is the set's encoders; the nil set encodes no type of its own.
func (s *Set) encoder() encoder {
	if s == nil {
		return func(b []byte, _ any) ([]byte, bool, error) { return b, false, nil }
	}
	return s.enc
}

// retriesViews is the view table of the article on retries.
func retriesViews() viewTable {
	return viewTable{
		"attempts":      {{"curve", attemptsCurve, false}},
		"amplification": {{"tree", amplificationTree, false}, {"play", amplificationPlay, false}},
		"budget":        {{"histogram", budgetHistogram, false}, {"tokens", budgetTokens, false}},
		"jitter":        {{"histogram", jitterHistogram, false}, {"play", jitterPlay, false}},
		"deadline":      {{"timeline", deadlineTimeline, false}, {"play", deadlinePlay, false}},
		"peak":          {{"distribution", peakDistribution, false}, {"bin", peakBin, true}},
	}
}

// rateLimitsViews is the view table of the article on rate limits
// (capacity, concurrency and idempotency-key have only the generic
// views).
func rateLimitsViews() viewTable {
	return viewTable{
		"limits":   {{"utilization", limitsUtilization, false}},
		"backoff":  {{"arrivals", backoffArrivals, false}, {"play", backoffPlay, false}},
		"dispatch": {{"queue", dispatchQueue, false}, {"play", dispatchPlay, false}},
	}
}

// policiesViews is the view table of the article on retry policies.
func policiesViews() viewTable {
	return viewTable{
		"policies": {{"summary", policiesSummary, false}, {"compare", policiesCompare, false}, {"timeline", policiesTimeline, false}, {"queue", policiesQueue, true}, {"play", policiesPlay, false}},
	}
}
