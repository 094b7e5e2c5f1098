package retry

import (
	"errors"
	"math"
	"testing"
)

// TestMessages pins every error message byte for byte (they were written
// with fmt; the package builds them with strconv so that the browser's
// module does not link fmt), and that a tree too large still wraps
// ErrTreeTooLarge.
func TestMessages(t *testing.T) {
	huge, err := Amplify([]int{100, 100, 100, 100, 100, 100, 100, 100, 100, 100})
	if err != nil {
		t.Fatal(err)
	}
	small, err := Amplify([]int{3, 3, 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		err      error
		want     string
		tooLarge bool
	}{
		{"Amplify nil", second(Amplify(nil)), "retry: no layers", false},
		{"Amplify 3,0", second(Amplify([]int{3, 0})), "retry: layer 1 makes 0 attempts, want >= 1", false},
		{"Amplify -1", second(Amplify([]int{-1})), "retry: layer 0 makes -1 attempts, want >= 1", false},
		{"Amplify 2,2,-9223372036854775808", second(Amplify([]int{2, 2, math.MinInt64})), "retry: layer 2 makes -9223372036854775808 attempts, want >= 1", false},
		{"Tree 3,3,3 at most 39", second(small.Tree(39)), "retry: call tree too large to draw: 40 nodes, at most 39", true},
		{"Tree 3,3,3 at most -1", second(small.Tree(-1)), "retry: call tree too large to draw: 40 nodes, at most -1", true},
		{"Tree 100^10", second(huge.Tree(400)), "retry: call tree too large to draw: 101010101010101010101 nodes, at most 400", true},
		{"Budget order 2", second(Budget{Requests: 1, Attempts: 1, Order: 2}.Run()), "retry: unknown order Order(2)", false},
		{"Budget order 255", second(Budget{Requests: 1, Attempts: 1, Order: 255}.Run()), "retry: unknown order Order(255)", false},
		{"Deadline 1 wait for 3", second(Deadline{Attempts: 3, WaitsMS: []float64{1}, TimeoutMS: 1, DeadlineMS: 1}.Run()), "retry: 1 waits for 3 attempts, want 2", false},
		{"Deadline 2 waits for 1", second(Deadline{Attempts: 1, WaitsMS: []float64{1, 2}, TimeoutMS: 1, DeadlineMS: 1}.Run()), "retry: 2 waits for 1 attempts, want 0", false},
		{"Deadline wait NaN", second(Deadline{Attempts: 3, WaitsMS: []float64{0, math.NaN()}, TimeoutMS: 1, DeadlineMS: 1}.Run()), "retry: wait 1 must be finite and >= 0", false},
		{"Deadline wait -1", second(Deadline{Attempts: 2, WaitsMS: []float64{-1}, TimeoutMS: 1, DeadlineMS: 1}.Run()), "retry: wait 0 must be finite and >= 0", false},
	} {
		if c.err == nil {
			t.Errorf("%s: no error, want %q", c.name, c.want)
			continue
		}
		if got := c.err.Error(); got != c.want {
			t.Errorf("%s:\n got  %q\n want %q", c.name, got, c.want)
		}
		if errors.Is(c.err, ErrTreeTooLarge) != c.tooLarge {
			t.Errorf("%s: errors.Is(err, ErrTreeTooLarge) = %v", c.name, !c.tooLarge)
		}
	}
	for _, c := range []struct {
		o    Order
		want string
	}{{Rounds, "rounds"}, {Depth, "depth"}, {2, "Order(2)"}, {200, "Order(200)"}} {
		if got := c.o.String(); got != c.want {
			t.Errorf("Order %d: %q, want %q", uint8(c.o), got, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }
