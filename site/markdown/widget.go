package markdown

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/url"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"

	"retrylab/core/calc"
)

// Widget is a `widget NAME` or `calc NAME` block: a calculator placed in
// the page with the parameters its lines set, and its result computed at
// build time.
type Widget struct {
	Kind   string // "widget" (interactive) or "calc" (fixed, shows nothing)
	Calc   *calc.Calculator
	ID     string     // unique in the page
	Params url.Values // the parameters the block sets, by name
	Views  []string   // the views the block asks for (nil: the calculator's default)
	// Title is the block's "title:" line ("" when none): what tells this
	// widget apart from another of the same calculator on the page.
	Title string
	// Compare is the block's "compare: PARAM=VALUE" ("" when none): the
	// widget also computes the variant and draws both.
	Compare string
	Args    calc.Args // parsed by the parse stage
	Result  any       // the calculator's result for Args, computed by the compute stage
	Line    int       // line of the opening fence
	IDLine  int       // line of the id
	// ParamLines gives the line of each parameter the block sets.
	ParamLines map[string]int
	// HTML is the rendered widget, set by the render stage (empty for
	// calc blocks).
	HTML string

	inPlayground bool // made by a playground block, on the defaults

	json       json.RawMessage            // Result encoded once
	fields     map[string]json.RawMessage // its fields
	fieldOrder []string
	variant    *variant // the comparison's run, computed once
}

// variant is the run of a widget's comparison.
type variant struct {
	result any
	fields map[string]json.RawMessage
	order  []string
	err    error
}

// Variant returns the result of the comparison that the block's
// "compare: PARAM=VALUE" asks for (c run with PARAM set to VALUE, the
// other parameters as the block sets them), computed once; an error when
// the block has no compare line.
func (w *Widget) Variant() (any, error) {
	if w.variant == nil {
		w.variant = &variant{}
		param, value, ok := strings.Cut(w.Compare, "=")
		if !ok {
			w.variant.err = errors.New("widget " + w.ID + " has no compare: line")
			return nil, w.variant.err
		}
		_, res, err := w.Calc.Vary(w.Args, strings.TrimSpace(param), strings.TrimSpace(value))
		w.variant.result, w.variant.err = res, err
		if err == nil {
			var b []byte
			if b, err = json.Marshal(res); err == nil {
				w.variant.fields, w.variant.order, err = resultFields(b)
			}
			w.variant.err = err
		}
	}
	return w.variant.result, w.variant.err
}

// VariantFields returns the JSON fields of [Widget.Variant]'s result, by
// name and in order.
func (w *Widget) VariantFields() (map[string]json.RawMessage, []string, error) {
	if _, err := w.Variant(); err != nil {
		return nil, nil, err
	}
	return w.variant.fields, w.variant.order, nil
}

// JSON returns the result as the calculator's JSON (the API's bytes),
// encoded once.
func (w *Widget) JSON() (json.RawMessage, error) {
	if w.json == nil {
		b, err := json.Marshal(w.Result)
		if err != nil {
			return nil, err
		}
		w.json = b
	}
	return w.json, nil
}

// Fields returns the JSON fields of the result, by name and in order.
func (w *Widget) Fields() (map[string]json.RawMessage, []string, error) {
	if w.fields == nil {
		b, err := w.JSON()
		if err != nil {
			return nil, nil, err
		}
		f, order, err := resultFields(b)
		if err != nil {
			return nil, nil, err
		}
		w.fields, w.fieldOrder = f, order
	}
	return w.fields, w.fieldOrder, nil
}

// KindWidgetBlock is the ast.NodeKind of [WidgetBlock].
var KindWidgetBlock = ast.NewNodeKind("WidgetBlock")

// WidgetBlock is the AST node that replaces a widget or calc fence.
type WidgetBlock struct {
	ast.BaseBlock
	Widget *Widget
}

// Kind implements ast.Node.
func (n *WidgetBlock) Kind() ast.NodeKind { return KindWidgetBlock }

// Dump implements ast.Node.
func (n *WidgetBlock) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Calc": n.Widget.Calc.Name, "ID": n.Widget.ID}, nil)
}

// widgetID reports whether s is a widget id: lowercase letters and digits
// in words joined by single hyphens (^[a-z0-9]+(-[a-z0-9]+)*$).
func widgetID(s string) bool { return IsSlug(s) }

