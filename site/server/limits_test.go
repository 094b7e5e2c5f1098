package server

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"retrylab/site/i18n"
)

// langDist is testDist with the strings the build writes for every
// language (LANG/embed/strings.json), from content/.
func langDist(t testing.TB) fstest.MapFS {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	locs, err := i18n.LoadAll(filepath.Join(filepath.Dir(file), "..", "..", "content"))
	if err != nil {
		t.Fatal(err)
	}
	d := testDist()
	for lang, loc := range locs {
		b, err := json.Marshal(loc.Subset("param.", "err.", "detail.", "widget.", "view.", "field."))
		if err != nil {
			t.Fatal(err)
		}
		d[lang+"/embed/strings.json"] = &fstest.MapFile{Data: b}
	}
	return d
}

// issueDispatch is the request of issue 21: 565,001 simulated calls, 0.55 s
// of CPU before the server's work bound.
const issueDispatch = "/api/v1/dispatch?jobs=100000&max_attempts=4&headroom=2&max_output_tokens=13&prompt_tokens=0&tpm_limit=18937700&max_concurrency=160&latency_s=14&base_s=3600&cap_s=86400&p_5xx=1&reconcile_s=0"

// TestAPILimits: requests above a calculator's work bound for the shared
// server are a 422 in the reader's language (?lang, else Accept-Language,
// else English) naming the embed page with the same values and the
// command line; every error carries the CORS header of the 200s; invalid
// UTF-8 and a seed too long are plain 400s.
func TestAPILimits(t *testing.T) {
	h := New(Config{Dist: langDist(t)})
	tests := []struct {
		name, target, acceptLang string
		status                   int
		code, param              string
		want                     []string // substrings of the message
	}{
		{"issue, English", issueDispatch, "", 422, "server", "jobs",
			[]string{"too large for the shared server", "/it/embed/dispatch/?base_s=3600&cap_s=86400&headroom=2&jobs=100000&", "retrylab calc dispatch base_s=3600 cap_s=86400 headroom=2 jobs=100000 "}},
		{"issue, ?lang=it", issueDispatch + "&lang=it", "zh", 422, "server", "jobs",
			[]string{"troppo grande per il server condiviso", "800.000", "/it/embed/dispatch/?", "retrylab calc dispatch"}},
		{"issue, Accept-Language zh", issueDispatch, "zh-CN,zh;q=0.9,en;q=0.8", 422, "server", "jobs",
			[]string{"共享服务器", "/zh/embed/dispatch/?", "retrylab calc dispatch"}},
		{"issue, Accept-Language es", issueDispatch, "es-ES, en;q=0.5", 422, "server", "jobs",
			[]string{"servidor compartido", "/es/embed/dispatch/?"}},
		{"English preferred", issueDispatch, "en-US,en;q=0.9,it;q=0.8", 422, "server", "jobs",
			[]string{"too large for the shared server"}},
		{"jitter chart", "/api/v1/jitter.svg?lang=es&clients=1000000&waves=5", "", 422, "server", "clients",
			[]string{"servidor compartido", "/es/embed/jitter/?clients=1000000&waves=5", "retrylab calc jitter clients=1000000 waves=5"}},
		// issue 28: policies and timeouts had no bound
		{"policies, zh", "/api/v1/policies?lang=zh&rate_per_s=25000&horizon_s=6&timeout_ms=0.001&attempts=10", "", 422, "server", "horizon_s",
			[]string{"共享服务器", "/zh/embed/policies/?attempts=10&horizon_s=6&rate_per_s=25000&timeout_ms=0.001", "retrylab calc policies attempts=10 horizon_s=6 rate_per_s=25000 timeout_ms=0.001"}},
		{"policies chart", "/api/v1/policies.svg?lang=it&rate_per_s=25000&horizon_s=6&attempts=10", "", 422, "server", "horizon_s",
			[]string{"server condiviso", "/it/embed/policies/?attempts=10&horizon_s=6&rate_per_s=25000", "retrylab calc policies"}},
		{"timeouts, es", "/api/v1/timeouts?calls=100000&max_output_tokens=40", "es", 422, "server", "calls",
			[]string{"servidor compartido", "/es/embed/timeouts/?calls=100000&max_output_tokens=40", "retrylab calc timeouts calls=100000 max_output_tokens=40"}},
		{"timeouts chart", "/api/v1/timeouts.svg?calls=100000&max_output_tokens=40", "", 422, "server", "calls",
			[]string{"/it/embed/timeouts/?calls=100000", "retrylab calc timeouts"}},
		{"bad lang", "/api/v1/attempts?lang=fr", "", 400, "lang", "lang", []string{"lang must be one of it, es, zh"}},
		{"range in zh", "/api/v1/attempts?q=2", "zh", 400, "range", "q", []string{"超出允许的区间"}},
		{"tenant %ff", "/api/v1/idempotency-key?tenant=%ff", "", 400, "encoding", "tenant", []string{"not valid UTF-8 (byte 0)"}},
		{"seed digits it", "/api/v1/jitter?lang=it&seed=" + strings.Repeat("7", 4097), "", 400, "digits", "seed",
			[]string{"al massimo 4.096 cifre, ne sono arrivate 4.097"}},
		{"seed digits zh", "/api/v1/jitter?lang=zh&seed=" + strings.Repeat("7", 4097), "", 400, "digits", "seed",
			[]string{"最多只能有 4,096 位数字", "4,097 位"}},
		{"unknown calc", "/api/v1/nosuch", "", 404, "unknown_calc", "", []string{"unknown calculator"}},
		{"no such API", "/api/v2/x", "", 404, "", "", []string{"no such API"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, h, "GET", tt.target, "Accept-Language", tt.acceptLang)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body.String())
			}
			if got := w.Header().Get("Access-Control-Allow-Origin"); got != "*" {
				t.Errorf("Access-Control-Allow-Origin %q", got)
			}
			var e apiError
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil {
				t.Fatalf("%q: %v", w.Body.String(), err)
			}
			if e.Error.Code != tt.code || e.Error.Param != tt.param {
				t.Errorf("code %q param %q, want %q %q", e.Error.Code, e.Error.Param, tt.code, tt.param)
			}
			for _, s := range tt.want {
				if !strings.Contains(e.Error.Message, s) {
					t.Errorf("message %q lacks %q", e.Error.Message, s)
				}
			}
			if strings.Contains(e.Error.Message, "{") {
				t.Errorf("message %q has a placeholder left", e.Error.Message)
			}
		})
	}
	// Within the bound, lang is accepted and the answer is the same.
	a, b := do(t, h, "GET", "/api/v1/dispatch?jobs=1000"), do(t, h, "GET", "/api/v1/dispatch?jobs=1000&lang=zh")
	if a.Code != 200 || b.Code != 200 || a.Body.String() != b.Body.String() {
		t.Errorf("within the bound: %d %d, same body %v", a.Code, b.Code, a.Body.String() == b.Body.String())
	}
}

