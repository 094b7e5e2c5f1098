package pages

import (
	"encoding/json"
	"html"
	"regexp"
	"strings"
)

// Search (issue 34): every page of a language carries a search box
// (templates/layout.html, site/assets/search.js) over the index that
// Pagefind writes into dist/pagefind/ after the build (site/search; the
// `retrylab build` command runs it when it is installed). The pages mark
// what Pagefind indexes (data-pagefind-body on <main>: the articles and
// the language indexes, not the root, the 404 page or the embeds) and
// weight the words that name a page's own subject, so that they rank that
// page first: the glossary's terms (the first cell of each row of its
// tables) and the widgets' titles, the calculators' names in the reader's
// language, on the articles that hold them.
//
// Weighting the words in the body (data-pagefind-weight) is not enough:
// a term the articles use often ("gettone", "despachador") still ranks an
// article above the glossary by its count. So each page also carries its
// subjects as metadata (data-pagefind-meta: "term" on the glossary,
// "calc" on an article), and the search box asks Pagefind to boost a
// match in them (its ranking option metaWeights, from searchRanking): a
// query that is a whole term or a whole calculator name lifts the page
// that defines it above those that only use it. The boost works by words,
// and a Chinese query's words (the browser's Intl.Segmenter) are not always
// the index's (Pagefind's segmenter): for a query that is a whole term or
// name, the box also moves the page whose metadata lists it to the top
// (search.js, ownFirst). TestSearchOwnPages
// (site/e2e/classroom) searches every term and every name.

// searchBox is what the search form needs.
type searchBox struct {
	Script string // BASE/pagefind/pagefind.js
	Base   string // BASE, Pagefind's baseUrl
	Action string // the language's index: the form's action without script
	// Ranking is the JSON of Pagefind's ranking options (searchRanking).
	Ranking string
}

// Pagefind weights (data-pagefind-weight, 0 to 10; 1 is plain text,
// headings are 7 and more) and metadata boosts (metaWeights; the title's
// is 5 by default, a field not named 1).
const (
	weightGlossaryTerm = "10"
	weightWidgetTitle  = "8"
	// The exercises' headings name the calculators too ("Amplificazione"),
	// shorter than the widgets' titles: below a heading's default (they
	// would rank the exercises above the calculator's own article).
	weightExerciseHeading = "2"
	// The boosts of a match in the glossary's terms and in an article's
	// calculator names; the terms' is the larger, so that a term that is
	// also a word of a calculator's name ("jitter", "重试") finds the
	// glossary. Pagefind multiplies them by the matched words' inverse
	// document frequency, which is small for a word every page uses (the
	// Chinese terms "重试", "服务商"): hence their size. Measured with
	// TestSearchOwnPages: at 40 and 20 the Chinese "重试", "服务商" and
	// "时间段" still found an article first.
	metaTerm = 1500
	metaCalc = 800
)

// searchRanking is the JSON of the ranking options the search box passes
// to Pagefind (site/assets/search.js reads it from data-ranking).
func searchRanking() string {
	b, _ := json.Marshal(map[string]any{"metaWeights": map[string]float64{"term": metaTerm, "calc": metaCalc}})
	return string(b)
}

var (
	glossaryTermRE = regexp.MustCompile(`<td data-pagefind-weight="` + weightGlossaryTerm + `">(.*?)</td>`)
	widgetTitleRE  = regexp.MustCompile(`<p class="widget-title" [^>]*>(.*?)</p>`)
	tagRE          = regexp.MustCompile(`<[^>]*>`)
)

// searchSubjects returns the metadata element of a body that searchWeights
// has marked: the glossary's terms (field "term") or the page's calculator
// names (field "calc"), "" for none.
func searchSubjects(slug, body string) string {
	field, re := "calc", widgetTitleRE
	if slug == "glossary" {
		field, re = "term", glossaryTermRE
	} else if slug == "playground" {
		return ""
	}
	var names []string
	seen := map[string]bool{}
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		name := strings.TrimSpace(html.UnescapeString(tagRE.ReplaceAllString(m[1], "")))
		if name != "" && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	// Pagefind's inline metadata, "key:value", takes the value to the end
	// of the attribute, commas included.
	return `<span hidden data-pagefind-meta="` + html.EscapeString(field+":"+strings.Join(names, " · ")) + `"></span>`
}

// SearchSubjects is searchSubjects's list, for the tests: the names of
// the metadata element of a built page, or nil.
func SearchSubjects(page string) (field string, names []string) {
	i := strings.Index(page, `<span hidden data-pagefind-meta="`)
	if i < 0 {
		return "", nil
	}
	rest := page[i+len(`<span hidden data-pagefind-meta="`):]
	v := html.UnescapeString(rest[:strings.IndexByte(rest, '"')])
	field, list, _ := strings.Cut(v, ":")
	return field, strings.Split(list, " · ")
}

// exercisesSearchWeights lowers the weight of the exercises block's
// headings (site/classroom's h2, one per exercise).
func exercisesSearchWeights(block string) string {
	return strings.ReplaceAll(block, "<h2>", `<h2 data-pagefind-weight="`+weightExerciseHeading+`">`)
}

// searchWeights marks the words of page slug's body that rank it first.
func searchWeights(slug, body string) string {
	if slug == "glossary" {
		body = strings.ReplaceAll(body, "<tr>\n<td>", `<tr>`+"\n"+`<td data-pagefind-weight="`+weightGlossaryTerm+`">`)
	}
	if slug != "playground" { // the playground holds every calculator: none is its subject
		body = strings.ReplaceAll(body, `<p class="widget-title" `, `<p class="widget-title" data-pagefind-weight="`+weightWidgetTitle+`" `)
	}
	return searchSubjects(slug, body) + body
}
