package calc

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"retrylab/core/dispatch"
)

// refusal is a bad input to a calculator and the *Error it must give.
type refusal struct {
	calc  string
	pairs []string
	param string
	code  Code
}

// checkRefusals runs every refusal through compute: the error is an
// *Error naming the parameter, with the code, an English one-line
// message that names the parameter and, for a refusal of too much work
// (calc.Refuse), the translation key of its detail.
func checkRefusals(t *testing.T, compute func(calc string, pairs []string) error, tests []refusal) {
	t.Helper()
	for _, tt := range tests {
		err := compute(tt.calc, tt.pairs)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s %v: err = %v, want an *Error", tt.calc, short(tt.pairs), err)
			continue
		}
		if e.Param != tt.param || e.Code != tt.code || !strings.Contains(e.Message, tt.param) || strings.Contains(e.Message, "\n") {
			t.Errorf("%s %v: param %q code %s message %q; want %s, %s", tt.calc, short(tt.pairs), e.Param, e.Code, e.Message, tt.param, tt.code)
		}
		if tt.code == CodeWork && e.Vars["detail_key"] == "" {
			t.Errorf("%s %v: work refusal without detail key", tt.calc, short(tt.pairs))
		}
	}
}

// short shortens each pair to 40 bytes for a message.
func short(pairs []string) []string {
	out := make([]string, len(pairs))
	for i, p := range pairs {
		if len(p) > 40 {
			p = p[:40] + "…"
		}
		out[i] = p
	}
	return out
}

// TestUnknownParamSmallest: with several unknown names, Parse names the
// smallest (byte order), whatever the map's order, with every name a
// reader can see in the message.
func TestUnknownParamSmallest(t *testing.T) {
	c, _ := New().Lookup("attempts")
	tests := []struct {
		values map[string][]string
		want   string
	}{
		{map[string][]string{"zz": {"1"}}, "zz"},
		{map[string][]string{"zz": {"1"}, "b": {"1"}, "q": {"0.5"}, "B": {"1"}, "é": {"1"}}, "B"},
		{map[string][]string{"": {"1"}, "a": {"1"}}, ""},
		{map[string][]string{"qq": {"1"}, "q ": {"1"}, "q\xff": {"1"}, "n": {"3"}}, "q "},
	}
	for _, tt := range tests {
		for range 20 { // map order varies from run to run
			_, err := c.Parse(tt.values)
			e, ok := errors.AsType[*Error](err)
			if !ok || e.Code != CodeUnknownParam || e.Param != tt.want {
				t.Fatalf("Parse(%q) = %v, want unknown_param %q", tt.values, err, tt.want)
			}
		}
	}
}

// TestDispatchParam: every field of core/dispatch's Config that a
// FieldError can name maps to a parameter of the dispatch calculator
// (Fallback and Idempotency, booleans, are never refused; CapS has no
// rule of its own), and the names are the calculator's own.
func TestDispatchParam(t *testing.T) {
	c, _ := New().Lookup("dispatch")
	unmapped := map[string]bool{"Fallback": true, "Idempotency": true, "CapS": true, "RetryAfterDate": true}
	typ := reflect.TypeFor[dispatch.Config]()
	for i := range typ.NumField() {
		if !typ.Field(i).IsExported() {
			continue // the blank field that keeps Config from being comparable
		}
		field := typ.Field(i).Name
		name := dispatchParam(field)
		if unmapped[field] {
			if name != "" {
				t.Errorf("dispatchParam(%q) = %q, want none", field, name)
			}
			continue
		}
		if name == "" || c.Param(name) == nil {
			t.Errorf("dispatchParam(%q) = %q, not a parameter of dispatch", field, name)
		}
	}
	if got := dispatchParam("NoSuchField"); got != "" {
		t.Errorf("dispatchParam(NoSuchField) = %q", got)
	}
}
