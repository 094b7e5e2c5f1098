package i18n

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// contentDir is the repository's content folder.
func contentDir(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "content")
}

func loadAll(t *testing.T) map[string]locale.Locale {
	t.Helper()
	all, err := LoadAll(contentDir(t))
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// Every key of any language exists in all three; the widget and error
// strings have the same {placeholders} in all three.
func TestSameKeys(t *testing.T) {
	all := loadAll(t)
	union := map[string]string{} // key → a language that has it
	for _, lang := range locale.Languages() {
		for k := range all[lang].Strings {
			union[k] = lang
		}
	}
	keys := make([]string, 0, len(union))
	for k := range union {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, lang := range locale.Languages() {
		for _, k := range Missing(all[lang], keys) {
			t.Errorf("content/%s/strings.toml lacks %s (content/%s has it)", lang, k, union[k])
		}
	}
	for _, k := range keys {
		if strings.HasPrefix(k, "site.") {
			continue // page chrome may format differently (zh dates use {m}, not {month})
		}
		ref := ""
		for _, lang := range locale.Languages() {
			s, ok := all[lang].Strings[k]
			if !ok {
				continue
			}
			p := strings.Join(placeholders(s), ",")
			if ref == "" {
				ref = p
			} else if p != ref {
				t.Errorf("%s: placeholders differ between languages: %s has {%s}, others {%s}", k, lang, p, ref)
			}
		}
	}
}

// Every parameter of every calculator has a label and a help line in
// every language, and so has every error code; every template names only variables its code
// provides.
func TestCalculatorKeys(t *testing.T) {
	all := loadAll(t)
	reg := calc.New()
	var want []string
	for _, c := range reg.List() {
		want = append(want, "widget."+c.Name+".title")
		for _, p := range c.Params {
			want = append(want, c.LabelKey(p.Name), c.LabelKey(p.Name)+".help")
			if p.Optional && p.Default == "" {
				want = append(want, c.LabelKey(p.Name)+".default")
			}
			for _, ch := range p.Choices {
				want = append(want, c.LabelKey(p.Name)+".choice."+ch)
			}
		}
	}
	for _, code := range codes {
		want = append(want, "err."+string(code))
	}
	for _, lang := range locale.Languages() {
		for _, k := range Missing(all[lang], want) {
			t.Errorf("content/%s/strings.toml lacks %s", lang, k)
		}
	}
	for _, code := range codes {
		allowed := map[string]bool{}
		for _, v := range placeholders(calc.EnglishTemplate(code)) {
			allowed[v] = true
		}
		for _, lang := range locale.Languages() {
			for _, v := range placeholders(all[lang].Strings["err."+string(code)]) {
				if !allowed[v] {
					t.Errorf("%s err.%s uses {%s}, which the English template does not have", lang, code, v)
				}
			}
		}
	}
}

// Every detail key a calculator can refuse with is translated: the keys are
// found in calc's source, since they are only built on a refusal.
func TestDetailKeys(t *testing.T) {
	all := loadAll(t)
	keys := detailKeysInSource(t)
	if len(keys) == 0 {
		t.Skip("no calculator refuses with a detail key yet")
	}
	for _, lang := range locale.Languages() {
		for _, k := range Missing(all[lang], keys) {
			t.Errorf("content/%s/strings.toml lacks %s (a calculator refuses with it)", lang, k)
		}
	}
}

var codes = []calc.Code{
	calc.CodeUnknownCalc, calc.CodeUnknownParam, calc.CodeRepeated, calc.CodeSyntax,
	calc.CodeNotNumber, calc.CodeNotInteger, calc.CodeNotFinite, calc.CodeRange,
	calc.CodeChoice, calc.CodeBool, calc.CodeListLen, calc.CodeTooLong, calc.CodeJSON,
	calc.CodeWork, calc.CodeConstraint, calc.CodeEncoding, calc.CodeDigits, calc.CodeServer,
	calc.CodeInexact,
}

func TestCodesHaveEnglish(t *testing.T) {
	for _, c := range codes {
		if calc.EnglishTemplate(c) == "" {
			t.Errorf("code %s has no English template", c)
		}
	}
	// every code declared in calc is in the list above
	known := map[string]bool{}
	for _, c := range codes {
		known[string(c)] = true
	}
	found := codesInSource(t)
	if len(found) < len(codes) {
		t.Errorf("found %d codes in calc's source, want at least %d: the pattern is broken", len(found), len(codes))
	}
	for _, c := range found {
		if !known[c] {
			t.Errorf("calc declares code %q: add it to codes (and err.%s to every strings.toml)", c, c)
		}
	}
}

func TestParse(t *testing.T) {
	m, err := Parse([]byte("[param.jitter]\nclients = \"client\"\n\"clients.help\" = \"aiuto\"\n[site]\nhome = \"Inizio\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"param.jitter.clients": "client", "param.jitter.clients.help": "aiuto", "site.home": "Inizio"}
	if len(m) != len(want) {
		t.Fatalf("got %v", m)
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %q, want %q", k, m[k], v)
		}
	}
	for _, bad := range []string{"a = 1\n", "[a]\nb = [\"x\"]\n", "a = \"x\"\na = \"y\"\n", "[a\n", "\"a.b\" = \"x\"\n[a]\nb = \"y\"\n"} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("[a]\nb = \"c\"\n"))
	f.Add([]byte("\"x.y\" = \"z\"\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse(b)
		if err == nil && m == nil {
			t.Fatal("nil map without error")
		}
	})
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir, "it"); err == nil {
		t.Error("a missing strings.toml: no error")
	}
	if err := os.MkdirAll(filepath.Join(dir, "it"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "it", "strings.toml"), []byte("[widget]\nreset = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir, "it")
	if err == nil || !strings.Contains(err.Error(), "strings.toml") || !strings.Contains(err.Error(), "widget.reset") {
		t.Errorf("error %v should name the file and the key", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "it", "strings.toml"), []byte("[widget]\nreset = \"Ricomincia\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	loc, err := Load(dir, "it")
	if err != nil || loc.Lang != "it" || loc.T("widget.reset") != "Ricomincia" {
		t.Errorf("Load = %+v, %v", loc, err)
	}
}

// TestJSONDetails: a payload the idempotency-key calculator refuses, for
// each problem core/canonjson names (found while parsing the parameter,
// or only by the canonical form), reads in the page's language, with the
// character, count or number it names and the byte offset; every entry of
// [detail.json] is reached.
func TestJSONDetails(t *testing.T) {
	all := loadAll(t)
	reg := calc.New()
	c, _ := reg.Lookup("idempotency-key")
	cases := []struct{ payload, code, has string }{
		{"[1] 2", "extra", "4"},
		{"[1,", "eof_value", "3"},
		{"[NaN]", "nonfinite", "NaN"},
		{"[-Infinity]", "nonfinite", "-Infinity"},
		{"[你]", "char", "'你'"},
		{strings.Repeat("[", 501), "depth", "500"},
		{"{1:2}", "key", "1"},
		{`{"a" 1}`, "colon", "5"},
		{`{"a":1`, "eof_object", "6"},
		{`{"a":1 "b"}`, "object_sep", "7"},
		{"[1", "eof_array", "2"},
		{"[1 2]", "array_sep", "3"},
		{`"ab`, "eof_string", "3"},
		{"\"\x01\"", "control", "U+0001"},
		{`"\`, "eof_escape", "1"},
		{`"\é"`, "escape", `\é`},
		{`"\u12"`, "u_escape", "1"},
		{"-x", "digit", "1"},
		{strings.Repeat("7", 4301), "int_digits", "0"},
		{"[1E400]", "float_range", "1E400"},
	}
	reached := map[string]bool{}
	for _, tc := range cases {
		_, err := c.Compute(map[string][]string{"payload": {tc.payload}})
		var e *calc.Error
		if !errors.As(err, &e) || e.Code != calc.CodeJSON {
			t.Errorf("payload %.20q: %v, want a %s refusal", tc.payload, err, calc.CodeJSON)
			continue
		}
		if got := e.Vars["detail_key"]; got != "detail.json."+tc.code {
			t.Errorf("payload %.20q: detail_key %q, want detail.json.%s (%v)", tc.payload, got, tc.code, err)
			continue
		}
		reached[tc.code] = true
		for _, lang := range locale.Languages() {
			msg := all[lang].Error(e, c)
			if !strings.Contains(msg, tc.has) || strings.ContainsAny(msg, "{}") && tc.code != "object_sep" ||
				strings.Contains(msg, "expected") || strings.Contains(msg, "unexpected") {
				t.Errorf("%s, payload %.20q: %q (want %q in it, no English, no placeholder)", lang, tc.payload, msg, tc.has)
			}
		}
	}
	for _, lang := range locale.Languages() {
		for k := range all[lang].Subset("detail.json.").Strings {
			if code := strings.TrimPrefix(k, "detail.json."); !reached[code] && code != "utf8" {
				t.Errorf("content/%s/strings.toml has %s, which no case reaches", lang, k)
			}
		}
	}
}

// content/ has one folder for each of locale.Languages and no other.
func TestContentLanguages(t *testing.T) {
	entries, err := os.ReadDir(contentDir(t))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	want := slices.Sorted(slices.Values(locale.Languages()))
	if !slices.Equal(dirs, want) {
		t.Errorf("content/ has the folders %v, locale.Languages %v", dirs, want)
	}
}

// TestPlaceholders: names, sorted and unique; a plural form counts as its
// name.
func TestPlaceholders(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{a} and {b} and {a}", "a,b"},
		{"{n|partito # retry|partiti # retry} di {total}", "n,total"},
		{"{total|# paso|# pasos} {n}", "n,total"},
		{"no placeholder", ""},
		{"{unclosed", ""},
	} {
		if got := strings.Join(placeholders(tc.in), ","); got != tc.want {
			t.Errorf("placeholders(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
