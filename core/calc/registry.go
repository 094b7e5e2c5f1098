package calc

import (
	"strings"
)

// The lists of each article's calculators (article1, article2, …) are
// written by articlegen from the //retrylab:calculator line in the doc
// comment of each calculator's declaration.
//go:generate go run ./internal/articlegen -o articles_gen.go

// Registry is the set of calculators, in the order the reference page and
// `retrylab calc` list them. It is immutable once built.
type Registry struct {
	list []*Calculator
}

// An Article is one article of the site and its calculators. Articles
// is the one declaration of which calculator belongs to which article:
// the calculators' Article numbers, the playground's modules and their
// sets (site/widget.Sets, wasm/playground/SLUG), the generated encoders
// (site/widget/internal/encgen) and the worksheet (site/classroom) follow
// it.
type Article struct {
	Number int    // 1, 2, 3: Calculator.Article of its calculators
	Slug   string // its page (content/LANG/SLUG.md) and its module's name (wasm/playground/SLUG)
	// Registry returns its calculators (Retries, RateLimits, Policies). A program
	// that calls one of these functions, not Articles, links only that
	// article's calculators.
	Registry func() *Registry
}

// Articles returns the articles in order.
func Articles() []Article {
	return []Article{
		{Number: 1, Slug: "retries", Registry: Retries},
		{Number: 2, Slug: "rate-limits", Registry: RateLimits},
		{Number: 3, Slug: "policies", Registry: Policies},
		{Number: 4, Slug: "backoff-work", Registry: BackoffWork},
	}
}

// New returns the registry of every calculator of the articles.
func New() *Registry {
	var list []*Calculator
	list = append(list, article1()...)
	list = append(list, article2()...)
	list = append(list, article3()...)
	list = append(list, article4()...)
	return &Registry{list: list}
}

// Retries returns the registry of the calculators of the article on
// retries (article1), in the order New lists them. A program that builds
// only this registry links none of the other calculators' code: the
// playground's module for the pages of that article is smaller
// (wasm/playground/retries).
func Retries() *Registry { return &Registry{list: article1()} }

// RateLimits returns the registry of the calculators of the article on
// rate limits (article2), in the order New lists them; see Retries.
func RateLimits() *Registry { return &Registry{list: article2()} }

// Policies returns the registry of the calculators of the article on the
// retry policies of real systems (article3), in the order New lists them;
// see Retries.
func Policies() *Registry { return &Registry{list: article3()} }

// inArticle sets the Article number of the calculators of article n.
func inArticle(n int, list ...*Calculator) []*Calculator {
	for _, c := range list {
		c.Article = n
	}
	return list
}

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

// BackoffWork returns the registry of the calculators of the article on
// what backoff is for (article4), in the order New lists them; see
// Retries.
func BackoffWork() *Registry { return &Registry{list: article4()} }
