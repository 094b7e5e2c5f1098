package jitter

import (
	"testing"

	"retrylab/core/pyrand"
)

// TestMessages pins the messages that carry values byte for byte (they
// were written with fmt; the package builds them with strconv so that the
// browser's module does not link fmt).
func TestMessages(t *testing.T) {
	for _, c := range []struct {
		s    Strategy
		want string
	}{{Fixed, "fixed"}, {Decorrelated, "decorrelated"}, {4, "Strategy(4)"}, {255, "Strategy(255)"}} {
		if got := c.s.String(); got != c.want {
			t.Errorf("Strategy %d: %q, want %q", uint8(c.s), got, c.want)
		}
	}
	good := Config{Clients: 1, Waves: 1, BaseMS: 100, WidthMS: 10}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Clients: 1, Waves: 1, BaseMS: 100, WidthMS: 10, Strategy: 4}, "jitter: unknown strategy Strategy(4)"},
		{Config{Clients: 1, Waves: 1, BaseMS: 100, WidthMS: 10, Strategy: 200}, "jitter: unknown strategy Strategy(200)"},
		{Config{Clients: 1, Waves: 1, BaseMS: 1e6, WidthMS: 1e-3}, "jitter: 1000000000 bins is too many"},
		{Config{Clients: 1, Waves: 1, BaseMS: 1 << 27, WidthMS: 1}, "jitter: 134217729 bins is too many"},
		{Config{Clients: 1, Waves: 1, BaseMS: 1e12, WidthMS: 1e-3}, "jitter: 9223372036854775807 bins is too many"},
	} {
		_, err := Run(c.cfg, pyrand.NewInt64(1))
		if err == nil {
			t.Errorf("%+v: no error, want %q", c.cfg, c.want)
			continue
		}
		if got := err.Error(); got != c.want {
			t.Errorf("%+v:\n got  %q\n want %q", c.cfg, got, c.want)
		}
	}
	if _, err := Run(good, pyrand.NewInt64(1)); err != nil {
		t.Errorf("%+v: %v", good, err)
	}
}
