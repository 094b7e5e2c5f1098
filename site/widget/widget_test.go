package widget

import (
	"encoding/json"
	"flag"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/i18n"
	"retrylab/site/locale"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func locales(t testing.TB) map[string]locale.Locale {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	all, err := i18n.LoadAll(filepath.Join(filepath.Dir(file), "..", "..", "content"))
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// renderDefaults renders calculator c at its defaults.
func renderDefaults(t *testing.T, c *calc.Calculator, loc locale.Locale) string {
	t.Helper()
	out, err := Render(Spec{Calc: c, ID: c.Name + "-1"}, loc)
	if err != nil {
		t.Fatalf("%s %s: %v", c.Name, loc.Lang, err)
	}
	return out
}

// TestGolden renders every calculator at its defaults in each language.
func TestGolden(t *testing.T) {
	all := locales(t)
	for _, c := range calc.New().List() {
		for _, lang := range locale.Languages() {
			golden(t, filepath.Join("testdata", c.Name+"."+lang+".golden"), renderDefaults(t, c, all[lang]))
		}
	}
}

// golden compares got with the file at path, or writes it there under
// -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./site/widget -update)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test ./site/widget -update and review the diff)", path)
	}
}

var dataOut = regexp.MustCompile(`data-out="([^"]*)" data-value="([^"]*)"`)

