package main

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"retrylab/core/calc"
)

func TestParse(t *testing.T) {
	const ok = `{"categories":{"performance":{"score":0.96},"accessibility":{"score":1},"best-practices":{"score":1}},
	"audits":{"first-contentful-paint":{"numericValue":1062.5},"largest-contentful-paint":{"numericValue":1213},
	"total-blocking-time":{"numericValue":227},"cumulative-layout-shift":{"numericValue":0.05},"speed-index":{"numericValue":1062},
	"long-tasks":{"details":{"items":[{"duration":120},{"duration":264},{"duration":80}]}}}}`
	for _, tc := range []struct {
		name, in string
		want     result
		err      string
	}{
		{name: "scores and metrics", in: ok, want: result{perf: 0.96, a11y: 1, bp: 1, fcp: 1062.5, lcp: 1213, tbt: 227, cls: 0.05, si: 1062, longest: 264}},
		// a failed audit of weight, named with its elements; one of no
		// weight, one not applicable (score null) and a passed one are not
		{name: "failed audits", in: `{"categories":{"performance":{"score":0.9},"accessibility":{"score":0.96,"auditRefs":[
		{"id":"target-size","weight":7},{"id":"empty-heading","weight":0},{"id":"td-has-header","weight":10},{"id":"label","weight":7}]},
		"best-practices":{"score":1,"auditRefs":[{"id":"errors-in-console","weight":1}]}},
		"audits":{"target-size":{"score":0,"details":{"items":[{"node":{"selector":"div#a > summary"}},{"node":{"selector":"div#b > summary"}},
		{"node":{"selector":"c"}},{"node":{"selector":"d"}}]}},"empty-heading":{"score":0},"td-has-header":{"score":null},"label":{"score":1},
		"errors-in-console":{"score":1}}}`,
			want: result{perf: 0.9, a11y: 0.96, bp: 1, failed: []string{"target-size: div#a > summary, div#b > summary, c"}}},
		{name: "runtime error", in: `{"runtimeError":{"code":"NO_FCP","message":"The page did not paint any content."}}`, err: "NO_FCP"},
		{name: "no score", in: `{"categories":{"performance":{"score":null}}}`, err: "no score for performance"},
		{name: "not JSON", in: `Lighthouse failed`, err: "reading Lighthouse's report"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parse([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("parse: error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parse = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestDefaultPages: every article of calc.Articles is scored, beside the
// exercises page the blocking times are compared with and an embed.
func TestDefaultPages(t *testing.T) {
	ps := strings.Split(defaultPages(), ",")
	for _, a := range calc.Articles() {
		if !slices.ContainsFunc(ps, func(p string) bool { return strings.HasSuffix(p, "/"+a.Slug+"/") && !strings.Contains(p, "/embed/") }) {
			t.Errorf("article %s is not scored: %v", a.Slug, ps)
		}
	}
	if !slices.Contains(ps, exercisesPage) || !slices.ContainsFunc(ps, func(p string) bool { return strings.Contains(p, "/embed/") }) {
		t.Errorf("pages %v lack the exercises page or an embed", ps)
	}
}
