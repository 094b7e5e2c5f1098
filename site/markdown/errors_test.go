package markdown

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

const fm = "---\ntitle: T\ndescription: D\ndate: 2026-11-30\n---\n" // 5 lines

// TestBadContent checks that each kind of mistake fails with file:line and
// a message naming the problem.
func TestBadContent(t *testing.T) {
	files := fstest.MapFS{"core/a.go": {Data: []byte("package a\n// region r\nvar X = 1\n")}}
	tests := []struct {
		name, src string
		want      []string // "line: fragment"
	}{
		{"unknown widget", fm + "\n```widget nosuch\nid: x\n```\n", []string{"7: unknown widget \"nosuch\"; the calculators are attempts"}},
		{"no calc name", fm + "```widget\nid: x\n```\n", []string{"6: widget block without a calculator name"}},
		{"bad parameter value", fm + "```widget attempts\nid: a\nq: 2\n```\n", []string{"8: widget a: q must be in [0, 1], got \"2\""}},
		{"unknown parameter", fm + "```widget attempts\nid: a\nz: 2\n```\n", []string{"8: widget a: unknown parameter z; the parameters are q, n"}},
		{"parameter twice", fm + "```calc attempts\nid: a\nq: 0.1\nq: 0.2\n```\n", []string{"9: calc attempts: parameter q is given twice (first on line 8)"}},
		{"not key value", fm + "```widget attempts\nid: a\njust text\n```\n", []string{"8: widget attempts: expected \"key: value\""}},
		{"missing id", fm + "```widget attempts\nq: 0.1\n```\n", []string{"6: widget attempts has no id"}},
		{"bad id", fm + "```widget attempts\nid: Bad_Id\n```\n", []string{"7: widget attempts: id \"Bad_Id\" must be"}},
		{"duplicate id", fm + "```widget attempts\nid: a\n```\n\n```calc attempts\nid: a\n```\n", []string{"11: duplicate id \"a\" (first used on line 6)"}},
		{"title on calc", fm + "```calc attempts\nid: a\ntitle: x\n```\n", []string{"8: calc attempts: a calc block shows nothing, so it takes no title"}},
		{"title twice", fm + "```widget attempts\nid: a\ntitle: x\ntitle: y\n```\n", []string{"9: widget attempts: title must be given once"}},
		{"view on calc", fm + "```calc attempts\nid: a\nview: table\n```\n", []string{"8: calc attempts: a calc block shows nothing"}},
		{"citation to nothing", fm + "\nSee {=b.q}.\n\n```calc attempts\nid: a\n```\n", []string{"7: citation {=b.q}: no widget or calc with id \"b\" (the page has a)"}},
		{"citation unknown field", fm + "```calc attempts\nid: a\n```\n\nSee\n{=a.peak}.\n", []string{"11: citation {=a.peak}: attempts has no field \"peak\"; its fields are q, n, expected_attempts, success_probability"}},
		{"citation index on a number", fm + "```calc attempts\nid: a\n```\n{=a.q[0]}\n", []string{"9: citation {=a.q[0]}: field \"q\" is not a list"}},
		{"citation bad format", fm + "```calc attempts\nid: a\n```\n{=a.q|bad}\n", []string{"9: citation {=a.q|bad}: unknown format"}},
		{"compare citation without compare", fm + "```widget attempts\nid: a\n```\n{=a.compare.q}\n", []string{"9: citation {=a.compare.q}: widget a has no compare: line"}},
		{"compare citation of a calc", fm + "```calc attempts\nid: a\n```\n{=a.compare.q}\n", []string{"9: citation {=a.compare.q}: calc a has no compare: line"}},
		{"compare citation unknown field", fm + "```widget attempts\nid: a\ncompare: q=0.9\n```\n{=a.compare.peak}\n", []string{"10: citation {=a.compare.peak}: attempts has no field \"peak\""}},
		{"compare citation malformed", fm + "{=a.compare.}\n", []string{"6: malformed citation {=a.compare.}"}},
		{"malformed citation", fm + "text {=A.q} more\n", []string{"6: malformed citation {=A.q}"}},
		{"unterminated citation", fm + "text {=a.q more\n", []string{"6: unterminated citation"}},
		{"tex unknown command", fm + "\n$\\foo x$\n", []string{"7: formula \"\\\\foo x\": TeX: unknown command \\foo"}},
		{"tex unclosed group", fm + "$$\n\\frac{a}{b\n$$\n", []string{"formula \"\\\\frac{a}{b\": TeX: missing }"}},
		{"display math unclosed", fm + "$$\nx\n", []string{"7: formula: $$ without a closing $$"}},
		{"missing include", fm + "```go include=core/none.go\n```\n", []string{"6: include core/none.go: no such file"}},
		{"missing region", fm + "```go include=core/a.go#nope\n```\n", []string{"6: include core/a.go#nope: core/a.go has no line \"// region nope\""}},
		{"unclosed region", fm + "```go include=core/a.go#r\n```\n", []string{"6: include core/a.go#r: region r of core/a.go has no \"// endregion\""}},
		{"include escapes", fm + "```go include=../x.go\n```\n", []string{"6: include ../x.go: the path must be relative"}},
		{"include not empty", fm + "```go include=core/a.go\nx\n```\n", []string{"6: include block core/a.go must be empty"}},
		{"no front matter", "# hi\n", []string{"1: front matter: the page must start with a --- line"}},
		{"front matter unclosed", "---\ntitle: x\n", []string{"1: front matter: no closing --- line"}},
		{"front matter bad yaml", "---\ntitle: x\ndescription: [\n---\n", []string{"front matter:"}},
		{"front matter unknown key", "---\ntitle: x\ndescription: d\ndate: 2026-11-30\ntitel: y\n---\n", []string{"5: front matter: field titel not found"}},
		{"front matter missing title", "---\ndescription: d\ndate: 2026-11-30\n---\n", []string{"4: front matter: title is required"}},
		{"front matter bad date", "---\ntitle: t\ndescription: d\ndate: 30/11/2026\n---\n", []string{"4: front matter: date must be YYYY-MM-DD"}},
		{"front matter bad order", "---\ntitle: t\ndescription: d\ndate: 2026-11-30\norder: first\n---\n", []string{"5: front matter: cannot unmarshal"}},
		{"id of a heading", fm + "## Jitter\n\n```calc attempts\nid: jitter\n```\n", []string{"9: id \"jitter\" is also the id of the heading on line 6"}},
		{"playground with lines", fm + "```playground\nattempts\n```\n", []string{"7: playground: the block takes no lines"}},
		{"playground id taken", fm + "```calc attempts\nid: jitter\n```\n\n```playground\n```\n", []string{"10: playground: the id \"jitter\" of calculator jitter is already used on line 6"}},
		{"compare on calc", fm + "```calc attempts\nid: a\ncompare: q=0.5\n```\n", []string{"8: calc attempts: a calc block shows nothing, so it takes no compare"}},
		{"compare unknown parameter", fm + "```widget attempts\nid: a\ncompare: z=1\n```\n", []string{"8: widget attempts: compare: attempts has no parameter \"z\""}},
		{"compare bad value", fm + "```widget attempts\nid: a\ncompare: q=2\n```\n", []string{"8: widget attempts: compare: q must be in [0, 1]"}},
		{"compare not a pair", fm + "```widget attempts\nid: a\ncompare: q\n```\n", []string{"8: widget attempts: compare: expected PARAM=VALUE"}},
		{"compare twice", fm + "```widget attempts\nid: a\ncompare: q=0.5\ncompare: q=0.2\n```\n", []string{"9: widget attempts: compare must be given once"}},
		{"several errors", fm + "{=x.y}\n\n```widget nosuch\nid: a\n```\n", []string{"6: citation {=x.y}", "8: unknown widget"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := testConverter(files).Convert("content/it/p.md", []byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error %T is not Errors", err)
			}
			if len(es) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(es), len(tt.want), err)
			}
			for i, w := range tt.want {
				got := es[i].Error()
				if !strings.HasPrefix(got, "content/it/p.md:") {
					t.Errorf("error %q does not start with the file name", got)
				}
				if !strings.Contains(got, w) {
					t.Errorf("error %d:\n got  %q\n want it to contain %q", i, got, w)
				}
			}
		})
	}
}

