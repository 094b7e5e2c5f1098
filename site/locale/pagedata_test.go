package locale_test

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"retrylab/site/locale"
	"retrylab/site/pages"
)

// reference reads page data as the playground did with encoding/json.
func reference(b []byte) (locale.Locale, bool) {
	var data struct {
		Lang    string
		Strings map[string]string
		Locale  *locale.Locale
	}
	if json.Unmarshal(b, &data) != nil {
		return locale.Locale{}, false
	}
	if data.Locale != nil {
		return *data.Locale, true
	}
	return locale.Locale{Lang: data.Lang, Strings: data.Strings}, true
}

func checkPageData(t *testing.T, name string, b []byte) {
	t.Helper()
	want, ok := reference(b)
	got, err := locale.ParsePageData(b)
	switch {
	case ok && err != nil:
		t.Errorf("%s: ParsePageData: %v; encoding/json reads %v", name, err, want)
	case !ok && err == nil:
		t.Errorf("%s: ParsePageData reads %v; encoding/json fails", name, got)
	case ok && !reflect.DeepEqual(got, want):
		t.Errorf("%s: ParsePageData reads %v; encoding/json reads %v", name, got, want)
	}
}

var dataRE = regexp.MustCompile(`(?s)<script type="application/json" id="retrylab-data">(.*?)</script>`)

// pageData returns the data of every page of files (path → HTML) that has
// some, by path.
func pageData(t *testing.T, files map[string][]byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for path, b := range files {
		if !strings.HasSuffix(path, ".html") {
			continue
		}
		if m := dataRE.FindSubmatch(b); m != nil {
			out[path] = m[1]
		}
	}
	return out
}

// ParsePageData reads what site/pages writes into every page of the real
// content (articles, indexes, exercises, embeds) in it, es and zh as
// encoding/json reads it; and reads the pages of dist/ too when it has
// been built.
func TestParsePageDataOfTheSite(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "content", "it", "index.md")); err != nil {
		t.Skip("no content/ tree")
	}
	site, err := pages.Build(pages.Config{Content: os.DirFS(filepath.Join(root, "content")), ContentDir: "content",
		Repo: os.DirFS(root), Wasm: map[string][]byte{"retries": []byte("\x00asm"), "rate-limits": []byte("\x00asm"), "policies": []byte("\x00asm"), "backoff-work": []byte("\x00asm"), "all": []byte("\x00asm")}, WasmExec: []byte("// wasm_exec")})
	if err != nil {
		t.Fatal(err)
	}
	data := pageData(t, site.Files)
	langs := map[string]int{}
	for path, b := range data {
		checkPageData(t, path, b)
		loc, err := locale.ParsePageData(b)
		if err != nil {
			continue
		}
		if lang := strings.SplitN(path, "/", 2)[0]; loc.Lang != lang || len(loc.Strings) == 0 {
			t.Errorf("%s: Lang %q with %d strings", path, loc.Lang, len(loc.Strings))
		}
		langs[loc.Lang]++
	}
	for _, lang := range []string{"it", "es", "zh"} {
		if langs[lang] < 5 {
			t.Errorf("only %d pages in %s carry page data", langs[lang], lang)
		}
	}
	// the built dist/, when there is one (./build.sh)
	var n int
	filepath.WalkDir(filepath.Join(root, "dist"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		if m := dataRE.FindSubmatch(b); m != nil {
			checkPageData(t, path, m[1])
			n++
		}
		return nil
	})
	t.Logf("%d pages built here, %d pages of dist/", len(data), n)
}

// pageDataCases reach each rule of json.Unmarshal that ParsePageData
// follows.
var pageDataCases = []string{
	`{"lang":"it","base":"/","locale":{"Lang":"it","Strings":{"a":"b","c":"\u003cd\u003e"}},"widgets":[{"id":"x"}]}`,
	`{"lang":"es","strings":{"a":"1"}}`,
	`{"lang":"es"}`, `{}`, `null`, ` null `, `{"locale":null}`, `{"locale":{}}`, `{"locale":{"Lang":null,"Strings":null}}`,
	`{"LANG":"zh","Strings":{"k":null}}`, `{"lang":"it","Lang":"es"}`, `{"ſtrings":{"a":"b"}}`, `{"LOCALE":{"lang":"x","STRINGS":{}}}`,
	`{"locale":{"Lang":"it","Strings":{"a":"1"}},"locale":{"Strings":{"b":"2"}}}`,
	`{"locale":{"Lang":"it"},"locale":null}`, `{"strings":{"a":"1"},"strings":{"b":"2"}}`, `{"strings":{"a":"1"},"strings":null}`,
	`{"lang":1}`, `{"lang":true}`, `{"lang":["it"]}`, `{"lang":{}}`, `{"strings":"x"}`, `{"strings":[]}`, `{"strings":{"a":1}}`,
	`{"strings":{"a":{"b":"c"}}}`, `{"locale":"it"}`, `{"locale":[]}`, `{"locale":{"Lang":2}}`, `{"locale":{"Strings":{"a":false}}}`,
	`[]`, `"it"`, `1`, `true`, ``, `{`, `{"lang":"it"`, `{"lang":"it"}x`, `{"lang":"\ud800\u00e9\"\\"}`, "{\"lang\":\"\xff\"}",
	`{"other":[1,{"lang":"no"},"]}"],"lang":"it","x":-1.5e3,"y":true,"z":null}`, "\t{ \"lang\" : \"it\" , \"strings\" : { } }\n",
	`{"lang":NaN}`, `{"x":1e400,"lang":"it"}`, `{"\u006cang":"it"}`, `{"lang":"it","lang":null}`,
}

func TestParsePageData(t *testing.T) {
	for _, c := range pageDataCases {
		checkPageData(t, c, []byte(c))
	}
	// what the playground does with it
	loc, err := locale.ParsePageData([]byte(html.UnescapeString(`{"locale":{"Lang":"zh","Strings":{"widget.none":"—"}}}`)))
	if err != nil || loc.Lang != "zh" || loc.TOr("widget.none", "") != "—" {
		t.Errorf("got %v, %v", loc, err)
	}
}

// FuzzParsePageData: no input panics, and every input reads as
// encoding/json reads it.
func FuzzParsePageData(f *testing.F) {
	for _, c := range pageDataCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkPageData(t, "fuzz", b)
	})
}
