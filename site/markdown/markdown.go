// Package markdown turns one retrylab page (front matter and Markdown) into
// HTML with goldmark and the project's extensions: widget and calc blocks
// (live experiments whose result is computed at build time), citations of
// their results in the prose ({=ID.FIELD|FORMAT}), TeX formulas rendered as
// MathML, code highlighted with chroma, and code blocks included from the
// repository. Every problem in a page is reported as "file:line: message".
package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"retrylab/core/calc"
)

// Options configures a [Converter]. Registry is required; Widget and Cite
// connect the converter to the widget renderer of the page's language.
type Options struct {
	// Registry holds the calculators that widget and calc blocks name.
	Registry *calc.Registry
	// Include is the repository tree that `include=PATH` blocks read
	// from; nil makes every include block an error.
	Include fs.FS
	// Widget renders a widget block (controls and build-time output) as
	// HTML. It is not called for calc blocks. nil renders a bare root
	// element carrying data-widget and id.
	Widget func(w *Widget) (string, error)
	// Cite formats the value of field (with an optional "[i]" index) of
	// w's result with format ("" for the default), returning the page text
	// and the machine value written as JSON in data-value. nil writes the
	// JSON value as the text.
	Cite func(w *Widget, field, format string) (text string, value any, err error)
	// RunArgs returns the arguments a widget's calculator runs with:
	// w.Args and what w's views need beside the result
	// (site/widget.RunArgs). nil runs w.Args. Calc blocks run w.Args.
	RunArgs func(w *Widget) calc.Args
	// Title is a calculator's title in the page's language, as the list of
	// a playground block shows it; nil or "" shows its name.
	Title func(calc string) string
	// CodeClassPrefix prefixes chroma's CSS classes ("" for none).
	CodeClassPrefix string
}

// Converter renders pages. It is safe for concurrent use when the Options'
// functions are.
type Converter struct {
	opts Options
	md   goldmark.Markdown
}

// New returns a Converter.
func New(opts Options) *Converter {
	c := &Converter{opts: opts}
	c.md = goldmark.New(
		goldmark.WithExtensions(extension.Table, extension.Strikethrough),
		goldmark.WithParserOptions(
			parser.WithAutoHeadingID(),
			parser.WithASTTransformers(util.Prioritized(&pageTransformer{c: c}, 100)),
			parser.WithInlineParsers(
				util.Prioritized(citationParser{}, 150),
				util.Prioritized(inlineMathParser{}, 160),
			),
			parser.WithBlockParsers(util.Prioritized(blockMathParser{}, 90)),
		),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(
			util.Prioritized(&nodeRenderer{c: c}, 100),
		)),
	)
	return c
}

// Page is a converted page.
type Page struct {
	File string
	Meta Meta
	// HTML is the body of the page.
	HTML []byte
	// Widgets lists the widget and calc blocks in page order.
	Widgets []*Widget
	// Citations lists the citations in page order.
	Citations []*Citation
}

// Error is a problem in a page, at a line (1-based) of its file.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, strings.Join(strings.Fields(e.Msg), " "))
}

// Errors is every problem found in one or more pages, ordered by file and
// line. It prints one error per line.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Sort orders the errors by file, then line.
func (es Errors) Sort() {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].File != es[j].File {
			return es[i].File < es[j].File
		}
		return es[i].Line < es[j].Line
	})
}

// state is the per-page parse state, kept in the parser.Context.
type state struct {
	file  string
	src   []byte
	lines []int // byte offset of the start of each line
	errs  Errors
	page  *Page

	// what the parse stage leaves to the compute stage
	ids    map[string]*Widget // the page's widgets by id
	broken map[string]bool    // ids of blocks that failed to parse
	cites  []*Citation
	maths  []*Math
}

var stateKey = parser.NewContextKey()

func (s *state) lineOf(offset int) int {
	return sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > offset })
}

func (s *state) errorf(offset int, format string, args ...any) {
	s.errs = append(s.errs, &Error{File: s.file, Line: s.lineOf(offset), Msg: fmt.Sprintf(format, args...)})
}

