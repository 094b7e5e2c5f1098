package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"retrylab/site/locale"
	"retrylab/site/server"
)

// TestWriteEntry: entry.mjs gets the headers of the native handler's 400
// answers, as one JSON object in place of the mark, and site/server's
// bounds on a path in place of theirs.
func TestWriteEntry(t *testing.T) {
	file := filepath.Join(t.TempDir(), "entry.mjs")
	dist := fstest.MapFS{}
	for _, l := range locale.Languages() {
		dist[l+"/embed/strings.json"] = &fstest.MapFile{Data: []byte(`{"Lang":"` + l + `","Strings":{"err.internal":"internal ` + l + `"}}`)}
	}
	if err := writeEntry(file, dist, server.New(server.Config{Dist: fstest.MapFS{}})); err != nil {
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
		`import { API_ROOT as API, LANGS, QVALUE } from "./edge-rules.mjs";`,
		`const INTERNAL = {"":"` + internalEnglish + `","es":"internal es","it":"internal it","zh":"internal zh"};`,
		"const MAX_PATH_BYTES = " + strconv.Itoa(server.MaxPathBytes) + ";",
		"const MAX_PATH_SEGMENTS = " + strconv.Itoa(server.MaxPathSegments) + ";",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("entry.mjs lacks %s", want)
		}
	}
	if strings.Contains(s, "/*HEADERS*/") || strings.Contains(s, "/*INTERNAL*/") || strings.Contains(s, "/*MAX_PATH") || strings.Contains(s, "Content-Length") {
		t.Error("entry.mjs keeps a mark or a Content-Length")
	}
	// the API's paths come from Go (edge-rules.mjs), not typed here
	if strings.Contains(s, `"/`+server.APIRoot) {
		t.Errorf("entry.mjs types the API's path /%s", server.APIRoot)
	}
}

// TestWriteEntryNeedsStrings: a built site without err.internal in a
// language's strings fails the build of the Worker, naming the file.
func TestWriteEntryNeedsStrings(t *testing.T) {
	for _, c := range []struct {
		name string
		dist fstest.MapFS
		want string
	}{
		{"no strings", fstest.MapFS{}, "strings.json"},
		{"no err.internal", fstest.MapFS{
			"it/embed/strings.json": {Data: []byte(`{"Lang":"it","Strings":{}}`)},
		}, "no err.internal"},
		{"not JSON", fstest.MapFS{"it/embed/strings.json": {Data: []byte(`{`)}}, "it/embed/strings.json"},
	} {
		err := writeEntry(filepath.Join(t.TempDir(), "entry.mjs"), c.dist, server.New(server.Config{Dist: fstest.MapFS{}}))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
}
