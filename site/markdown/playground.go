package markdown

import (
	"html"
	"net/url"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// KindPlaygroundBlock is the ast.NodeKind of [PlaygroundBlock].
var KindPlaygroundBlock = ast.NewNodeKind("PlaygroundBlock")

// PlaygroundBlock is what a `playground` fence becomes: the list of every
// calculator of the registry, each a link to its widget, followed by the
// widgets (its children, one [WidgetBlock] per calculator, in registry
// order, each with the calculator's name as id and its defaults as
// values). A calculator added to the registry is in the playground
// without any page being edited.
type PlaygroundBlock struct {
	ast.BaseBlock
	Widgets []*Widget
}

// Kind implements ast.Node.
func (n *PlaygroundBlock) Kind() ast.NodeKind { return KindPlaygroundBlock }

// Dump implements ast.Node.
func (n *PlaygroundBlock) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// PickerClass is the class of the list a playground block starts with.
const PickerClass = "picker"

// playgroundBlock reads a `playground` fence (it takes no lines) into a
// widget for every calculator of the registry, on its defaults (the
// compute stage runs them). It returns nil when the block is unusable.
func (c *Converter) playgroundBlock(st *state, fb *ast.FencedCodeBlock) *PlaygroundBlock {
	line := st.lineOf(fb.Info.Segment.Start)
	lines := fb.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		if len(util.TrimLeftSpace(util.TrimRightSpace(seg.Value(st.src)))) != 0 {
			st.errorAtLine(st.lineOf(seg.Start), "playground: the block takes no lines (it holds every calculator, on its defaults)")
			return nil
		}
	}
	if c.opts.Registry == nil || len(c.opts.Registry.List()) == 0 {
		st.errorAtLine(line, "playground: there is no calculator to show")
		return nil
	}
	pb := &PlaygroundBlock{}
	for _, cl := range c.opts.Registry.List() {
		w := &Widget{Kind: "widget", Calc: cl, ID: cl.Name, Params: url.Values{}, ParamLines: map[string]int{}, Line: line, IDLine: line, inPlayground: true}
		args, err := cl.Parse(w.Params)
		w.Args = args
		if err != nil {
			st.errorAtLine(line, "playground: %s on its defaults: %v", cl.Name, err)
			return nil
		}
		pb.Widgets = append(pb.Widgets, w)
		pb.AppendChild(pb, &WidgetBlock{Widget: w})
	}
	return pb
}

// renderPlayground writes the list of calculators (each its title, from
// Options.Title, and its name, linking to its widget), then lets the
// walker render the widgets.
func (r *nodeRenderer) renderPlayground(wr util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	pb := node.(*PlaygroundBlock)
	wr.WriteString(`<ul class="` + PickerClass + `">` + "\n")
	for _, w := range pb.Widgets {
		title := w.Calc.Name
		if r.c.opts.Title != nil {
			if t := r.c.opts.Title(w.Calc.Name); t != "" {
				title = t
			}
		}
		wr.WriteString(`<li><a href="#` + html.EscapeString(w.ID) + `">` + html.EscapeString(title) + `</a> <code>` + html.EscapeString(w.Calc.Name) + "</code></li>\n")
	}
	wr.WriteString("</ul>\n")
	return ast.WalkContinue, nil
}