// TestWorkScale: a server with WorkScale 0.5 (the Worker) refuses at half
// of each calculator's bound what a full one computes.
func TestWorkScale(t *testing.T) {
	const q = "/api/v1/dispatch?jobs=3000&max_attempts=4" // 24,000 calls with the fallback; the bound is 40,000
	if w := do(t, New(Config{Dist: testDist()}), "GET", q); w.Code != 200 {
		t.Errorf("full server: %d %s", w.Code, w.Body.String())
	}
	w := do(t, New(Config{Dist: testDist(), WorkScale: 0.5}), "GET", q)
	if w.Code != 422 || !strings.Contains(w.Body.String(), "at most 20000 here") {
		t.Errorf("half server: %d %s", w.Code, w.Body.String())
	}
}

func TestAcceptLang(t *testing.T) {
	tests := map[string]string{
		"":                           "",
		"it":                         "it",
		"it-IT,it;q=0.9":             "it",
		"en-US,en;q=0.9,it;q=0.8":    "",
		"fr, es;q=0.5":               "es",
		"de;q=0.9, zh-Hans;q=0.95":   "zh",
		"it;q=0, es;q=0.1":           "es",
		"it;q=bad, zh":               "zh",
		"ZH-TW":                      "zh",
		"es;q=0.5, it;q=0.5":         "es",
		"*":                          "",
		"en;q=0.1, it;q=0.2, es;q=1": "es",
	}
	for in, want := range tests {
		if got := acceptLang(in); got != want {
			t.Errorf("acceptLang(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCORSOnErrors: the 400, 404 and 405 answers of the API carry the
// same Access-Control-Allow-Origin as the 200s.
func TestCORSOnErrors(t *testing.T) {
	h := New(Config{Dist: testDist()})
	for _, tt := range []struct {
		method, target string
		status         int
	}{
		{"GET", "/api/v1/attempts", 200},
		{"GET", "/api/v1/attempts?q=2", 400},
		{"GET", "/api/v1/attempts?q=%zz", 400},
		{"GET", "/api/v1/nosuch", 404},
		{"GET", "/api/v1/nosuch.svg", 404},
		{"POST", "/api/v1/attempts", 405},
	} {
		w := do(t, h, tt.method, tt.target)
		if w.Code != tt.status || w.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s %s: %d, Access-Control-Allow-Origin %q", tt.method, tt.target, w.Code, w.Header().Get("Access-Control-Allow-Origin"))
		}
	}
}

// FuzzAcceptLang: any header gives "" or one of the languages.
func FuzzAcceptLang(f *testing.F) {
	for _, s := range []string{"it", "zh-CN,zh;q=0.9", "en;q=0.1, es", "*;q=0", "it;q=1e309", ",,;q=", "es;q=-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		switch got := acceptLang(h); got {
		case "", "it", "es", "zh":
		default:
			t.Fatalf("acceptLang(%q) = %q", h, got)
		}
	})
}
