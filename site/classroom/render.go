package classroom

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/site/locale"
)

// Keys returns every string key the classroom needs in each language's
// table ([classroom] in content/<lang>/strings.toml).
func Keys() []string {
	keys := []string{
		"classroom.code", "classroom.student", "classroom.show", "classroom.key_note",
		"classroom.print_sheet", "classroom.sheet_title", "classroom.key_title",
		"classroom.check", "classroom.answer", "classroom.open", "classroom.noscript", "classroom.variant",
		"classroom.exercise", "classroom.name_line", "classroom.key_student", "classroom.bad_text",
	}
	// the verdicts the page gives (Check.Judge: no "too high" or "too
	// low", which the hashes do not know)
	for _, v := range []Verdict{Right, Wrong, Syntax, Empty} {
		keys = append(keys, "classroom.verdict."+string(v))
	}
	for _, e := range Exercises() {
		keys = append(keys, "classroom.ex."+e.ID+".title", "classroom.ex."+e.ID+".text", "classroom.ex."+e.ID+".hint")
		for _, q := range e.Questions {
			keys = append(keys, "classroom.ex."+e.ID+".q."+q.Field)
			for _, c := range q.Choices {
				keys = append(keys, "classroom.choice."+c)
			}
		}
	}
	return keys
}

// paramText formats a parameter value for a statement: numbers for the
// locale, lists in its list style, other text as it is.
func paramText(loc locale.Locale, name, v string) string {
	if name == "seed" || strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[") {
		return v // a seed, or JSON (a payload), as it is
	}
	if strings.Contains(v, ",") {
		parts := strings.Split(v, ",")
		for i, p := range parts {
			parts[i] = paramText(loc, name, p)
		}
		return loc.List(parts)
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return loc.Number(f)
	}
	return v
}

// Statement is the localized text of an item, its parameters filled in.
func Statement(loc locale.Locale, it Item) string {
	var kv []string
	for name := range it.Params {
		kv = append(kv, name, paramText(loc, name, it.Params.Get(name)))
	}
	return locale.Expand(loc.T("classroom.ex."+it.Exercise.ID+".text"), kv...)
}

// QuestionText is the localized question of one answer.
func QuestionText(loc locale.Locale, e *Exercise, q Question) string {
	return loc.T("classroom.ex." + e.ID + ".q." + q.Field)
}

// ChoicesText lists the choices of a question for paper: "(a / b / c)";
// "" for a number.
func ChoicesText(loc locale.Locale, q Question) string {
	if q.Choices == nil {
		return ""
	}
	names := make([]string, len(q.Choices))
	for i, c := range q.Choices {
		names[i] = loc.TOr("classroom.choice."+c, c)
	}
	return "(" + strings.Join(names, " / ") + ")"
}

// AnswerText formats an expected answer for the key.
func AnswerText(loc locale.Locale, a Answer) string {
	if a.Choices != nil {
		return loc.TOr("classroom.choice."+a.Choice, a.Choice)
	}
	s := loc.Fixed(a.Value, a.Decimals)
	if a.Decimals == 0 {
		// rounded, not cut
		s = loc.Int(int64(math.Round(a.Value)))
	}
	if a.Percent {
		s += " %"
	}
	return s
}

// ToleranceText says how far from the key an answer may be ("± 0,005").
func ToleranceText(loc locale.Locale, a Answer) string {
	if a.Choices != nil || a.Tolerance() == 0 {
		return ""
	}
	return "± " + loc.Sig(a.Tolerance(), 2)
}

// Format is an output format of worksheets and keys.
type Format string

// Formats of WriteSheets.
const (
	HTML     Format = "html"
	Markdown Format = "md"
)

// Sheet writes one student's worksheet (key false) or the answer key of
// several students (key true) as a standalone HTML page or as Markdown.
// css is inlined into the HTML page (nil: none).
func Sheet(loc locale.Locale, vs []*Variant, key bool, f Format, css string) string {
	var b strings.Builder
	title := loc.T("classroom.sheet_title")
	if key {
		title = loc.T("classroom.key_title")
	}
	title = locale.Expand(title, "code", vs[0].Code, "student", vs[0].Student)
	if f == HTML {
		fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n", html.EscapeString(loc.Lang), html.EscapeString(title))
		if css != "" {
			b.WriteString("<style>\n" + css + "\n</style>\n")
		}
		b.WriteString("</head>\n<body class=\"classroom-print\">\n")
		fmt.Fprintf(&b, "<h1>%s</h1>\n", html.EscapeString(title))
	} else {
		fmt.Fprintf(&b, "# %s\n\n", title)
	}
	if key {
		writeKey(&b, loc, vs, f)
	} else {
		writeSheet(&b, loc, vs[0], f)
	}
	if f == HTML {
		b.WriteString("</body>\n</html>\n")
	}
	return b.String()
}

