package pages

import "strings"

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

// searchBox is what the search form needs.
type searchBox struct {
	Script string // BASE/pagefind/pagefind.js
	Base   string // BASE, Pagefind's baseUrl
	Action string // the language's index: the form's action without script
}

// Pagefind weights (data-pagefind-weight, 0 to 10; 1 is plain text,
// headings are 7 and more).
const (
	weightGlossaryTerm = "10"
	weightWidgetTitle  = "8"
	// The exercises' headings name the calculators too ("Amplificazione"),
	// shorter than the widgets' titles: below a heading's default (they
	// would rank the exercises above the calculator's own article).
	weightExerciseHeading = "2"
)

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
	return body
}
