package classroom

import (
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// PageConfig is what the exercises block of a page needs.
type PageConfig struct {
	Registry *calc.Registry
	Locale   locale.Locale
	// Code and Student are the variant the page shows before the reader
	// types anything (and without JavaScript).
	Code, Student string
	// Embed is the href of the language's embed pages ("/it/embed/"):
	// each exercise links to its calculator there, with its parameters.
	Embed string
	// Script, Derive and Style are the hrefs of classroom.js,
	// classroom-derive.js and classroom.css.
	Script, Derive, Style string
	// Table is Tables(Registry), when the caller has it already (it is the
	// same for every language); nil computes it.
	Table *Table
}

// pageData is the JSON of <script type="application/json"
// id="retrylab-classroom">, read by classroom.js.
type pageData struct {
	Lang    string `json:"lang"`
	Decimal string `json:"decimal"`
	// Group is the grouping separator of integers and MinGroup the
	// fewest integer digits that are grouped (5 in Spanish: 1600 but
	// 16.000), so that the script writes numbers as site/locale does.
	Group    string `json:"group"`
	MinGroup int    `json:"min_group"`
	// List2 and List3 are the language's lists of two and three items
	// ("%0% e %1%", "%0%, %1% e %2%"), the patterns of site/locale.List.
	List2   string            `json:"list2"`
	List3   string            `json:"list3"`
	Code    string            `json:"code"`
	Student string            `json:"student"`
	Embed   string            `json:"embed"`
	Strings map[string]string `json:"strings"`
	Table   *Table            `json:"table"`
}

// jsonInHTML escapes what could end a script element or start a comment.
func jsonInHTML(s string) string {
	return strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "\u2028", `\u2028`, "\u2029", `\u2029`).Replace(s)
}

// PageHTML renders the exercises block: the form (class code, student),
// the worksheet of the default variant (rendered here, so the page reads
// without JavaScript; classroom.js renders the reader's own), the print
// button, where a teacher gets the answer key (the command line: the
// student's page holds no answer, only the Checks of Table), the data the
// script needs and the links to the scripts and style sheet.
func PageHTML(cfg PageConfig) (string, error) {
	loc := cfg.Locale
	tab := cfg.Table
	if tab == nil {
		var err error
		if tab, err = Tables(cfg.Registry); err != nil {
			return "", err
		}
	}
	v, err := NewVariant(cfg.Registry, cfg.Code, cfg.Student)
	if err != nil {
		return "", err
	}
	data := pageData{Lang: loc.Lang, Decimal: loc.DecimalMark(), Group: loc.GroupMark(), MinGroup: loc.GroupMin(), Code: cfg.Code,
		List2: loc.List([]string{"%0%", "%1%"}), List3: loc.List([]string{"%0%", "%1%", "%2%"}), Student: cfg.Student, Embed: cfg.Embed,
		Strings: loc.Subset("classroom.").Strings, Table: tab}
	js, err := json.Marshal(data)
	if err != nil {
		return "", err
	}
	esc := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<link rel=\"stylesheet\" href=\"%s\">\n<script src=\"%s\" defer></script>\n<script src=\"%s\" defer></script>\n", esc(cfg.Style), esc(cfg.Derive), esc(cfg.Script))
	b.WriteString(`<div class="classroom" data-classroom>` + "\n")
	b.WriteString(`<script type="application/json" id="retrylab-classroom">` + jsonInHTML(string(js)) + "</script>\n")
	fmt.Fprintf(&b, "<noscript><p class=\"notice\">%s</p></noscript>\n", esc(locale.Expand(loc.T("classroom.noscript"), "code", v.Code, "student", v.Student)))
	b.WriteString(`<form class="classroom-form" data-classroom-form>`)
	fmt.Fprintf(&b, `<label>%s <input name="code" value="%s" maxlength="%d" autocomplete="off" spellcheck="false"></label>`, esc(loc.T("classroom.code")), esc(cfg.Code), MaxText)
	fmt.Fprintf(&b, `<label>%s <input name="student" value="%s" maxlength="%d" autocomplete="off" spellcheck="false"></label>`, esc(loc.T("classroom.student")), esc(cfg.Student), MaxText)
	fmt.Fprintf(&b, `<button type="submit" disabled>%s</button>`, esc(loc.T("classroom.show")))
	b.WriteString(`<p class="widget-error" data-classroom-error role="alert" hidden></p></form>` + "\n")
	fmt.Fprintf(&b, `<div class="classroom-sheet" data-classroom-sheet data-seed="%d">`+"\n", v.Seed)
	fmt.Fprintf(&b, "<p class=\"classroom-variant\">%s</p>\n", esc(locale.Expand(loc.T("classroom.variant"), "code", v.Code, "student", v.Student, "seed", strconv.FormatUint(uint64(v.Seed), 10))))
	fmt.Fprintf(&b, "<p class=\"classroom-name\">%s</p>\n<ol class=\"classroom-list\">\n", esc(loc.T("classroom.name_line")))
	for _, it := range v.Items {
		e := it.Exercise
		fmt.Fprintf(&b, `<li class="classroom-item" data-exercise="%s" data-option="%d" data-params="%s">`, esc(e.ID), it.Option, esc(sortedQuery(it.Params)))
		fmt.Fprintf(&b, "<h2>%s</h2><p class=\"classroom-text\">%s</p><ul class=\"classroom-questions\">", esc(loc.T("classroom.ex."+e.ID+".title")), esc(Statement(loc, it)))
		for _, a := range it.Answers {
			fmt.Fprintf(&b, `<li><div class="classroom-q"><span>%s</span> <span class="classroom-blank"></span>%s</div></li>`, esc(QuestionText(loc, e, a.Question)), map[bool]string{true: " %", false: ""}[a.Percent])
		}
		fmt.Fprintf(&b, "</ul><p class=\"classroom-open\"><a href=\"%s\">%s</a></p></li>\n", esc(cfg.Embed+e.Calc+"/?"+sortedQuery(it.Params)), esc(loc.T("classroom.open")))
	}
	b.WriteString("</ol>\n</div>\n")
	b.WriteString(`<div class="classroom-actions">`)
	fmt.Fprintf(&b, `<button type="button" data-print="sheet" disabled>%s</button>`, esc(loc.T("classroom.print_sheet")))
	b.WriteString("</div>\n")
	fmt.Fprintf(&b, "<p class=\"classroom-key-note\" data-classroom-key-note>%s</p>\n</div>\n", esc(loc.T("classroom.key_note")))
	return b.String(), nil
}

// sortedQuery encodes v with its keys sorted, as classroom.js does.
func sortedQuery(v url.Values) string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = url.QueryEscape(k) + "=" + url.QueryEscape(v.Get(k))
	}
	return strings.Join(parts, "&")
}
