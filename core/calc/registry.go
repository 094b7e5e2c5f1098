package calc

import (
	"strings"
)

// Registry is the set of calculators, in the order the reference page and
// `retrylab calc` list them. It is immutable once built.
type Registry struct {
	list []*Calculator
}

// New returns the registry of every calculator of the articles.
func New() *Registry {
	var list []*Calculator
	list = append(list, article1()...)
	list = append(list, article2()...)
	list = append(list, article3()...)
	return &Registry{list: list}
}

// Retries returns the registry of the calculators of the article on
// retries (attempts, amplification, budget, jitter, deadline, peak), in
// the order New lists them. A program that builds only this registry
// links none of the other calculators' code: the playground's module for
// the pages of that article is smaller (wasm/playground/retries).
func Retries() *Registry { return &Registry{list: article1()} }

// RateLimits returns the registry of the calculators of the article on
// rate limits (limits, capacity, concurrency, backoff, idempotency-key,
// dispatch, errors, timeouts, estimate), in the order New lists them; see Retries.
func RateLimits() *Registry { return &Registry{list: article2()} }

// Policies returns the registry of the calculators of the article on the
// retry policies of real systems (policies), in the order New lists them;
// see Retries.
func Policies() *Registry { return &Registry{list: article3()} }

// List returns the calculators in order. The caller must not modify them.
func (r *Registry) List() []*Calculator { return r.list }

// Lookup returns the calculator called name.
func (r *Registry) Lookup(name string) (*Calculator, bool) {
	for _, c := range r.list {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// Names returns the calculators' names, comma-separated.
func (r *Registry) Names() string {
	names := make([]string, len(r.list))
	for i, c := range r.list {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// Compute runs calculator name on values; an unknown name is a
// CodeUnknownCalc *Error.
func (r *Registry) Compute(name string, values map[string][]string) (any, error) {
	c, ok := r.Lookup(name)
	if !ok {
		return nil, r.UnknownError(name)
	}
	return c.Compute(values)
}

// UnknownError is the error for a calculator name that does not exist.
func (r *Registry) UnknownError(name string) *Error {
	return newError("", "", CodeUnknownCalc, map[string]string{"name": quote(name), "names": r.Names()})
}
