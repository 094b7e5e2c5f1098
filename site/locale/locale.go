// Package locale formats numbers, lists and messages for the reader's
// language. It holds the CLDR data the site needs for Italian, Spanish and
// Chinese (with English as the fallback) and a string table, and is small
// enough to be compiled into the browser's WebAssembly module: it imports
// no x/text and no template engine.
package locale

import (
	"sort"
	"strings"
)

// Languages returns the site's languages, BCP 47 codes in the order the
// site lists them (the language switcher, the sitemap); the first is the
// default where a language is optional (the SVG endpoint). This is the one
// list: content/LANG/, the build, the string tables and the server read
// it; this package holds the number and list data of each.
func Languages() []string { return []string{"it", "es", "zh"} }

// Locale is one language: its BCP 47 code ("it", "es", "zh") and its string
// table (dotted keys, as content/<lang>/strings.toml flattened by
// site/i18n). The zero Locale is English with no strings: every key falls
// back as [Locale.T] says, numbers use '.' and ','.
type Locale struct {
	Lang    string
	Strings map[string]string
}

// Lookup returns the string of key and whether the table has it.
func (l Locale) Lookup(key string) (string, bool) {
	s, ok := l.Strings[key]
	return s, ok
}

// T returns the string of key, or key itself when the table lacks it (so a
// missing translation shows up on the page instead of vanishing).
func (l Locale) T(key string) string {
	if s, ok := l.Strings[key]; ok {
		return s
	}
	return key
}

// TOr returns the string of key, or def when the table lacks it.
func (l Locale) TOr(key, def string) string {
	if s, ok := l.Strings[key]; ok {
		return s
	}
	return def
}

// Tf returns the string of key (or def) with each {name} replaced; kv
// alternates names and values.
func (l Locale) Tf(key, def string, kv ...string) string {
	return Expand(l.TOr(key, def), kv...)
}

// Placeholders returns the names of template t's {placeholders}, in
// order, as Expand reads them (a plural's {n|one|other} whole).
func Placeholders(t string) []string {
	var out []string
	for {
		_, name, rest, ok := cutPlaceholder(t)
		if !ok {
			return out
		}
		out = append(out, name)
		t = rest
	}
}

// cutPlaceholder splits t around its first {name}: the text before it,
// the name, and the text after its '}'; ok is false when t holds no
// closed {…}. Placeholders and Expand read templates through it.
func cutPlaceholder(t string) (before, name, after string, ok bool) {
	i := strings.IndexByte(t, '{')
	if i < 0 {
		return t, "", "", false
	}
	j := strings.IndexByte(t[i:], '}')
	if j < 0 {
		return t, "", "", false
	}
	return t[:i], t[i+1 : i+j], t[i+j+1:], true
}

// Expand replaces each {name} of template t; kv alternates names and
// values. Unknown {names} are left as they are.
//
// A count takes its plural form with {name|ONE|OTHER} (content/README):
// ONE when the value is "1", else OTHER, '#' in the form standing for the
// value. That is the rule of Italian and Spanish (CLDR "one": the integer
// 1, the counts the strings say); Chinese writes no plural forms
// (TestPluralTemplates). It is the Go twin of player.js's fill, which
// fills the players' live templates in the browser: the two must agree.
func Expand(t string, kv ...string) string {
	if len(kv) < 2 || !strings.Contains(t, "{") {
		return t
	}
	var b strings.Builder
	b.Grow(len(t) + 16)
	for {
		before, name, rest, ok := cutPlaceholder(t)
		if !ok {
			break
		}
		b.WriteString(before)
		key, forms, plural := strings.Cut(name, "|")
		found := false
		for k := 0; k+1 < len(kv); k += 2 {
			if kv[k] == key {
				b.WriteString(pluralForm(kv[k+1], forms, plural))
				found = true
				break
			}
		}
		if !found {
			b.WriteString("{" + name + "}")
		}
		t = rest
	}
	b.WriteString(t)
	return b.String()
}

