package calc

import (
	"strings"

	"retrylab/core/standin/query"
)

// Canonical returns the canonical query of a: the parameters the caller
// set to something other than their default, in declaration order, as
// name=text pairs joined by '&', each text the canonical one Parse
// derived (shortest number spelling, "true"/"false", trimmed) and escaped
// as url.QueryEscape escapes it. Queries that Parse to the same values
// share it whatever their order, spelling or explicit defaults; it is ""
// at the defaults. The HTTP handler keys its ETag on it (site/server) and
// the Worker's edge cache on the same text (wasm/worker/edge).
func (a Args) Canonical() string {
	if a.calc == nil {
		return ""
	}
	var b strings.Builder
	for i := range a.calc.Params {
		p := &a.calc.Params[i]
		text, ok := a.raw[p.Name]
		if !ok {
			continue
		}
		if p.Default != "" {
			if _, def, err := p.parse(a.calc.Name, p.Default); err == nil && def == text {
				continue
			}
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(query.Escape(p.Name))
		b.WriteByte('=')
		b.WriteString(query.Escape(text))
	}
	return b.String()
}
