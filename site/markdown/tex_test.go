package markdown

import (
	"fmt"
	"strings"
	"testing"
)

func TestTeXToMathML(t *testing.T) {
	tests := []struct {
		tex     string
		display bool
		want    string // a fragment of the output
	}{
		{`x^2`, false, `<msup><mi>x</mi><mn>2</mn></msup>`},
		{`x_i^2`, false, `<msubsup><mi>x</mi><mi>i</mi><mn>2</mn></msubsup>`},
		{`x^23`, false, `<msup><mi>x</mi><mn>2</mn></msup><mn>3</mn>`},
		{`\frac{a}{b+1}`, false, `<mfrac><mi>a</mi><mrow><mi>b</mi><mo>+</mo><mn>1</mn></mrow></mfrac>`},
		{`\sum_{k=0}^{n}`, true, `<munderover><mo largeop="true" movablelimits="true">∑</mo>`},
		{`\sum_{k=0}^{n}`, false, `<msubsup><mo largeop="true" movablelimits="true">∑</mo>`},
		{`\min_{i} x`, true, `<munder><mi>min</mi><mi>i</mi></munder>`},
		{`\max(a, b)`, false, `<mi>max</mi><mo>(</mo><mi>a</mi><mo>,</mo><mi>b</mi><mo>)</mo>`},
		{`\binom{n}{k}`, false, `<mrow><mo>(</mo><mfrac linethickness="0"><mi>n</mi><mi>k</mi></mfrac><mo>)</mo></mrow>`},
		{`a \cdot b \times c \le d \ge e`, false, `<mo>⋅</mo><mi>b</mi><mo>×</mo><mi>c</mi><mo>≤</mo><mi>d</mi><mo>≥</mo>`},
		{`\alpha \Omega`, false, `<mi>α</mi><mi mathvariant="normal">Ω</mi>`},
		{`1 - q`, false, `<mn>1</mn><mo>−</mo><mi>q</mi>`},
		{`0.25 + 1{,}5`, false, `<mn>0.25</mn><mo>+</mo><mn>1,5</mn>`},
		{`\left( \frac{1}{2} \right)`, false, `<mo fence="true" stretchy="true">(</mo><mfrac>`},
		{`\text{if } x < 1`, false, `<mtext>if </mtext><mi>x</mi><mo>&lt;</mo>`},
		{`\sqrt{x}`, false, `<msqrt><mi>x</mi></msqrt>`},
		{`\mathbb{E}[X]`, false, `<mi>𝔼</mi><mo>[</mo>`},
		{`f'(x)`, false, `<msup><mi>f</mi><mo>′</mo></msup>`},
		{`a\,b`, false, `<mspace width="0.1667em"></mspace>`},
		{`\lfloor t / w \rfloor`, false, `<mo>⌊</mo><mi>t</mi><mo>/</mo><mi>w</mi><mo>⌋</mo>`},
	}
	for _, tt := range tests {
		got, err := TeXToMathML(tt.tex, tt.display)
		if err != nil {
			t.Errorf("%q: %v", tt.tex, err)
			continue
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%q:\n got  %s\n want it to contain %s", tt.tex, got, tt.want)
		}
		if tt.display != strings.HasPrefix(got, `<math display="block"`) {
			t.Errorf("%q: display %v but got %s", tt.tex, tt.display, got[:25])
		}
	}
}

func TestTeXErrors(t *testing.T) {
	tests := map[string]string{
		`\foo`:       `unknown command \foo`,
		`\frac{a}`:   "missing argument",
		`{x`:         "missing }",
		`x}`:         "unexpected }",
		`x^`:         "missing argument",
		`^x`:         "^ with nothing before it",
		`x^a^b`:      "double superscript",
		`\left( x`:   `\left without \right`,
		`x \right)`:  `\right without \left`,
		`a & b`:      "unsupported character",
		`\mathbb{+}`: `\mathbb of '+'`,
		strings.Repeat("{", 60) + strings.Repeat("}", 60): "nested too deeply",
	}
	for tex, want := range tests {
		_, err := TeXToMathML(tex, false)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", tex, err, want)
		}
	}
}

func ExampleTeXToMathML() {
	m, _ := TeXToMathML(`\frac{1}{k}`, false)
	fmt.Println(m)
	// Output: <math><semantics><mfrac><mn>1</mn><mi>k</mi></mfrac><annotation encoding="application/x-tex">\frac{1}{k}</annotation></semantics></math>
}
