package meter

import (
	"fmt"
	"testing"
)

// TestMeter: the Poll sees every unit added, in calls of at least Every
// units but the last, and the first true stops every later Add.
func TestMeter(t *testing.T) {
	tests := []struct {
		adds   []int
		stopAt int64 // the Poll answers true once the total reaches it (0: never)
		total  int64 // what the Poll was told in all
		calls  int
		stop   bool
	}{
		{adds: nil, total: 0, calls: 0},
		{adds: []int{1, 2, 3}, total: 6, calls: 1},
		{adds: []int{Every}, total: Every, calls: 1},
		{adds: []int{Every - 1, 1, 5}, total: Every + 5, calls: 2},
		{adds: []int{3 * Every, 1}, stopAt: 1, total: 3 * Every, calls: 1, stop: true},
		{adds: []int{Every, Every, Every}, stopAt: 2 * Every, total: 2 * Every, calls: 2, stop: true},
	}
	for _, tt := range tests {
		var total int64
		calls := 0
		m := New(func(n int64) bool {
			total += n
			calls++
			return tt.stopAt > 0 && total >= tt.stopAt
		})
		for _, k := range tt.adds {
			m.Add(k)
		}
		stop := m.Done()
		if total != tt.total || calls != tt.calls || stop != tt.stop || m.Stopped() != tt.stop {
			t.Errorf("%v stop at %d: told %d in %d calls, stopped %v; want %d in %d, %v", tt.adds, tt.stopAt, total, calls, stop, tt.total, tt.calls, tt.stop)
		}
	}
}

// TestNil: a nil Meter and one without a Poll count nothing and never stop.
func TestNil(t *testing.T) {
	for _, m := range []*Meter{nil, New(nil)} {
		if m.Add(10*Every) || m.Done() || m.Stopped() {
			t.Errorf("%v stopped", m)
		}
	}
}

func Example() {
	var work int64
	m := New(func(n int64) bool { work += n; return work >= 10000 })
	events := 0
	for events < 1e6 && !m.Add(1) {
		events++
	}
	m.Done()
	fmt.Println(events, work)
	// Output: 12287 12288
}
