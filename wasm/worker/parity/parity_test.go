package parity

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"retrylab/core/calc"
)

// TestBadIsBad checks the table against the registry itself: every bad
// request is refused, naming the parameter the table says.
func TestBadIsBad(t *testing.T) {
	reg := calc.New()
	for _, c := range reg.List() {
		bad := Bad(c)
		if len(bad) < len(c.Params)+1 {
			t.Errorf("%s: %d bad requests for %d parameters", c.Name, len(bad), len(c.Params))
		}
		for _, r := range bad {
			_, err := c.Compute(r.Query)
			var ce *calc.Error
			if !errors.As(err, &ce) {
				t.Errorf("%s: accepted (err %v), want a *calc.Error", r.Path(), err)
				continue
			}
			if ce.Param != r.Bad {
				t.Errorf("%s: error names %q, want %q", r.Path(), ce.Param, r.Bad)
			}
		}
	}
}

// TestGoodParse checks that every good request passes the parameters'
// own checks (a rule linking parameters may still refuse it at Run).
func TestGoodParse(t *testing.T) {
	for _, c := range calc.New().List() {
		good := Good(c)
		if len(good) < 1+len(c.Params) {
			t.Errorf("%s: %d good requests for %d parameters", c.Name, len(good), len(c.Params))
		}
		for _, r := range good {
			if _, err := c.Parse(r.Query); err != nil {
				t.Errorf("%s: %v", r.Path(), err)
			}
		}
	}
}

func TestAlternatives(t *testing.T) {
	for _, tc := range []struct {
		p    calc.Param
		want string
	}{
		{calc.Param{Name: "q", Kind: calc.Float, Default: "0.5", Min: calc.Incl(0), Max: calc.Incl(1)}, "1"},
		{calc.Param{Name: "q", Kind: calc.Float, Default: "0.9", Min: calc.Incl(0), Max: calc.Incl(1)}, "0.45"},
		{calc.Param{Name: "n", Kind: calc.Int, Default: "3", Min: calc.Incl(1), Max: calc.Incl(1000)}, "6"},
		{calc.Param{Name: "n", Kind: calc.Int, Default: "1", Min: calc.Incl(1), Max: calc.Incl(1)}, ""},
		{calc.Param{Name: "a", Kind: calc.IntList, Default: "3,3,3", Min: calc.Incl(1), Max: calc.Incl(100)}, "3,3,6"},
		{calc.Param{Name: "s", Kind: calc.Choice, Default: "full", Choices: []string{"fixed", "full", "equal"}}, "fixed|equal"},
		{calc.Param{Name: "j", Kind: calc.Bool, Default: "true"}, "false"},
	} {
		if got := strings.Join(alternatives(tc.p), "|"); got != tc.want {
			t.Errorf("alternatives(%s %s=%s) = %q, want %q", tc.p.Kind, tc.p.Name, tc.p.Default, got, tc.want)
		}
	}
}

func TestPath(t *testing.T) {
	r := Request{Calc: "attempts", Query: url.Values{"q": {"0.9"}, "n": {"5"}}}
	if got := r.Path(); got != "/api/v1/attempts?n=5&q=0.9" {
		t.Errorf("Path = %q", got)
	}
	if got := (Request{Calc: "peak"}).Path(); got != "/api/v1/peak" {
		t.Errorf("Path = %q", got)
	}
}

func TestMix(t *testing.T) {
	reg := calc.New()
	mix := Mix(reg, []string{"/", "/it/"})
	if len(mix) != 2+len(reg.List())+2 {
		t.Fatalf("Mix has %d targets", len(mix))
	}
	statuses := map[int]int{}
	for _, m := range mix {
		statuses[m.Status]++
	}
	if statuses[400] != 1 || statuses[404] != 1 || statuses[200] != 2+len(reg.List()) {
		t.Errorf("statuses %v", statuses)
	}
}
