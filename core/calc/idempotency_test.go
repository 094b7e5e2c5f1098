package calc

import "testing"

// TestIdempotencySeparator: tenant a:b with task c and tenant a with task
// b:c would share the key a:b:c:…; the separator is refused in either,
// naming the parameter, so that two different operations never share a
// key (issue 28).
func TestIdempotencySeparator(t *testing.T) {
	checkRefusals(t, func(name string, pairs []string) error {
		_, err := New().Compute(name, pairsValues(pairs))
		return err
	}, []refusal{
		{"idempotency-key", []string{"tenant=a:b", "task=c"}, "tenant", CodeConstraint},
		{"idempotency-key", []string{"tenant=a", "task=b:c"}, "task", CodeConstraint},
		{"idempotency-key", []string{"tenant=:", "task=:"}, "tenant", CodeConstraint},
		{"idempotency-key", []string{"task=x:"}, "task", CodeConstraint},
	})
	keys := map[string]string{}
	for _, tt := range [][2]string{{"a", "b"}, {"a", "bc"}, {"ab", "c"}, {"a-b", "c"}, {"a", "b-c"}} {
		r, err := New().Compute("idempotency-key", pairsValues([]string{"tenant=" + tt[0], "task=" + tt[1]}))
		if err != nil {
			t.Fatal(err)
		}
		k := r.(IdempotencyResult).Key
		if prev, ok := keys[k]; ok {
			t.Errorf("%v and %s share the key %s", tt, prev, k)
		}
		keys[k] = tt[0] + "/" + tt[1]
	}
}
