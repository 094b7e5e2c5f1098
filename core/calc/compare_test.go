package calc

import (
	"reflect"
	"testing"

	"retrylab/core/backoff"
	"retrylab/core/dispatch"
	"retrylab/core/errclass"
	"retrylab/core/limits"
)

// TestNotComparable: these types carry a blank standin.NoEqual field, so that
// they are not comparable and the compiler writes no equality function
// for them: a result converted to any, a struct the simulation allocates,
// each such function linked into the browser's module (together 4.8 KB of
// the rate-limits module as the build compresses it, 1 KB more with
// backoff.Config, limits.Limiter and a few unexported types of
// core/dispatch, site/widget and wasm/playground). Nothing compares them.
func TestNotComparable(t *testing.T) {
	for _, typ := range []reflect.Type{
		reflect.TypeFor[ErrorsResult](), reflect.TypeFor[IdempotencyResult](), reflect.TypeFor[LimitsResult](),
		reflect.TypeFor[CapacityResult](), reflect.TypeFor[EstimateResult](), reflect.TypeFor[ConcurrencyResult](),
		reflect.TypeFor[dispatch.Config](), reflect.TypeFor[errclass.Entry](), reflect.TypeFor[backoff.Config](),
		reflect.TypeFor[limits.Limiter](),
	} {
		if typ.Comparable() {
			t.Errorf("%s is comparable: its equality function is back in the browser's module", typ)
		}
	}
}
