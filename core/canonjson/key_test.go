package canonjson

import (
	"errors"
	"testing"
)

// TestKeySeparator: the separator in tenant or task is refused, naming the
// field; without it, different (tenant, task) give different keys.
func TestKeySeparator(t *testing.T) {
	for _, tt := range []struct{ tenant, task, field string }{
		{"a:b", "c", "tenant"}, {"a", "b:c", "task"}, {":", "", "tenant"}, {"", ":", "task"},
	} {
		_, _, err := Key(tt.tenant, tt.task, []byte(`{}`))
		e, ok := errors.AsType[*SeparatorError](err)
		if !ok || e.Field != tt.field {
			t.Errorf("Key(%q, %q): %v, want a SeparatorError on %s", tt.tenant, tt.task, err, tt.field)
		}
	}
	k1, _, err1 := Key("ab", "c", []byte(`{}`))
	k2, _, err2 := Key("a", "bc", []byte(`{}`))
	if err1 != nil || err2 != nil || k1 == k2 {
		t.Errorf("keys %q %q (%v, %v): want two different keys", k1, k2, err1, err2)
	}
}