func (s *state) errorAtLine(line int, format string, args ...any) {
	s.errs = append(s.errs, &Error{File: s.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// Convert renders the page src read from file (the name used in errors).
// On failure the error is an [Errors] listing every problem of the page.
func (c *Converter) Convert(file string, src []byte) (*Page, error) {
	st := &state{file: file, page: &Page{File: file}}
	meta, body, err := parseFrontMatter(src)
	if err != nil {
		fe := err.(*Error)
		fe.File = file
		return nil, Errors{fe}
	}
	st.page.Meta = meta
	st.src = body
	st.lines = []int{0}
	for i, b := range body {
		if b == '\n' {
			st.lines = append(st.lines, i+1)
		}
	}
	if c.opts.Registry == nil {
		return nil, Errors{{File: file, Line: 1, Msg: "markdown: no calculator registry"}}
	}
	pc := parser.NewContext(parser.WithIDs(newHeadingIDs()))
	pc.Set(stateKey, st)
	// The three stages, as goldmark splits them: the parser (with the
	// page transformer) turns the page into an AST whose widget, citation
	// and formula nodes are read but not evaluated; compute runs the
	// calculators and resolves what depends on their results; the
	// renderer writes the nodes.
	doc := c.md.Parser().Parse(text.NewReader(body), parser.WithContext(pc))
	// compute runs on what parsed, so that one build reports every
	// problem of the page, a bad citation beside a bad block
	if c.compute(st); len(st.errs) > 0 {
		st.errs.Sort()
		return nil, st.errs
	}
	var buf bytes.Buffer
	if err := c.md.Renderer().Render(&buf, body, doc); err != nil {
		var pe *Error
		if errors.As(err, &pe) {
			pe.File = file
			return nil, Errors{pe}
		}
		return nil, Errors{{File: file, Line: 1, Msg: err.Error()}}
	}
	st.page.HTML = buf.Bytes()
	if errs := duplicateIDs(st); len(errs) > 0 {
		return nil, errs
	}
	return st.page, nil
}

// elementIDs returns the values of the id="…" attributes of html, in
// order (a plain scan: a regexp over every page took a tenth of the build).
func elementIDs(html []byte) []string {
	var ids []string
	marker := []byte(` id="`)
	for {
		i := bytes.Index(html, marker)
		if i < 0 {
			return ids
		}
		html = html[i+len(marker):]
		end := bytes.IndexByte(html, '"')
		if end < 0 {
			return ids
		}
		if end > 0 {
			ids = append(ids, string(html[:end]))
		}
		html = html[end:]
	}
}

// duplicateIDs reports element ids that the rendered page uses twice: a
// widget's controls are ID-PARAM, so the widgets "a" (with a parameter
// "b") and "a-b" would clash, and the browser would wire the wrong one.
func duplicateIDs(st *state) Errors {
	seen, reported := map[string]bool{}, map[string]bool{}
	var errs Errors
	for _, id := range elementIDs(st.page.HTML) {
		if !seen[id] {
			seen[id] = true
			continue
		}
		var owners []string
		line := 1
		for _, w := range st.page.Widgets {
			if id == w.ID || strings.HasPrefix(id, w.ID+"-") {
				owners = append(owners, w.ID)
				line = w.IDLine
			}
		}
		key := strings.Join(owners, " ")
		if len(owners) == 0 {
			key = id
		}
		if reported[key] {
			continue
		}
		reported[key] = true
		msg := fmt.Sprintf("the element id %q appears twice in the page", id)
		if len(owners) > 0 {
			msg += " (made by the widgets " + strings.Join(owners, " and ") + ": a widget's controls are ID-PARAMETER); rename a widget"
		}
		errs = append(errs, &Error{File: st.file, Line: line, Msg: msg})
	}
	return errs
}

// pageTransformer runs once the whole page is parsed, still in the parse
// stage: it reads widget, calc and playground blocks into nodes (their
// arguments parsed, not run), expands include blocks, highlights code,
// and collects the formulas and citations that the compute stage
// converts and resolves (a citation may precede the widget it cites).
type pageTransformer struct{ c *Converter }

func (t *pageTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	st := pc.Get(stateKey).(*state)
	var fenced []*ast.FencedCodeBlock
	var cites []*Citation
	var maths []*Math
	var headings []*ast.Heading
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			fenced = append(fenced, n)
		case *Citation:
			cites = append(cites, n)
		case *Math:
			maths = append(maths, n)
		case *MathBlock:
			maths = append(maths, n.Math)
		case *ast.Heading:
			headings = append(headings, n)
		case *east.Table:
			// A wide table scrolls sideways (style.css): the keyboard must
			// reach it to scroll it.
			n.SetAttributeString("tabindex", []byte("0"))
		}
		return ast.WalkContinue, nil
	})
	ids := map[string]*Widget{}
	broken := map[string]bool{}
	for _, fb := range fenced {
		info := ""
		if fb.Info != nil {
			info = string(fb.Info.Segment.Value(st.src))
		}
		kind, name, _ := strings.Cut(strings.TrimSpace(info), " ")
		var repl ast.Node
		switch kind {
		case "widget", "calc":
			w := t.c.widgetBlock(st, fb, kind, strings.TrimSpace(name))
			if w == nil {
				// Its error is reported; citations of it would only repeat it.
				if id := blockID(st, fb); id != "" {
					broken[id] = true
				}
				continue
			}
			if prev, dup := ids[w.ID]; dup && w.ID != "" {
				st.errorAtLine(w.IDLine, "duplicate id %q (first used on line %d)", w.ID, prev.Line)
				continue
			}
			ids[w.ID] = w
			st.page.Widgets = append(st.page.Widgets, w)
			repl = &WidgetBlock{Widget: w}
		case "playground": // every calculator of the registry (playground.go)
			pb := t.c.playgroundBlock(st, fb)
			if pb == nil {
				continue
			}
			for _, w := range pb.Widgets {
				if prev, dup := ids[w.ID]; dup {
					st.errorAtLine(w.Line, "playground: the id %q of calculator %s is already used on line %d", w.ID, w.Calc.Name, prev.Line)
					continue
				}
				ids[w.ID] = w
				st.page.Widgets = append(st.page.Widgets, w)
			}
			repl = pb
		case "exercises": // site/classroom's block (exercises.go)
			repl = t.c.exercisesBlock(st, fb)
		default:
			repl = t.c.codeBlock(st, fb, info)
		}
		if repl != nil {
			fb.Parent().ReplaceChild(fb.Parent(), fb, repl)
		}
	}
	// Headings get ids too (for links); a widget's must differ from them.
	for _, h := range headings {
		v, ok := h.AttributeString("id")
		if !ok {
			continue
		}
		id, _ := v.([]byte)
		if w := ids[string(id)]; w != nil && h.Lines().Len() > 0 {
			st.errorAtLine(w.IDLine, "id %q is also the id of the heading on line %d; choose another", w.ID, st.lineOf(h.Lines().At(0).Start))
		}
	}
	st.ids, st.broken, st.cites, st.maths = ids, broken, cites, maths
}

// nodeRenderer renders the project's nodes.
type nodeRenderer struct{ c *Converter }

func (r *nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindWidgetBlock, r.renderWidget)
	reg.Register(KindCitation, r.renderCitation)
	reg.Register(KindMath, r.renderMath)
	reg.Register(KindMathBlock, r.renderMathBlock)
	reg.Register(KindCode, r.renderCode)
	reg.Register(KindPlaygroundBlock, r.renderPlayground)
	reg.Register(KindExercisesBlock, r.renderExercises)
}

// blockID returns the value of the id line of a fenced block, or "".
func blockID(st *state, fb *ast.FencedCodeBlock) string {
	lines := fb.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		k, v, ok := strings.Cut(strings.TrimSpace(string(seg.Value(st.src))), ":")
		if ok && strings.TrimSpace(k) == "id" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