// Every data-out holds the calculator's own JSON value of the field, and
// every calculator shows at least one field.
func TestDataOutMatchesJSON(t *testing.T) {
	all := locales(t)
	for _, c := range calc.New().List() {
		res, err := c.Compute(nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(b, &fields); err != nil {
			t.Fatal(err)
		}
		for _, lang := range locale.Languages() {
			out := renderDefaults(t, c, all[lang])
			ms := dataOut.FindAllStringSubmatch(out, -1)
			if len(ms) == 0 {
				t.Errorf("%s %s: no data-out", c.Name, lang)
			}
			for _, m := range ms {
				want, ok := fields[m[1]]
				if !ok {
					t.Errorf("%s %s: data-out=%q is not a field of the result", c.Name, lang, m[1])
					continue
				}
				if got := html.UnescapeString(m[2]); got != string(want) {
					t.Errorf("%s %s: data-out=%q data-value %s, JSON %s", c.Name, lang, m[1], got, want)
				}
			}
		}
	}
}

// Every control named in the contract is there: one named control per
// parameter, an error slot per parameter and one for the form.
func TestControls(t *testing.T) {
	loc := locales(t)["it"]
	for _, c := range calc.New().List() {
		out := renderDefaults(t, c, loc)
		for _, p := range c.Params {
			// a segmented control's radios share the name of the control
			// the playground reads (controls.go)
			radios := strings.Count(out, `<input type="radio" name="`+p.Name+`"`)
			if n := strings.Count(out, ` name="`+p.Name+`"`) - radios; n != 1 {
				t.Errorf("%s: %d controls named %s, want 1", c.Name, n, p.Name)
			}
			if radios != 0 && (p.Kind != calc.Choice || radios != len(p.Choices) || len(p.Choices) > maxSegments) {
				t.Errorf("%s: %d radios named %s", c.Name, radios, p.Name)
			}
			if !strings.Contains(out, `data-error-for="`+p.Name+`" role="alert" hidden`) {
				t.Errorf("%s: no error slot for %s", c.Name, p.Name)
			}
			if !strings.Contains(out, `<label for="`+c.Name+`-1-`+p.Name+`" id="`+c.Name+`-1-`+p.Name+`-label">`) {
				t.Errorf("%s: no label for %s", c.Name, p.Name)
			}
		}
		for _, must := range []string{`data-widget="` + c.Name + `"`, `data-error-for="" role="alert" hidden`, `data-action="reset"`, `data-output>`, `data-static>`} {
			if !strings.Contains(out, must) {
				t.Errorf("%s: no %s", c.Name, must)
			}
		}
		if (c.Param("seed") != nil) != strings.Contains(out, `data-action="reseed"`) {
			t.Errorf("%s: reseed button iff a seed parameter", c.Name)
		}
		if strings.Contains(out, "style=") || strings.Contains(out, "<script") || strings.Contains(out, " on") && regexp.MustCompile(` on[a-z]+=`).MatchString(out) {
			t.Errorf("%s: inline style or script", c.Name)
		}
	}
}

// TestMoreFieldsInNoscript: the fields of "more parameters" are written
// inside the disclosure's <noscript data-fields> (issue 33: no closed
// disclosure holds a field when a browser running scripts parses the page),
// every other control outside it; the noscript closes once, after the last
// field.
func TestMoreFieldsInNoscript(t *testing.T) {
	loc := locales(t)["es"]
	more := 0
	for _, c := range calc.New().List() {
		// (a value the page sets away from its default shows outside the
		// disclosure: only the registry's defaults are written inside)
		out := renderDefaults(t, c, loc)
		// the form's: a player's controls and a copy button, in the
		// output, have noscripts of their own (TestFieldsLater)
		out = out[:strings.Index(out, "</form>")]
		open := `<details class="widget-more" data-more><summary>`
		i := strings.Index(out, open)
		if i < 0 {
			if len(c.Params) > maxShown || len(c.Essential) > 0 {
				t.Errorf("%s: %d parameters and no \"more parameters\"", c.Name, len(c.Params))
			}
			if strings.Contains(out, "<noscript") {
				t.Errorf("%s: a noscript without the disclosure", c.Name)
			}
			continue
		}
		more++
		rest := out[i:]
		ns := strings.Index(rest, "<noscript "+FieldsAttr+">")
		end := strings.Index(rest, "</noscript></details>")
		if ns < 0 || end < ns || strings.Count(out, "</noscript") != 1 || strings.Count(out, "<noscript") != 1 {
			t.Errorf("%s: want one noscript[%s] closed right before the disclosure's end", c.Name, FieldsAttr)
			continue
		}
		inside := rest[ns:end]
		for _, p := range c.Params {
			in := strings.Contains(inside, ` name="`+p.Name+`"`)
			if in == essential(c, p.Name) {
				t.Errorf("%s: %s inside the noscript = %v, essential = %v", c.Name, p.Name, in, essential(c, p.Name))
			}
		}
	}
	if more == 0 {
		t.Fatal("no calculator has a \"more parameters\" disclosure")
	}
}

// TestFieldsLater: with Spec.FieldsLater (an article's widgets) the
// widget holds no form control outside a <noscript data-fields>: every
// field, the shown ones in one before the disclosure, the form's buttons
// in one, and the players' controls (writePlayer, always) in theirs. The
// form's error line and the disclosure's summary stay markup. A widget
// with no form control when the page parses is one the browser may skip
// laying out off screen (style.css, issue 33).
func TestFieldsLater(t *testing.T) {
	loc := locales(t)["it"]
	players := 0
	for _, c := range calc.New().List() {
		// every view, so that every player is drawn
		out, err := Render(Spec{Calc: c, ID: c.Name + "-1", FieldsLater: true, Views: allViews().names(c)}, loc)
		if err != nil {
			t.Fatal(err)
		}
		var outside strings.Builder
		rest, inside := out, ""
		for {
			i := strings.Index(rest, "<noscript "+FieldsAttr+">")
			if i < 0 {
				outside.WriteString(rest)
				break
			}
			j := strings.Index(rest[i:], "</noscript>")
			if j < 0 {
				t.Fatalf("%s: a noscript never closed", c.Name)
			}
			outside.WriteString(rest[:i])
			inside += rest[i : i+j]
			rest = rest[i+j+len("</noscript>"):]
		}
		form := out[strings.Index(out, "<form "):strings.Index(out, "</form>")]
		if n := strings.Count(form, "<noscript"); n < 2 || n > 3 {
			t.Errorf("%s: %d noscripts in the form, want the shown fields', the disclosure's and the buttons'", c.Name, n)
		}
		for _, p := range c.Params {
			if !strings.Contains(inside, ` name="`+p.Name+`"`) {
				t.Errorf("%s: %s written outside every noscript", c.Name, p.Name)
			}
		}
		o := outside.String()
		for _, tag := range []string{"<input", "<select", "<textarea", "<button"} {
			if strings.Contains(o, tag) {
				t.Errorf("%s: a %s> outside the noscripts", c.Name, tag)
			}
		}
		if strings.Contains(o, `class="widget-field"`) {
			t.Errorf("%s: a field outside the noscripts", c.Name)
		}
		if !strings.Contains(inside, `data-action="reset"`) {
			t.Errorf("%s: no reset button in a noscript", c.Name)
		}
		if strings.Contains(inside, `data-action="play"`) {
			players++
		}
		if !strings.Contains(o, `data-error-for=""`) {
			t.Errorf("%s: the form's error line inside a noscript", c.Name)
		}
		if strings.Contains(form, "<details") && !strings.Contains(o, "<summary>") {
			t.Errorf("%s: the disclosure's summary inside a noscript", c.Name)
		}
	}
	if players == 0 {
		t.Error("no widget drew a player: the test sees none of their controls")
	}
}

// Every field the table can show has a label in every language, and so
// has every value of an enumerated field (a text field whose values are
// names: errors' decision, batch_decision, dispatcher…), in every run the
// test can reach: the defaults, the examples, and the combinations of
// the choice and boolean parameters (one at a time where they are too
// many). A field the defaults hide as an echo of a parameter shows in
// another run (errors' fallback when the class allows none), so the
// runs, not the defaults alone, say what needs a label.
func TestFieldLabels(t *testing.T) {
	all := locales(t)
	for _, c := range calc.New().List() {
		fields, values := map[string]bool{}, map[string]bool{}
		for _, vals := range labelRuns(t, c) {
			a, err := c.Parse(vals)
			if err != nil {
				t.Fatalf("%s %v: %v", c.Name, vals, err)
			}
			res, err := c.Run(a)
			if err != nil {
				continue // a combination the calculator refuses
			}
			r, err := encodeAll(res)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range r.list {
				if !tableField(c, a, f) {
					continue
				}
				fields[f.Name] = true
				for _, v := range enumValues(c, a, f) {
					values[f.Name+"."+v] = true
				}
			}
		}
		for _, lang := range locale.Languages() {
			for f := range fields {
				if _, ok := all[lang].Lookup("field." + c.Name + "." + f); !ok {
					t.Errorf("content/%s/strings.toml lacks field.%s.%s", lang, c.Name, f)
				}
			}
			for v := range values {
				if _, ok := all[lang].Lookup("field." + c.Name + "." + v); !ok {
					t.Errorf("content/%s/strings.toml lacks \"%s\" under [field.%s] (a value the table shows)", lang, v, c.Name)
				}
			}
		}
	}
}

// freeText are the text fields (CALC.FIELD) whose values are data, not
// names the table translates: the idempotency key and its parts.
var freeText = map[string]bool{
	"idempotency-key.key": true, "idempotency-key.tenant": true, "idempotency-key.task": true,
	"idempotency-key.sha256": true, "idempotency-key.canonical": true,
}

var enumName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// enumValues returns the values of f that the table shows as labels: a
// text value, or the text values of a list, when they are names.
func enumValues(c *calc.Calculator, a calc.Args, f field) []string {
	if freeText[c.Name+"."+f.Name] {
		return nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(f.Raw, &raw); err != nil {
		raw = []json.RawMessage{json.RawMessage(f.Raw)}
	}
	var out []string
	for _, e := range raw {
		var s string
		if json.Unmarshal(e, &s) == nil && enumName.MatchString(s) {
			out = append(out, s)
		}
	}
	return out
}

// labelRuns are the parameter values TestFieldLabels runs c with.
func labelRuns(t *testing.T, c *calc.Calculator) []url.Values {
	runs := []url.Values{nil}
	for _, ex := range c.Examples {
		v, err := url.ParseQuery(ex)
		if err != nil {
			t.Fatalf("%s example %q: %v", c.Name, ex, err)
		}
		runs = append(runs, v)
	}
	type axis struct {
		name   string
		values []string
	}
	var axes []axis
	combos := 1
	for _, p := range c.Params {
		switch {
		case p.Kind == calc.Choice:
			axes = append(axes, axis{p.Name, p.Choices})
		case p.Kind == calc.Bool:
			axes = append(axes, axis{p.Name, []string{"true", "false"}})
		default:
			continue
		}
		combos *= len(axes[len(axes)-1].values)
	}
	if combos <= 128 {
		product := []url.Values{{}}
		for _, ax := range axes {
			var next []url.Values
			for _, base := range product {
				for _, v := range ax.values {
					m := url.Values{}
					for k, vs := range base {
						m[k] = vs
					}
					m.Set(ax.name, v)
					next = append(next, m)
				}
			}
			product = next
		}
		return append(runs, product...)
	}
	for _, ax := range axes {
		for _, v := range ax.values {
			runs = append(runs, url.Values{ax.name: {v}})
		}
	}
	return runs
}

// Every view string a view looks up exists: rendering with the table
// never falls back to an English default (the English defaults are
// distinct from every translation, so a fallback shows in the output).
func TestNoEnglishFallback(t *testing.T) {
	all := locales(t)
	for _, c := range calc.New().List() {
		en := renderDefaults(t, c, locale.Locale{Lang: "it"})
		it := renderDefaults(t, c, all["it"])
		for _, s := range []string{"Results", "Static page", "Article's values", "against N", "per layer", "retries in the bin", "the budget", "share of the limit", "with jitter"} {
			if strings.Contains(en, s) && strings.Contains(it, s) {
				t.Errorf("%s: the Italian widget still says %q", c.Name, s)
			}
		}
	}
}

func TestRenderErrors(t *testing.T) {
	c, _ := calc.New().Lookup("attempts")
	loc := locales(t)["it"]
	for _, tc := range []struct {
		spec Spec
		want string
	}{
		{Spec{Calc: c, ID: ""}, "id is missing"},
		{Spec{Calc: c, ID: "Bad_ID"}, "lower-case"},
		{Spec{Calc: c, ID: "a", Values: url.Values{"q": {"2"}}}, "q must be in [0, 1]"},
		{Spec{Calc: c, ID: "a", Values: url.Values{"zz": {"2"}}}, "unknown parameter zz"},
		{Spec{Calc: c, ID: "a", Views: []string{"pie"}}, `no view "pie"`},
		{Spec{ID: "a"}, "no calculator"},
	} {
		_, err := Render(tc.spec, loc)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.spec, err, tc.want)
		}
	}
}

