package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"retrylab/site/server"
)

// TestWriteEntry: entry.mjs gets the headers of the native handler's 400
// answers, as one JSON object in place of the mark, and site/server's
// bounds on a path in place of theirs.
func TestWriteEntry(t *testing.T) {
	file := filepath.Join(t.TempDir(), "entry.mjs")
	if err := writeEntry(file, server.New(server.Config{Dist: fstest.MapFS{}})); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{
		`const HEADERS = {"Access-Control-Allow-Origin":"*","Cache-Control":"no-store","Content-Security-Policy":"` + server.PageCSP + `",`,
		`"X-Content-Type-Options":"nosniff"`,
		`import app from "./worker.mjs";`,
		`import { edge } from "./edge.mjs";`,
		`import { API_ROOT as API } from "./edge-rules.mjs";`,
		"const MAX_PATH_BYTES = " + strconv.Itoa(server.MaxPathBytes) + ";",
		"const MAX_PATH_SEGMENTS = " + strconv.Itoa(server.MaxPathSegments) + ";",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("entry.mjs lacks %s", want)
		}
	}
	if strings.Contains(s, "/*HEADERS*/") || strings.Contains(s, "/*MAX_PATH") || strings.Contains(s, "Content-Length") {
		t.Error("entry.mjs keeps a mark or a Content-Length")
	}
	// the API's paths come from Go (edge-rules.mjs), not typed here
	if strings.Contains(s, `"/`+server.APIRoot) {
		t.Errorf("entry.mjs types the API's path /%s", server.APIRoot)
	}
}
