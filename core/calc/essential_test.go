package calc

import (
	"encoding/json"
	"net/url"
	"testing"
)

// TestEssential holds every declaration of essential parameters and story
// fields to its contract: at most 4 essential parameters, each declared,
// none twice; every story field present in the result at the defaults.
func TestEssential(t *testing.T) {
	reg := New()
	for _, c := range reg.List() {
		if len(c.Essential) > 4 {
			t.Errorf("%s: %d essential parameters, at most 4", c.Name, len(c.Essential))
		}
		seen := map[string]bool{}
		for _, n := range c.Essential {
			if c.Param(n) == nil || seen[n] {
				t.Errorf("%s: essential parameter %q undeclared or repeated", c.Name, n)
			}
			seen[n] = true
		}
		if len(c.StoryFields) == 0 {
			continue
		}
		res, err := reg.Compute(c.Name, url.Values{})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		b, _ := json.Marshal(res)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, f := range c.StoryFields {
			if _, ok := m[f]; !ok {
				t.Errorf("%s: story field %q is not in the result", c.Name, f)
			}
		}
	}
	if d, _ := reg.Lookup("dispatch"); d == nil || len(d.Essential) == 0 {
		t.Error("dispatch declares no essential parameters")
	}
}
