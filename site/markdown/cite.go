package markdown

import (
	"bytes"
	"encoding/json"
	"html"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"retrylab/site/cite"
)

// KindCitation is the ast.NodeKind of [Citation].
var KindCitation = ast.NewNodeKind("Citation")

// Citation is an inline {=ID.FIELD}, {=ID.FIELD[I]} or {=ID.FIELD|FORMAT}:
// the value of a result field of the widget or calc block ID of the page;
// {=ID.compare.FIELD} (with the same [I] and |FORMAT) cites the field of
// the variant that the widget's "compare:" line computes.
type Citation struct {
	ast.BaseInline
	ID     string
	Field  string // the field name, with "[I]" when it cites one element and "compare." before it when it cites the comparison's variant
	Format string // "" for the default format
	Offset int    // byte offset of the citation in the page
	Line   int

	// Set when the page is resolved.
	Display string // the value formatted for the page's language
	Value   []byte // the machine value as JSON
}

// Kind implements ast.Node.
func (n *Citation) Kind() ast.NodeKind { return KindCitation }

// Dump implements ast.Node.
func (n *Citation) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"ID": n.ID, "Field": n.Field, "Format": n.Format}, nil)
}

// Ref returns "ID.FIELD", as data-cite holds it.
func (n *Citation) Ref() string { return n.ID + "." + n.Field }

var citationSyntax = lazyRegexp{src: `^([a-z0-9]+(?:-[a-z0-9]+)*)\.((?:compare\.)?[a-z0-9_]+(?:\[[0-9]+\])?)(?:\\?\|([a-z0-9%]+))?$`}

// comparePrefix starts the field of a citation of a widget's comparison:
// {=ID.compare.FIELD} cites FIELD of the variant that the widget's
// "compare: PARAM=VALUE" line draws beside it.
const comparePrefix = "compare."

// citationParser parses {=…} in inline text.
type citationParser struct{}

func (citationParser) Trigger() []byte { return []byte{'{'} }

func (citationParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if len(line) < 2 || line[1] != '=' {
		return nil
	}
	st := pc.Get(stateKey).(*state)
	end := bytes.IndexByte(line, '}')
	if end < 0 {
		st.errorf(seg.Start, "unterminated citation %q: write {=ID.FIELD}", string(bytes.TrimRight(line, "\r\n")))
		return nil
	}
	body := string(line[2:end])
	m := citationSyntax.get().FindStringSubmatch(body)
	if m == nil {
		st.errorf(seg.Start, "malformed citation {=%s}: write {=ID.FIELD}, {=ID.FIELD[I]}, {=ID.FIELD|FORMAT} or {=ID.compare.FIELD}", body)
		block.Advance(end + 1)
		return ast.NewString([]byte("{=" + body + "}"))
	}
	block.Advance(end + 1)
	return &Citation{ID: m[1], Field: m[2], Format: m[3], Offset: seg.Start, Line: st.lineOf(seg.Start)}
}

// resolveCitation computes a citation's value once the page's widgets are
// known.
func (c *Converter) resolveCitation(st *state, ct *Citation, ids map[string]*Widget) {
	w, ok := ids[ct.ID]
	if !ok {
		known := make([]string, 0, len(ids))
		for id := range ids {
			known = append(known, id)
		}
		sort.Strings(known)
		list := "the page has none"
		if len(known) > 0 {
			list = "the page has " + strings.Join(known, ", ")
		}
		st.errorf(ct.Offset, "citation {=%s}: no widget or calc with id %q (%s)", ct.Ref(), ct.ID, list)
		return
	}
	field, variant := strings.CutPrefix(ct.Field, comparePrefix)
	if variant && w.Compare == "" {
		st.errorf(ct.Offset, "citation {=%s}: %s %s has no compare: line, so there is no variant to cite", ct.Ref(), w.Kind, ct.ID)
		return
	}
	ref := ct.Ref()
	if ct.Format != "" {
		ref += "|" + ct.Format
	}
	if c.opts.Cite != nil {
		// the field and the format: site/cite's check, through the
		// widget renderer's Cite
		txt, v, err := c.opts.Cite(w, ct.Field, ct.Format)
		if err != nil {
			st.errorf(ct.Offset, "citation {=%s}: %v", ref, err)
			return
		}
		b, err := json.Marshal(v)
		if err != nil {
			st.errorf(ct.Offset, "citation {=%s}: %v", ref, err)
			return
		}
		ct.Display, ct.Value = txt, b
		return
	}
	// No renderer: the same check (site/cite) on the result's JSON, whose
	// value is the text.
	fields, order, err := w.Fields()
	if variant {
		fields, order, err = w.VariantFields()
	}
	if err != nil {
		st.errorf(ct.Offset, "citation {=%s}: %v", ref, err)
		return
	}
	list := make([]cite.Field, len(order))
	for i, name := range order {
		list[i] = cite.Field{Name: name, Raw: fields[name]}
	}
	value, err := cite.Lookup(w.Calc.Name, list, field)
	if err == nil {
		_, _, err = cite.ParseFormat(ct.Format)
	}
	if err != nil {
		st.errorf(ct.Offset, "citation {=%s}: %v", ref, err)
		return
	}
	ct.Display, ct.Value = string(value), value
}

// resultFields returns the fields of a calculator result's JSON object, by
// name and in their order.
func resultFields(b json.RawMessage) (map[string]json.RawMessage, []string, error) {
	fields := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var order []string
	dec.Token() // {
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		order = append(order, tok.(string))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return fields, order, nil
}

func (r *nodeRenderer) renderCitation(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*Citation)
	w.WriteString(`<output data-cite="` + html.EscapeString(n.Ref()) + `"`)
	w.WriteString(` data-format="` + html.EscapeString(n.Format) + `"`)
	// aria-live off: an <output> is a polite live region by default, and
	// a page whose sentences cite one widget twenty times would read them
	// all aloud at every change of a slider.
	w.WriteString(` data-value="` + html.EscapeString(string(n.Value)) + `" aria-live="off">`)
	w.WriteString(html.EscapeString(n.Display))
	w.WriteString(`</output>`)
	return ast.WalkSkipChildren, nil
}