func TestPageData(t *testing.T) {
	src := fm[:len(fm)-4] + "order: 3\n---\n```widget attempts\nid: a\nq: 0.25\nview: table\n```\n\n{=a.n} {=b.q|2}\n\n```calc attempts\nid: b\n```\n"
	p, err := testConverter(nil).Convert("x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if p.Meta.Order != 3 || p.Meta.Title != "T" || p.Meta.Date != "2026-11-30" {
		t.Errorf("meta = %+v", p.Meta)
	}
	if len(p.Widgets) != 2 || p.Widgets[0].ID != "a" || p.Widgets[0].Kind != "widget" || p.Widgets[1].Kind != "calc" {
		t.Fatalf("widgets = %+v", p.Widgets)
	}
	if w := p.Widgets[0]; w.Line != 7 || w.Params.Get("q") != "0.25" || len(w.Views) != 1 || w.Views[0] != "table" {
		t.Errorf("widget a = %+v", w)
	}
	if len(p.Citations) != 2 || p.Citations[0].Ref() != "a.n" || p.Citations[1].Format != "2" || p.Citations[1].Line != 13 {
		t.Errorf("citations = %+v", p.Citations)
	}
}

func FuzzConvert(f *testing.F) {
	f.Add(fm + "$\\frac{a}{b}$ {=a.q} $$x$$\n```widget attempts\nid: a\n```\n")
	f.Add(fm + "$$\n\\sum_{k=0}^{n} \\binom{n}{k}\n$$\n")
	f.Add(fm + "{=a.q|2} $x^{2$ \\$")
	c := testConverter(fstest.MapFS{"a.go": {Data: []byte("x")}})
	f.Fuzz(func(t *testing.T, src string) {
		p, err := c.Convert("f.md", []byte(src))
		if err == nil && p == nil {
			t.Fatal("nil page without error")
		}
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "f.md:") {
					t.Fatalf("error line %q lacks file:line", line)
				}
			}
		}
	})
}