// pluralForm is value itself, or, when plural, its form out of forms
// ("ONE|OTHER"): ONE for "1", with '#' replaced by the value. A plural
// without two forms writes the value alone.
func pluralForm(value, forms string, plural bool) string {
	if !plural {
		return value
	}
	one, other, ok := strings.Cut(forms, "|")
	if !ok {
		return value
	}
	form := other
	if value == "1" {
		form = one
	}
	return strings.Replace(form, "#", value, 1)
}

// Subset returns the Locale with only the keys that start with one of
// prefixes: what the browser needs of the table (for example "param.",
// "err.", "detail.", "widget.", "view.", "field.").
func (l Locale) Subset(prefixes ...string) Locale {
	out := Locale{Lang: l.Lang, Strings: map[string]string{}}
	for k, v := range l.Strings {
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				out.Strings[k] = v
				break
			}
		}
	}
	return out
}

// Keys returns the table's keys, sorted.
func (l Locale) Keys() []string {
	keys := make([]string, 0, len(l.Strings))
	for k := range l.Strings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// symbols is the CLDR data of one language.
type symbols struct {
	decimal, group string
	minGrouping    int    // CLDR minimumGroupingDigits
	percent        string // the percent pattern, "#" standing for the number
	// list patterns (CLDR listPatterns, type standard): two items, then
	// start, middle and end of three or more.
	list2, listStart, listMiddle, listEnd string
	// listSemi joins the items before the last when one of them holds
	// a character of listClash (a decimal comma, a label's own comma):
	// "0,5; 1,5 e 2,5", not "0,5, 1,5 e 2,5"
	listSemi, listClash string
	// the "or" list (type or)
	or2, orEnd  string
	yes, no     string
	intervalSep string // between the ends of an interval: "; " where ',' is the decimal mark
}

// The symbols of each language; sym picks one (a switch, not a map: the
// browser's module then needs no map of symbols, its initialization and
// its type's equality function).
var (
	symEN = symbols{decimal: ".", group: ",", minGrouping: 1, percent: "#%",
		list2: "{0} and\u00a0{1}", listStart: "{0}, {1}", listMiddle: "{0}, {1}", listEnd: "{0}, and\u00a0{1}",
		listSemi: "{0}; {1}", listClash: ",",
		or2: "{0} or\u00a0{1}", orEnd: "{0}, or\u00a0{1}", yes: "yes", no: "no", intervalSep: ", "}
	symIT = symbols{decimal: ",", group: ".", minGrouping: 1, percent: "#%",
		list2: "{0} e\u00a0{1}", listStart: "{0}, {1}", listMiddle: "{0}, {1}", listEnd: "{0} e\u00a0{1}",
		listSemi: "{0}; {1}", listClash: ",",
		or2: "{0} o\u00a0{1}", orEnd: "{0} o\u00a0{1}", yes: "sì", no: "no", intervalSep: "; "}
	symES = symbols{decimal: ",", group: ".", minGrouping: 2, percent: "#\u00a0%",
		list2: "{0} y\u00a0{1}", listStart: "{0}, {1}", listMiddle: "{0}, {1}", listEnd: "{0} y\u00a0{1}",
		listSemi: "{0}; {1}", listClash: ",",
		or2: "{0} o\u00a0{1}", orEnd: "{0} o\u00a0{1}", yes: "sí", no: "no", intervalSep: "; "}
	symZH = symbols{decimal: ".", group: ",", minGrouping: 1, percent: "#%",
		list2: "{0}和{1}", listStart: "{0}、{1}", listMiddle: "{0}、{1}", listEnd: "{0}和{1}",
		listSemi: "{0}；{1}", listClash: "、，",
		or2: "{0}或{1}", orEnd: "{0}或{1}", yes: "是", no: "否", intervalSep: ", "}
)

// lang is the language subtag, lower case ("zh" for "zh-Hans").
func (l Locale) lang() string {
	lang := l.Lang
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	return strings.ToLower(lang)
}

// sym returns the symbols of the language, English's for a language
// without its own. The caller must not modify them.
func (l Locale) sym() *symbols {
	switch l.lang() {
	case "it":
		return &symIT
	case "es":
		return &symES
	case "zh":
		return &symZH
	}
	return &symEN
}

// List joins items in the language's list style ("a, b e c", "a, b y c",
// "a、b和c"). The conjunction is bound to the last item by a no-break
// space (U+00A0), so a line never ends on "e" and starts with a lone "0":
// "80, 20 e\u00a00" breaks before the "e", as Italian and Spanish
// typography want. In Spanish "y" becomes "e" before a word that starts with
// the sound i ("agua e hielo" no, "padres e hijos" yes), as ICU does.
// Items that hold the list's own comma (decimal numbers in Italian and
// Spanish: "0,5"; a label "aperti, senza backoff"; "开放，无退避" in
// Chinese) are told apart by semicolons: "0,5; 1,5 e 2,5".
func (l Locale) List(items []string) string {
	s := l.sym()
	two, end := s.list2, s.listEnd
	if l.lang() == "es" && len(items) > 1 && spanishE(items[len(items)-1]) {
		two, end = "{0} e\u00a0{1}", "{0} e\u00a0{1}"
	}
	return s.join(items, two, end)
}

// join is joinList with the symbols' start and middle, or their
// semicolons when an item holds a character of listClash.
func (s *symbols) join(items []string, two, end string) string {
	start, middle := s.listStart, s.listMiddle
	for _, it := range items {
		if strings.ContainsAny(it, s.listClash) {
			start, middle = s.listSemi, s.listSemi
			break
		}
	}
	return joinList(items, two, start, middle, end)
}

// ListOr joins items as alternatives ("a, b o c", "a、b或c"). In Spanish
// "o" becomes "u" before the sound o, as ICU does ("7 u 8", "siete u ocho").
func (l Locale) ListOr(items []string) string {
	s := l.sym()
	two, end := s.or2, s.orEnd
	if l.lang() == "es" && len(items) > 1 && spanishU(items[len(items)-1]) {
		two, end = "{0} u\u00a0{1}", "{0} u\u00a0{1}"
	}
	return s.join(items, two, end)
}

// spanishE: the word starts with the sound i: "i", "hi" but not a
// diphthong "hia", "hie", "hio", "hiu" (hielo, hiato).
func spanishE(w string) bool {
	w = strings.ToLower(w)
	switch {
	case strings.HasPrefix(w, "i") || strings.HasPrefix(w, "í"):
		return true
	case strings.HasPrefix(w, "hi") || strings.HasPrefix(w, "hí"):
		rest := strings.TrimPrefix(strings.TrimPrefix(w, "hi"), "hí")
		return rest == "" || !strings.ContainsAny(rest[:1], "aeiouáéíóú")
	}
	return false
}

// spanishU: the word (or number) starts with the sound o: "o", "ho",
// numbers read from "8" (ocho, ochenta…) and eleven ("11", "11.000").
func spanishU(w string) bool {
	w = strings.ToLower(w)
	switch {
	case strings.HasPrefix(w, "o") || strings.HasPrefix(w, "ó") || strings.HasPrefix(w, "ho") || strings.HasPrefix(w, "hó"):
		return true
	case strings.HasPrefix(w, "8"):
		return true
	case strings.HasPrefix(w, "11"):
		// 11 is "once"; 11.000 "once mil"; but 110 is "ciento diez"
		digits := 0
		for _, r := range w {
			if r >= '0' && r <= '9' {
				digits++
			} else if r != '.' {
				break
			}
		}
		return digits%3 == 2
	}
	return false
}

func joinList(items []string, two, start, middle, end string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	case 2:
		return pattern(two, items[0], items[1])
	}
	n := len(items)
	acc := pattern(end, items[n-2], items[n-1])
	for i := n - 3; i >= 1; i-- {
		acc = pattern(middle, items[i], acc)
	}
	return pattern(start, items[0], acc)
}

func pattern(p, a, b string) string {
	return strings.Replace(strings.Replace(p, "{0}", a, 1), "{1}", b, 1)
}

// YesNo writes a boolean as the language's yes or no ("sì"/"no",
// "sí"/"no", "是"/"否").
func (l Locale) YesNo(b bool) string {
	if b {
		return l.sym().yes
	}
	return l.sym().no
}
