package pages

import (
	"os"
	"path/filepath"
	"regexp"
	"retrylab/site/locale"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// glossaryFile is content/<lang>/glossary.toml: the one place where a
// language declares its vocabulary. Each term is the single name of a
// concept that the glossary page (glossary.md) defines; its variants are
// the other names the concept must not go by anywhere else, in the pages
// and in strings.toml (controls, help texts, exercises). Address is the
// form that speaks to the reader (tu, tú, 你) and the forms it replaces.
type glossaryFile struct {
	Term []struct {
		Term     string   `toml:"term"`
		Variants []string `toml:"variants"`
	} `toml:"term"`
	Address struct {
		Form     string   `toml:"form"`
		Variants []string `toml:"variants"`
	} `toml:"address"`
}

func readGlossary(t *testing.T, lang string) glossaryFile {
	t.Helper()
	var g glossaryFile
	if _, err := toml.DecodeFile(filepath.Join("../../content", lang, "glossary.toml"), &g); err != nil {
		t.Fatalf("%s: %v", lang, err)
	}
	if len(g.Term) == 0 {
		t.Fatalf("content/%s/glossary.toml declares no term", lang)
	}
	return g
}

var (
	fenceRE    = regexp.MustCompile("(?ms)^```.*?^```[ \t]*$")
	codeSpanRE = regexp.MustCompile("`[^`\n]*`")
	linkDestRE = regexp.MustCompile(`\]\([^)\s]*\)`)
	citeRE     = regexp.MustCompile(`\{[^{}\n]*\}`)
	mathRE     = regexp.MustCompile(`\$\$[^$]*\$\$|\$[^$\n]*\$`)
)

// prose is the text of a page a reader reads as words: without code
// blocks and spans, link destinations, citations and formulas.
func prose(src string) string {
	for _, re := range []*regexp.Regexp{fenceRE, codeSpanRE, linkDestRE, citeRE, mathRE} {
		src = re.ReplaceAllStringFunc(src, func(s string) string {
			return " " + strings.Repeat("\n", strings.Count(s, "\n"))
		})
	}
	return src
}

// findVariant reports where variant v occurs in text: as a whole word,
// case-insensitively, in a language written with spaces; as a substring
// in Chinese.
func findVariant(lang, text, v string) (line int, ok bool) {
	var idx []int
	if lang == "zh" {
		if i := strings.Index(text, v); i >= 0 {
			idx = []int{i}
		}
	} else {
		re := regexp.MustCompile(`(?i)(^|[^\p{L}\p{N}_])` + regexp.QuoteMeta(v) + `($|[^\p{L}\p{N}_])`)
		if m := re.FindStringSubmatchIndex(text); m != nil {
			idx = []int{m[3]}
		}
	}
	if idx == nil {
		return 0, false
	}
	return strings.Count(text[:idx[0]], "\n") + 1, true
}

// contentTexts returns, by file name, the words of every page of a
// language but its glossary (prose) and the values of its strings.toml.
func contentTexts(t *testing.T, lang string) (texts map[string]string, keys []string) {
	t.Helper()
	dir := filepath.Join("../../content", lang)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case e.Name() == "glossary.md":
		case strings.HasSuffix(e.Name(), ".md"):
			out[e.Name()] = prose(string(b))
		case e.Name() == "strings.toml":
			var tree map[string]any
			if err := toml.Unmarshal(b, &tree); err != nil {
				t.Fatal(err)
			}
			type kv struct{ k, v string }
			var vals []kv
			var walk func(prefix string, m map[string]any)
			walk = func(prefix string, m map[string]any) {
				for k, v := range m {
					switch v := v.(type) {
					case string:
						vals = append(vals, kv{prefix + k, strings.ReplaceAll(citeRE.ReplaceAllString(v, " "), "\n", " ")})
					case map[string]any:
						walk(prefix+k+".", v)
					}
				}
			}
			walk("", tree)
			sort.Slice(vals, func(i, j int) bool { return vals[i].k < vals[j].k })
			var b strings.Builder
			for _, p := range vals {
				keys = append(keys, p.k)
				b.WriteString(p.v + "\n")
			}
			out[e.Name()] = b.String()
		}
	}
	return out, keys
}