func writeSheet(b *strings.Builder, loc locale.Locale, v *Variant, f Format) {
	esc := html.EscapeString
	if f == HTML {
		fmt.Fprintf(b, "<p class=\"classroom-variant\">%s</p>\n", esc(locale.Expand(loc.T("classroom.variant"), "code", v.Code, "student", v.Student, "seed", strconv.FormatUint(uint64(v.Seed), 10))))
		fmt.Fprintf(b, "<p class=\"classroom-name\">%s</p>\n<ol class=\"classroom-list\">\n", esc(loc.T("classroom.name_line")))
	} else {
		fmt.Fprintf(b, "%s\n\n%s\n\n", locale.Expand(loc.T("classroom.variant"), "code", v.Code, "student", v.Student, "seed", strconv.FormatUint(uint64(v.Seed), 10)), loc.T("classroom.name_line"))
	}
	for i, it := range v.Items {
		e := it.Exercise
		if f == HTML {
			fmt.Fprintf(b, "<li class=\"classroom-item\"><h2>%s</h2>\n<p>%s</p>\n<ul class=\"classroom-questions\">\n", esc(loc.T("classroom.ex."+e.ID+".title")), esc(Statement(loc, it)))
			for _, a := range it.Answers {
				fmt.Fprintf(b, "<li>%s <span class=\"classroom-blank\"></span> %s</li>\n", esc(QuestionText(loc, e, a.Question)), esc(ChoicesText(loc, a.Question)))
			}
			b.WriteString("</ul></li>\n")
		} else {
			fmt.Fprintf(b, "## %d. %s\n\n%s\n\n", i+1, loc.T("classroom.ex."+e.ID+".title"), Statement(loc, it))
			for _, a := range it.Answers {
				fmt.Fprintf(b, "- %s ________ %s\n", QuestionText(loc, e, a.Question), ChoicesText(loc, a.Question))
			}
			b.WriteString("\n")
		}
	}
	if f == HTML {
		b.WriteString("</ol>\n")
	}
}

func writeKey(b *strings.Builder, loc locale.Locale, vs []*Variant, f Format) {
	esc := html.EscapeString
	for _, v := range vs {
		head := locale.Expand(loc.T("classroom.key_student"), "student", v.Student, "seed", strconv.FormatUint(uint64(v.Seed), 10))
		if f == HTML {
			fmt.Fprintf(b, "<section class=\"classroom-key\"><h2>%s</h2>\n<table>\n<tbody>\n", esc(head))
		} else {
			fmt.Fprintf(b, "## %s\n\n| # | %s | %s |\n|---|---|---|\n", head, loc.T("classroom.exercise"), loc.T("classroom.answer"))
		}
		for i, it := range v.Items {
			for _, a := range it.Answers {
				q := QuestionText(loc, it.Exercise, a.Question)
				ans := AnswerText(loc, a)
				if tol := ToleranceText(loc, a); tol != "" {
					ans += " (" + tol + ")"
				}
				if f == HTML {
					fmt.Fprintf(b, "<tr><th scope=\"row\">%d</th><td>%s</td><td data-answer=\"%s\">%s</td></tr>\n", i+1, esc(q), esc(it.Exercise.ID+"."+a.Field), esc(ans))
				} else {
					fmt.Fprintf(b, "| %d | %s | %s |\n", i+1, strings.ReplaceAll(q, "|", "\\|"), ans)
				}
			}
		}
		if f == HTML {
			b.WriteString("</tbody>\n</table>\n</section>\n")
		} else {
			b.WriteString("\n")
		}
	}
}

// Table is what the classroom page's script needs to derive a variant and
// check its answers without any network: the exercises (grids included)
// and, for every option of each, the Check of each question (salted
// hashes of the answer, selfcheck.go): never the answers themselves.
type Table struct {
	Exercises []*Exercise `json:"exercises"`
	Checks    [][][]Check `json:"checks"` // [exercise][option][question]
}

// Tables computes the answers of every option of every exercise and
// keeps their Checks.
func Tables(reg *calc.Registry) (*Table, error) {
	if reg == nil {
		reg = calc.New()
	}
	t := &Table{Exercises: Exercises()}
	for _, e := range t.Exercises {
		rows := make([][]Check, len(e.Options))
		for i := range e.Options {
			ans, err := Answers(reg, e, i)
			if err != nil {
				return nil, err
			}
			row := make([]Check, len(ans))
			for j, a := range ans {
				row[j] = a.SelfCheck(e.ID, i)
			}
			rows[i] = row
		}
		t.Checks = append(t.Checks, rows)
	}
	return t, nil
}
