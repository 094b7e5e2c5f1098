//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"retrylab/site/locale"
	"retrylab/wasm/worker/local"
)

// failingConfig is a workerd configuration that runs the Worker of
// wasm/worker/workerd.capnp (its constant app, the same modules) with an
// ASSETS binding that throws: every request that reaches the assets
// binding raises an exception in the Worker. It is written under
// build/, two folders below the root, so that the relative import names
// the repository's configuration.
const failingConfig = `using Workerd = import "/workerd/workerd.capnp";
using Retrylab = import "../../wasm/worker/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "app", worker = Retrylab.app),
    (name = "assets", worker = (
      modules = [(name = "fails.mjs", esModule =
        "export default { fetch() { throw new Error('the assets binding fails (TestWorkerException)'); } };")],
      compatibilityDate = "2026-11-01",
    )),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "app")],
);
`

// TestWorkerException: an exception in the Worker (here its assets
// binding's, on a page and on a miss) is not workerd's plain-text 500 but
// entry.mjs's: a 500 with the API's JSON error (code "internal"), the
// native handler's headers on its errors and Vary: Accept-Language, its
// message in the language ?lang= or Accept-Language asks for, as
// site/server's apiLang reads them (the messages: err.internal of the
// built strings, English without one); HEAD has no body.
func TestWorkerException(t *testing.T) {
	dir := filepath.Join(root, "build", "e2e-errors")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "fails.capnp")
	if err := os.WriteFile(config, []byte(failingConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := local.StartConfig(context.Background(), root, config, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	// the messages entry.mjs was built with, English under ""
	entry, err := os.ReadFile(filepath.Join(root, local.Bundle, "entry.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(entry), "\nconst INTERNAL = ")
	table, _, _ = strings.Cut(table, ";\n")
	msgs := map[string]string{}
	if err := json.Unmarshal([]byte(table), &msgs); err != nil || msgs[""] == "" {
		t.Fatalf("entry.mjs's INTERNAL %.200q: %v", table, err)
	}
	for _, l := range locale.Languages() {
		b, err := os.ReadFile(filepath.Join(root, "dist", l, "embed", "strings.json"))
		if err != nil {
			t.Fatal(err)
		}
		var loc locale.Locale
		if err := json.Unmarshal(b, &loc); err != nil {
			t.Fatal(err)
		}
		if m := loc.T("err.internal"); msgs[l] != m {
			t.Errorf("entry.mjs's message in %s is %q, the strings' err.internal %q", l, msgs[l], m)
		}
	}
	// the native handler's headers on the API's errors
	ref := do(t, "GET", native.URL+"/api/v1/attempts?q=2")
	for _, c := range []struct {
		method, path, acceptLang, lang string
	}{
		{"GET", "/it/", "", ""},
		{"GET", "/it/", "it", "it"},
		{"GET", "/nosuch/", "zh-CN, en;q=0.5", "zh"},
		{"GET", "/it/?lang=es", "it", "es"},
		{"GET", "/it/?lang=fr", "it", ""},
		{"GET", "/it/?lang=es&lang=it", "", ""},
		{"GET", "/it/", "en, it;q=0.9", ""},
		{"GET", "/it/", "it;q=0.2, es;q=0.8", "es"},
		{"GET", "/it/", "fr, de;q=0.5", ""},
		{"GET", "/it/", "ES-mx;q=0.5, x;q=abc", "es"},
		{"HEAD", "/it/", "it", "it"},
	} {
		req, err := http.NewRequest(c.method, s.URL+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.acceptLang != "" {
			req.Header.Set("Accept-Language", c.acceptLang)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Error struct{ Param, Code, Message string }
		}
		raw := new(strings.Builder)
		_, err = io.Copy(raw, res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		what := c.method + " " + c.path + " (Accept-Language " + c.acceptLang + ")"
		if res.StatusCode != 500 {
			t.Errorf("%s: %d, want entry.mjs's 500: %.200s", what, res.StatusCode, raw)
			continue
		}
		for _, k := range []string{"Content-Type", "Cache-Control", "Access-Control-Allow-Origin", "Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy"} {
			if got, want := res.Header.Get(k), ref.Header.Get(k); got != want || want == "" {
				t.Errorf("%s: %s = %q, want the native error's %q", what, k, got, want)
			}
		}
		if !strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Accept-Language") {
			t.Errorf("%s: Vary %q, want Accept-Language", what, res.Header.Values("Vary"))
		}
		if c.method == "HEAD" {
			if raw.Len() != 0 {
				t.Errorf("%s: a body of %d bytes", what, raw.Len())
			}
			continue
		}
		want := msgs[c.lang]
		if err := json.Unmarshal([]byte(raw.String()), &body); err != nil || body.Error.Code != "internal" || body.Error.Message != want || want == "" {
			t.Errorf("%s: %v %q; want code internal, message %q", what, err, raw, want)
		}
	}
}