func TestPageValues(t *testing.T) {
	c, _ := calc.New().Lookup("attempts")
	out, err := Render(Spec{Calc: c, ID: "att", Values: url.Values{"q": {"0.9"}}, Views: []string{"table"}}, locales(t)["it"])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`data-defaults="q=0.9"`, `data-views="table"`,
		`name="q" value="0,9"`, `data-decimal=","`, `data-out="expected_attempts" data-value="2.71">2,71<`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
	if strings.Contains(out, `data-view="curve"`) {
		t.Error("curve drawn though views=table")
	}
}

// TestTitleNames checks that Spec.Title joins the calculator's title in the
// element that names the widget, escaped, and that without it the name is
// the calculator's title alone.
func TestTitleNames(t *testing.T) {
	c, _ := calc.New().Lookup("attempts")
	loc := locales(t)["it"]
	for _, tc := range []struct{ title, want string }{
		{"", `<p class="widget-title" id="a-title">` + Title(c, loc) + "</p>"},
		{"q <alto>", `<p class="widget-title" id="a-title">` + Title(c, loc) + ` <span class="widget-subtitle">— q &lt;alto&gt;</span></p>`},
	} {
		out, err := Render(Spec{Calc: c, ID: "a", Title: tc.title}, loc)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, `role="group" aria-labelledby="a-title"`) || !strings.Contains(out, tc.want) {
			t.Errorf("title %q: no %s in\n%s", tc.title, tc.want, out)
		}
	}
}
