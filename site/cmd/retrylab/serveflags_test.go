package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestServeBadFlags: the lanes' and the work scale's flags refuse what
// they cannot mean, with exit 2 and one line naming the flag, before
// anything listens.
func TestServeBadFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		flag string
	}{
		{[]string{"-cheap-inflight", "-1"}, "-cheap-inflight"},
		{[]string{"-work-scale", "0"}, "-work-scale"},
		{[]string{"-work-scale", "101"}, "-work-scale"},
		{[]string{"-work-scale", "NaN"}, "-work-scale"},
		{[]string{"-max-inflight", "0"}, "-max-inflight"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"serve", "-addr", "127.0.0.1:0", "-dist", t.TempDir()}, tt.args...), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), tt.flag) || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want 2 and one line naming %s", tt.args, code, errb.String(), tt.flag)
		}
	}
}
