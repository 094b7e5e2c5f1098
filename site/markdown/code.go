package markdown

import (
	"html"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// KindCode is the ast.NodeKind of [Code].
var KindCode = ast.NewNodeKind("Code")

// Code is a fenced code block, highlighted when rendered: either its own
// lines or a file included from the repository.
type Code struct {
	ast.BaseBlock
	Lang   string
	Source string
	// Include is the "PATH" or "PATH#REGION" the code comes from ("" when
	// the block holds its own code).
	Include string
}

// Kind implements ast.Node.
func (n *Code) Kind() ast.NodeKind { return KindCode }

// Dump implements ast.Node.
func (n *Code) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Lang": n.Lang, "Include": n.Include}, nil)
}

// codeBlock turns a fenced block into a Code node, reading its include.
func (c *Converter) codeBlock(st *state, fb *ast.FencedCodeBlock, info string) ast.Node {
	fields := strings.Fields(info)
	n := &Code{}
	if len(fields) > 0 {
		n.Lang = fields[0]
	}
	var b strings.Builder
	lines := fb.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(st.src))
	}
	n.Source = b.String()
	for _, f := range fields[min(1, len(fields)):] {
		if path, ok := strings.CutPrefix(f, "include="); ok {
			line := 0
			if fb.Info != nil {
				line = st.lineOf(fb.Info.Segment.Start)
			}
			if strings.TrimSpace(n.Source) != "" {
				st.errorAtLine(line, "include block %s must be empty: its code comes from the file", path)
				return nil
			}
			src, err := c.include(path)
			if err != nil {
				st.errorAtLine(line, "%v", err)
				return nil
			}
			n.Source, n.Include = src, path
		}
	}
	return n
}

// codeFormatter returns the HTML formatter of highlighted code, built on
// first use.
func codeFormatter() *chtml.Formatter {
	formatterOnce.Do(func() { formatter = chtml.New(chtml.WithClasses(true), chtml.PreventSurroundingPre(true)) })
	return formatter
}

var (
	formatterOnce sync.Once
	formatter     *chtml.Formatter
)

// CodeCSS returns the style sheet of highlighted code: the light theme, and
// the dark one under the selector dark (e.g. `:root[data-theme="dark"]`)
// and under prefers-color-scheme unless light (e.g.
// `:root:not([data-theme="light"])`) applies.
func CodeCSS(dark, notLight string) string {
	var light, darkCSS strings.Builder
	codeFormatter().WriteCSS(&light, styles.Get("github"))
	codeFormatter().WriteCSS(&darkCSS, styles.Get("github-dark"))
	// The dark style leaves some tokens (.nx, …) uncoloured: they must
	// inherit the dark text colour, not keep the light style's dark one.
	prefix := func(css, sel string) string {
		return sel + " .chroma span { color: inherit }\n" + strings.ReplaceAll(css, ".chroma", sel+" .chroma")
	}
	return light.String() + prefix(darkCSS.String(), dark) +
		"@media (prefers-color-scheme: dark) {\n" + prefix(darkCSS.String(), notLight) + "}\n"
}

// pageInk is the page's text colour in the light and dark themes
// (site/assets/style.css, --fg): the colour of code no style colours.
var pageInk = [2]chroma.Colour{chroma.ParseColour("#1b1f24"), chroma.ParseColour("#e6e8ea")}

// plainTypes reports the token types drawn as plain text: in both
// themes' styles (github, github-dark) the type has no weight, slant,
// underline, background or border, and its colour is none, the page's
// text colour within 8 levels a channel (github gives punctuation and
// plain names #1f2328 where the page writes #1b1f24), or any colour of
// whitespace (a space shows no colour). A long article's code is about
// half such tokens; each drawn in a span of its own cost the page one
// element and its layout.
var plainTypes = sync.OnceValue(func() map[chroma.TokenType]bool {
	plain := map[chroma.TokenType]bool{}
	for t := range chroma.StandardTypes {
		plain[t] = true
		for i, name := range [2]string{"github", "github-dark"} {
			s := styles.Get(name)
			e := s.Get(t).Sub(s.Get(chroma.Background))
			if t == chroma.TextWhitespace || nearInk(e.Colour, pageInk[i]) {
				e.Colour = 0
			}
			if !e.IsZero() {
				plain[t] = false
			}
		}
	}
	return plain
})

// nearInk reports whether c is set and within 8 levels a channel of ink.
func nearInk(c, ink chroma.Colour) bool {
	d := func(a, b uint8) bool { return max(a, b)-min(a, b) <= 8 }
	return c.IsSet() && d(c.Red(), ink.Red()) && d(c.Green(), ink.Green()) && d(c.Blue(), ink.Blue())
}

// plainTokens returns its tokens with each plain type (plainTypes) made
// text and adjacent tokens of one type merged: the formatter writes a
// span for each token of a classed type, none for text.
func plainTokens(it chroma.Iterator) chroma.Iterator {
	var out []chroma.Token
	plain := plainTypes()
	for t := it(); t != chroma.EOF; t = it() {
		if plain[t.Type] {
			t.Type = chroma.Text
		}
		if n := len(out); n > 0 && out[n-1].Type == t.Type {
			out[n-1].Value += t.Value
			continue
		}
		out = append(out, t)
	}
	return chroma.Literator(out...)
}

func (r *nodeRenderer) renderCode(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*Code)
	lexer := lexers.Get(n.Lang)
	if lexer == nil || n.Lang == "" {
		lexer = lexers.Get("plaintext")
	}
	w.WriteString(`<figure class="code">`)
	if n.Include != "" {
		w.WriteString(`<figcaption><code>` + html.EscapeString(n.Include) + `</code></figcaption>`)
	}
	w.WriteString(`<pre class="chroma"`)
	if n.Lang != "" {
		w.WriteString(` data-lang="` + html.EscapeString(n.Lang) + `"`)
	}
	w.WriteString(` tabindex="0"><code>`)
	it, err := lexer.Tokenise(nil, n.Source)
	if err != nil {
		w.WriteString(html.EscapeString(n.Source))
	} else if err := codeFormatter().Format(w, styles.Get("github"), plainTokens(it)); err != nil {
		return ast.WalkStop, err
	}
	w.WriteString("</code></pre></figure>\n")
	return ast.WalkSkipChildren, nil
}