func FuzzTeX(f *testing.F) {
	for _, s := range []string{`\frac{1-q^n}{1-q}`, `\sum_{i=t}^{n} \binom{n}{i}`, `\left( x \right]`, `\sqrt[3]{x}`, `a^{b^{c}}_d'`, `\text{a} \mathbb{R}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tex string) {
		out, err := TeXToMathML(tex, true)
		if err == nil && !strings.HasPrefix(out, "<math") {
			t.Fatalf("output %q", out)
		}
	})
}

// TestCompareCitation: {=ID.compare.FIELD} cites the variant that the
// widget's compare line computes (q=0.9 here), beside the page's own value
// (the test converter's Cite writes VALUE|FORMAT).
func TestCompareCitation(t *testing.T) {
	src := fm + "```widget attempts\nid: a\nq: 0.5\nn: 2\ncompare: q=0.9\n```\n\n{=a.expected_attempts} {=a.compare.expected_attempts|2} {=a.compare.q}\n"
	p, err := testConverter(nil).Convert("x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ ref, display string }{
		{"a.expected_attempts", "1.5|"},
		{"a.compare.expected_attempts", "1.9|2"},
		{"a.compare.q", "0.9|"},
	}
	if len(p.Citations) != len(want) {
		t.Fatalf("%d citations, want %d", len(p.Citations), len(want))
	}
	for i, w := range want {
		if c := p.Citations[i]; c.Ref() != w.ref || c.Display != w.display {
			t.Errorf("citation %d: %s = %q, want %s = %q", i, c.Ref(), c.Display, w.ref, w.display)
		}
	}
	if !strings.Contains(string(p.HTML), `data-cite="a.compare.expected_attempts"`) {
		t.Errorf("no data-cite of the variant in %s", p.HTML)
	}
}
