package calc

import (
	"errors"
	"strings"
	"testing"
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
