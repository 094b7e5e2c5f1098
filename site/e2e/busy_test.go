package e2e

import "testing"

// TestSpin: the busy loops work, and stop when told (the test ends).
func TestSpin(t *testing.T) {
	stop := Spin(2)
	stop()
	if spinSink.Load() == 0 {
		t.Error("the loops did no work")
	}
}