// TestGlossaryVariants: every language names each concept of its
// glossary one way, addresses the reader one way, and its glossary page
// defines every term.
func TestGlossaryVariants(t *testing.T) {
	for _, lang := range locale.Languages() {
		g := readGlossary(t, lang)
		page, err := os.ReadFile(filepath.Join("../../content", lang, "glossary.md"))
		if err != nil {
			t.Fatalf("%s: the glossary page: %v", lang, err)
		}
		texts, keys := contentTexts(t, lang)
		files := make([]string, 0, len(texts))
		for f := range texts {
			files = append(files, f)
		}
		sort.Strings(files)
		check := func(what string, variants []string) {
			for _, v := range variants {
				for _, f := range files {
					if line, ok := findVariant(lang, texts[f], v); ok {
						where := "line " + itoa(line)
						if f == "strings.toml" {
							where = "value " + keys[line-1]
						}
						t.Errorf("content/%s/%s, %s: %q, a variant of %q (content/%s/glossary.toml)", lang, f, where, v, what, lang)
					}
				}
			}
		}
		for _, term := range g.Term {
			if _, ok := findVariant(lang, string(page), term.Term); !ok {
				t.Errorf("content/%s/glossary.md does not define %q", lang, term.Term)
			}
			check(term.Term, term.Variants)
		}
		if g.Address.Form == "" {
			t.Errorf("content/%s/glossary.toml: no [address] form", lang)
		}
		check(g.Address.Form, g.Address.Variants)
	}
}

func itoa(n int) string {
	var b []byte
	for n >= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(append([]byte{byte('0' + n)}, b...))
}

// TestFindVariant: whole words in Latin scripts, any occurrence in
// Chinese.
func TestFindVariant(t *testing.T) {
	for _, tc := range []struct {
		lang, text, v string
		line          int
		ok            bool
	}{
		{"it", "un serbatoio pieno", "serbatoio", 1, true},
		{"it", "uno\nSerbatoio.", "serbatoio", 2, true},
		{"it", "serbatoioso", "serbatoio", 0, false},
		{"it", "il provider_5xx", "provider", 0, false},
		{"es", "cubo de solicitudes", "solicitudes", 1, true},
		{"zh", "向供应商发请求", "供应商", 1, true},
		{"zh", "向服务商发请求", "供应商", 0, false},
	} {
		line, ok := findVariant(tc.lang, tc.text, tc.v)
		if line != tc.line || ok != tc.ok {
			t.Errorf("findVariant(%s, %q, %q) = %d %v, want %d %v", tc.lang, tc.text, tc.v, line, ok, tc.line, tc.ok)
		}
	}
	if got := prose("a `serbatoio` b\n```go\nserbatoio\n```\n[x](http://serbatoio) {=a.serbatoio} $serbatoio$"); strings.Contains(got, "serbatoio") {
		t.Errorf("prose kept code, links, citations or math: %q", got)
	}
}

// TestChineseTypography: no emphasis (italics) on Han characters, no
// space just inside bold, and lists set apart from the paragraph before
// them, with one space after the marker.
func TestChineseTypography(t *testing.T) {
	dir := "../../content/zh"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	italic := regexp.MustCompile(`(^|[^*\\])\*([^*\s][^*\n]*?)\*($|[^*])|(^|[^_\w])_([^_\s][^_\n]*?)_($|[^_\w])`)
	listItem := regexp.MustCompile(`^(\s*)([-*+]|\d+[.)])(\s*)(.*)$`)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(fenceRE.ReplaceAllStringFunc(string(b), func(s string) string {
			return strings.Repeat("\n", strings.Count(s, "\n"))
		}), "\n")
		prev := ""
		for i, raw := range lines {
			l := codeSpanRE.ReplaceAllString(raw, "``")
			at := "content/zh/" + e.Name() + ":" + itoa(i+1)
			for _, m := range italic.FindAllStringSubmatch(l, -1) {
				if hasHan(m[2]) || hasHan(m[5]) {
					t.Errorf("%s: italics on hanzi: %q", at, m[0])
				}
			}
			if parts := strings.Split(l, "**"); len(parts)%2 == 1 {
				for j := 1; j < len(parts); j += 2 {
					if in := parts[j]; in != strings.TrimSpace(in) {
						t.Errorf("%s: a space just inside bold: %q", at, "**"+in+"**")
					} else if r, _ := utf8.DecodeLastRuneInString(in); unicode.IsPunct(r) && j+1 < len(parts) && parts[j+1] != "" {
						// CommonMark: ** after punctuation and before a
						// letter does not close, and the page shows the stars.
						if next, _ := utf8.DecodeRuneInString(parts[j+1]); !unicode.IsSpace(next) && !unicode.IsPunct(next) {
							t.Errorf("%s: bold that ends with punctuation right before text is not bold: %q; move the punctuation out", at, "**"+in+"**")
						}
					}
				}
			}
			if m := listItem.FindStringSubmatch(l); m != nil && m[4] != "" && !strings.HasPrefix(m[4], "-") && (m[2] != "*" || m[3] != "") {
				if m[3] != " " {
					t.Errorf("%s: a list item wants one space after %q", at, m[2])
				}
				if strings.TrimSpace(prev) != "" && listItem.FindStringSubmatch(prev) == nil && m[1] == "" && !strings.HasPrefix(strings.TrimSpace(prev), "|") && !strings.HasPrefix(prev, "  ") {
					t.Errorf("%s: a list right after a paragraph; leave a blank line before it", at)
				}
			}
			prev = l
		}
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}
