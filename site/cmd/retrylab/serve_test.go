package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"

	"retrylab/core/calc"
	"retrylab/site/server"
)

// TestAPIMatchesCLI checks, for every calculator, that GET /api/v1/NAME
// answers 200 with exactly the bytes `retrylab calc NAME` prints, with the
// defaults and with each parameter set to its default explicitly, and that
// a bad value gets 400 from the API and exit status 2 from the CLI.
func TestAPIMatchesCLI(t *testing.T) {
	h := server.New(server.Config{Dist: fstest.MapFS{}})
	reg := calc.New()
	if len(reg.List()) == 0 {
		t.Fatal("no calculators")
	}
	for _, c := range reg.List() {
		t.Run(c.Name, func(t *testing.T) {
			cases := [][]string{nil}
			var all []string
			for _, p := range c.Params {
				if p.Default != "" {
					all = append(all, p.Name+"="+p.Default)
				}
			}
			if len(all) > 0 {
				cases = append(cases, all)
			}
			for _, pairs := range cases {
				var cli, stderr bytes.Buffer
				if code := run(append([]string{"calc", c.Name}, pairs...), &cli, &stderr); code != 0 {
					t.Fatalf("retrylab calc %s %v: exit %d: %s", c.Name, pairs, code, stderr.String())
				}
				q := url.Values{}
				for _, kv := range pairs {
					k, v, _ := strings.Cut(kv, "=")
					q.Add(k, v)
				}
				target := "/api/v1/" + c.Name
				if len(q) > 0 {
					target += "?" + q.Encode()
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
				if w.Code != 200 {
					t.Fatalf("GET %s: %d %s", target, w.Code, w.Body.String())
				}
				if w.Body.String() != cli.String() {
					t.Errorf("GET %s:\n api %q\n cli %q", target, w.Body.String(), cli.String())
				}
			}
			// A bad value: the first parameter given an impossible value.
			p := c.Params[0]
			bad := "not-a-value-\x01"
			if p.Kind == calc.Text {
				bad = strings.Repeat("x", 70000)
			}
			var out, stderr bytes.Buffer
			if code := run([]string{"calc", c.Name, p.Name + "=" + bad}, &out, &stderr); code != 2 {
				t.Errorf("retrylab calc %s %s=%.20q…: exit %d, want 2: the CLI accepts a value the API must refuse", c.Name, p.Name, bad, code)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/v1/"+c.Name+"?"+url.Values{p.Name: {bad}}.Encode(), nil))
			if w.Code != 400 || !strings.Contains(w.Body.String(), `"param":"`+p.Name+`"`) {
				t.Errorf("bad %s: %d %s", p.Name, w.Code, w.Body.String())
			}
		})
	}
}
