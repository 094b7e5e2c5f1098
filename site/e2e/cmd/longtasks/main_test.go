package main

import (
	"testing"
)

func TestPhase(t *testing.T) {
	marks := []mark{{"app", 100}, {"wasm_exec", 300}, {"compiled", 500}, {"main", 800}}
	for _, tc := range []struct {
		t             task
		before, after string
	}{
		{task{start: 10, dur: 60}, "navigation", "app"},
		{task{start: 100, dur: 60}, "app", "wasm_exec"},
		{task{start: 250, dur: 100}, "app", "wasm_exec (inside)"},
		{task{start: 900, dur: 100}, "main", "—"},
	} {
		b, a := phase(marks, tc.t)
		if b != tc.before || a != tc.after {
			t.Errorf("task at %v for %v: %q, %q; want %q, %q", tc.t.start, tc.t.dur, b, a, tc.before, tc.after)
		}
	}
}

// TestParse: what the page returns is read without a panic, whatever its
// shape; entries of the wrong shape are left out.
func TestParse(t *testing.T) {
	if _, err := parse([]any{1, 2}); err == nil {
		t.Error("a reading of 2 parts: no error")
	}
	r, err := parse([]any{
		[]any{[]any{200.0, 80.0, "window"}, []any{"bad"}, []any{100.0, 60.0, "window"}},
		[]any{[]any{190.0, 100.0, 20.0, "x.js 50 ms"}, "bad"},
		[]any{[]any{"retrylab:main", 250.0}, []any{"retrylab:app", 50.0}, 7},
		"true",
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.tasks) != 2 || r.tasks[0].start != 100 || len(r.frames) != 1 || len(r.marks) != 2 || r.marks[0].name != "app" || r.ready != "true" {
		t.Errorf("parsed %+v", r)
	}
}