// widgetBlock reads a widget or calc fence into a [Widget] with its
// parsed arguments (the compute stage runs it) and reports problems. It
// returns nil when the block is unusable.
func (c *Converter) widgetBlock(st *state, fb *ast.FencedCodeBlock, kind, name string) *Widget {
	w := &Widget{Kind: kind, Params: url.Values{}, ParamLines: map[string]int{}}
	w.Line = st.lineOf(fb.Info.Segment.Start)
	if name == "" {
		st.errorAtLine(w.Line, "%s block without a calculator name: write ```%s NAME", kind, kind)
		return nil
	}
	if strings.ContainsAny(name, " \t") {
		st.errorAtLine(w.Line, "%s block: one calculator name expected, got %q", kind, name)
		return nil
	}
	cl, ok := c.opts.Registry.Lookup(name)
	if !ok {
		st.errorAtLine(w.Line, "unknown %s %q; the calculators are %s", kind, name, c.opts.Registry.Names())
		return nil
	}
	w.Calc = cl
	bad := false
	lines := fb.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		ln := st.lineOf(seg.Start)
		text := strings.TrimSpace(string(seg.Value(st.src)))
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, val, ok := strings.Cut(text, ":")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok || key == "" {
			st.errorAtLine(ln, "%s %s: expected \"key: value\", got %q", kind, name, text)
			bad = true
			continue
		}
		switch key {
		case "id":
			if w.IDLine != 0 {
				st.errorAtLine(ln, "%s %s: id is given twice", kind, name)
				bad = true
				continue
			}
			w.ID, w.IDLine = val, ln
			if !widgetID(val) {
				st.errorAtLine(ln, "%s %s: id %q must be lower-case letters, digits and single '-' between them", kind, name, val)
				bad = true
			}
		case "title":
			if kind == "calc" {
				st.errorAtLine(ln, "calc %s: a calc block shows nothing, so it takes no title", name)
				bad = true
				continue
			}
			if val == "" || w.Title != "" {
				st.errorAtLine(ln, "widget %s: title must be given once and not be empty", name)
				bad = true
				continue
			}
			w.Title = val
		case "compare":
			if kind == "calc" {
				st.errorAtLine(ln, "calc %s: a calc block shows nothing, so it takes no compare", name)
				bad = true
				continue
			}
			if msg := checkCompare(cl, val); msg != "" || w.Compare != "" {
				if msg == "" {
					msg = "compare must be given once"
				}
				st.errorAtLine(ln, "widget %s: %s", name, msg)
				bad = true
				continue
			}
			w.Compare = val
		case "view":
			if kind == "calc" {
				st.errorAtLine(ln, "calc %s: a calc block shows nothing, so it takes no view", name)
				bad = true
				continue
			}
			for _, v := range strings.Split(val, ",") {
				if v = strings.TrimSpace(v); v != "" {
					w.Views = append(w.Views, v)
				}
			}
			if len(w.Views) == 0 {
				st.errorAtLine(ln, "widget %s: view needs at least one name", name)
				bad = true
			}
		default:
			if _, dup := w.ParamLines[key]; dup {
				st.errorAtLine(ln, "%s %s: parameter %s is given twice (first on line %d)", kind, name, key, w.ParamLines[key])
				bad = true
				continue
			}
			w.ParamLines[key] = ln
			w.Params.Set(key, val)
		}
	}
	if w.IDLine == 0 {
		st.errorAtLine(w.Line, "%s %s has no id (add a line \"id: NAME\")", kind, name)
		bad = true
	}
	if bad {
		return nil
	}
	args, err := cl.Parse(w.Params)
	if err != nil {
		st.errorAtLine(w.errorLine(err), "%s %s: %s", kind, w.ID, err.Error())
		return nil
	}
	w.Args = args
	return w
}

// errorLine is the line of the parameter a calculator's error names, or
// the block's first line.
func (w *Widget) errorLine(err error) int {
	var ce *calc.Error
	if errors.As(err, &ce) {
		if l, ok := w.ParamLines[ce.Param]; ok {
			return l
		}
	}
	return w.Line
}

func (r *nodeRenderer) renderWidget(wr util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	w := node.(*WidgetBlock).Widget
	if w.Kind != "widget" {
		return ast.WalkSkipChildren, nil
	}
	if r.c.opts.Widget != nil {
		h, err := r.c.opts.Widget(w)
		if err != nil {
			return ast.WalkStop, &Error{Line: w.Line, Msg: fmt.Sprintf("widget %s: %v", w.ID, err)}
		}
		w.HTML = h
		wr.WriteString(h)
		if !strings.HasSuffix(h, "\n") {
			wr.WriteByte('\n')
		}
		return ast.WalkSkipChildren, nil
	}
	wr.WriteString(`<div class="widget" data-widget="` + html.EscapeString(w.Calc.Name) + `" id="` + html.EscapeString(w.ID) + `"></div>` + "\n")
	return ast.WalkSkipChildren, nil
}

// checkCompare checks a "compare: PARAM=VALUE" line against c: "" when
// the parameter is declared and takes the value, else the problem.
func checkCompare(c *calc.Calculator, spec string) string {
	param, value, ok := strings.Cut(spec, "=")
	param, value = strings.TrimSpace(param), strings.TrimSpace(value)
	switch {
	case !ok || param == "":
		return fmt.Sprintf("compare: expected PARAM=VALUE, got %q", spec)
	case c.Param(param) == nil:
		return fmt.Sprintf("compare: %s has no parameter %q", c.Name, param)
	case strings.Contains(value, ","):
		return fmt.Sprintf("compare: the value of %s may not hold ','", param)
	}
	if _, err := c.Parse(url.Values{param: {value}}); err != nil {
		return "compare: " + err.Error()
	}
	return ""
}
