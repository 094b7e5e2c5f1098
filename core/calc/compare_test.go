package calc

import (
	"reflect"
	"testing"

	"retrylab/core/dispatch"
	"retrylab/core/errclass"
)

// TestNotComparable: these types carry a blank [0]func() field, so that
// they are not comparable and the compiler writes no equality function
// for them: a result converted to any, a struct the simulation allocates,
// each such function linked into the browser's module (together 4.8 KB of
// the rate-limits module as the build compresses it; README.md,
// "Size-driven replacements"). Nothing compares them.
func TestNotComparable(t *testing.T) {
	for _, typ := range []reflect.Type{
		reflect.TypeFor[ErrorsResult](), reflect.TypeFor[IdempotencyResult](), reflect.TypeFor[LimitsResult](),
		reflect.TypeFor[CapacityResult](), reflect.TypeFor[EstimateResult](), reflect.TypeFor[ConcurrencyResult](),
		reflect.TypeFor[dispatch.Config](), reflect.TypeFor[errclass.Entry](),
	} {
		if typ.Comparable() {
			t.Errorf("%s is comparable: its equality function is back in the browser's module", typ)
		}
	}
}
