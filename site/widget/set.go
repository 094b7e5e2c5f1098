package widget

import (
	"strings"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// A Set is a group of calculators with the views that draw their results:
// what one WebAssembly module of the playground holds
// (wasm/playground/NAME, compiled by build.sh). A module built on a
// smaller set links only the code of its calculators and of their views,
// so a reader of one article downloads that article's experiments and
// not the other's. The build gives each page the first set of Sets that
// holds all of the page's calculators (For), or, to a page that mixes the
// articles' experiments (the playground), the set of each of its
// calculators, one module per article. Sets are immutable; a nil *Set
// holds nothing.
type Set struct {
	name  string
	reg   *calc.Registry
	views viewTable
	enc   encoder // of the results of reg's calculators
}

// Retries is the set of the article on retries (calc.Retries).
func Retries() *Set {
	return &Set{name: "retries", reg: calc.Retries(), views: retriesViewTable(), enc: encodeRetries}
}

// RateLimits is the set of the article on rate limits (calc.RateLimits).
func RateLimits() *Set {
	return &Set{name: "rate-limits", reg: calc.RateLimits(), views: rateLimitsViewTable(), enc: encodeRateLimits}
}

// Policies is the set of the article on the retry policies of real
// systems (calc.Policies).
func Policies() *Set {
	return &Set{name: "policies", reg: calc.Policies(), views: policiesViewTable(), enc: encodePolicies}
}

// BackoffWork is the set of the article on what backoff is for
// (calc.BackoffWork).
func BackoffWork() *Set {
	return &Set{name: "backoff-work", reg: calc.BackoffWork(), views: backoffWorkViewTable(), enc: encodeBackoffWork}
}

// All is the set of every calculator (calc.New): what the build renders
// and the server and the embeds' SVG draw with. No module is built from
// it: it would be larger than the budget of issue 16 (1,050 KB gzip),
// and a page that mixes the articles' experiments loads the module of
// each article instead.
func All() *Set { return &Set{name: "all", reg: calc.New(), views: allViews(), enc: encodeResult} }

// Sets returns every set a module is built from, one per article of
// calc.Articles, in the order in which a page picks its module (For).
func Sets() []*Set { return []*Set{Retries(), RateLimits(), Policies(), BackoffWork()} }

// For returns the first of Sets that holds every calculator named, or nil
// when none does (the names mix articles, or one is no calculator at all). No names: nil (a page
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

// Views returns every view name calculator c offers: "table", its
// specialised views (none when the set does not hold c) and "bars".
func (s *Set) Views(c *calc.Calculator) []string { return s.table().names(c) }

// DefaultViews returns the views a widget of c shows when the page names
// none: its table and its specialised charts, or the table and the
// generic chart of its numeric lists.
func (s *Set) DefaultViews(c *calc.Calculator) []string { return s.table().defaults(c) }

// CheckViews reports a view name that c does not offer.
func (s *Set) CheckViews(c *calc.Calculator, names []string) error {
	return s.table().check(c, names)
}

// RunArgs returns the arguments to run c with when its output shows
// viewNames (none: the default set): a, with the trace that a view among
// them draws (calc.Args.WithTrace) when one does. Run c on them before
// RenderOutput.
func (s *Set) RunArgs(c *calc.Calculator, a calc.Args, viewNames []string) calc.Args {
	return s.table().runArgs(c, a, viewNames)
}

// RunArgs is Set.RunArgs over every calculator's views (All).
func RunArgs(c *calc.Calculator, a calc.Args, viewNames []string) calc.Args {
	return allViews().runArgs(c, a, viewNames)
}

// RenderOutput writes the output of a widget: for each view in order, the
// results table or a chart, computed from res (what c.Run(a) returned, a
// being RunArgs's, or
// its Encoded form). Every shown field sits in an element with
// data-out="FIELD" and data-value holding its JSON
// (wasm/playground/DOM.md). An unknown view name is skipped; a view that
// cannot be drawn from this result says so in a note. A result of a type
// the set's calculators do not return is an error, unless it comes
// Encoded.
func (s *Set) RenderOutput(c *calc.Calculator, a calc.Args, res any, viewNames []string, loc locale.Locale) (string, error) {
	return s.table().render(s.encoder(), c, a, res, viewNames, loc, nil)
}

// RenderOutputVariant is RenderOutput, and also returns what Variant(c,
// a, viewNames) returns when the output ran it: the result of the
// comparison's variant, in its Encoded form, and ok true, when its view
// was drawn from a run without error; ok false otherwise (no comparison,
// or it failed: call Variant). A recompute that cites the variant
// ({=ID.compare.FIELD}) then runs and encodes it once, not twice (the
// playground's evaluate).
func (s *Set) RenderOutputVariant(c *calc.Calculator, a calc.Args, res any, viewNames []string, loc locale.Locale) (html string, variant any, ok bool, err error) {
	var keep variantRun
	html, err = s.table().render(s.encoder(), c, a, res, viewNames, loc, &keep)
	if err != nil {
		return "", nil, false, err
	}
	// Variant runs the first comparison of viewNames: keep's only if it
	// is the same
	for _, v := range viewNames {
		if spec, isCmp := strings.CutPrefix(v, comparePrefix); isCmp {
			if keep.done && keep.spec == spec {
				return html, keep.res, true, nil
			}
			break
		}
	}
	return html, nil, false, nil
}

// Encode encodes res, a result of a calculator of the set, to JSON once
// and marks its top-level fields, for RenderOutput and Cite.
func (s *Set) Encode(res any) (Encoded, error) {
	r, err := encodeWith(s.encoder(), res)
	if err != nil {
		return Encoded{}, err
	}
	return Encoded{r}, nil
}

// Cite returns the text and the JSON value of a citation {=ID.FIELD|FORMAT}
// of res, a result of a calculator of the set or its Encoded form
// (content/README.md): field is "NAME" or "NAME[i]"; format is
// "" (integers grouped, other numbers to locale.NumberDigits significant digits,
// scientific below 10^-4; booleans yes/no; lists in the list style), "N"
// (N decimals), "%N" (percentage with N decimals), "eN" (scientific, N
// significant digits), "list" or "yesno". The text is plain (not
// HTML-escaped). A field the result lacks, an index out of range or a
// format that does not fit the value is an error naming them. A text field
// cited whole in the default format is one of the calculator's
// enumerations (limits' binding: rpm, tpm, both) and reads as its label
// field.CALC.NAME.VALUE, as in the widget's table; c nil leaves it as it is.
func (s *Set) Cite(c *calc.Calculator, res any, fieldSpec, format string, loc locale.Locale) (text, value string, err error) {
	r, err := encodeWith(s.encoder(), res)
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
		return func(*jsonEnc, any) bool { return false }
	}
	return s.enc
}
