package markdown

import (
	"bytes"
	"errors"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// KindMath is the ast.NodeKind of [Math].
var KindMath = ast.NewNodeKind("Math")

// Math is a TeX formula: $…$ inline, $$…$$ (a block of its own lines, or
// inline) displayed. It renders as MathML, computed when the page is
// resolved.
type Math struct {
	ast.BaseInline
	TeX     string
	Display bool
	Offset  int    // byte offset of the TeX text in the page
	MathML  string // set when the page is resolved
}

// Kind implements ast.Node.
func (n *Math) Kind() ast.NodeKind { return KindMath }

// Dump implements ast.Node.
func (n *Math) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"TeX": n.TeX}, nil)
}

// MathBlock is a $$…$$ block: a paragraph-level container of one Math.
type MathBlock struct {
	ast.BaseBlock
	Math   *Math
	closed bool
}

// KindMathBlock is the ast.NodeKind of [MathBlock].
var KindMathBlock = ast.NewNodeKind("MathBlock")

// Kind implements ast.Node.
func (n *MathBlock) Kind() ast.NodeKind { return KindMathBlock }

// Dump implements ast.Node.
func (n *MathBlock) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// IsRaw implements ast.Node: its lines are TeX, not Markdown.
func (n *MathBlock) IsRaw() bool { return true }

// inlineMathParser parses $…$ and $$…$$ in inline text.
type inlineMathParser struct{}

func (inlineMathParser) Trigger() []byte { return []byte{'$'} }

func (inlineMathParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if bytes.HasPrefix(line, []byte("$$")) {
		end := bytes.Index(line[2:], []byte("$$"))
		if end <= 0 {
			return nil
		}
		block.Advance(end + 4)
		return &Math{TeX: string(line[2 : 2+end]), Display: true, Offset: seg.Start + 2}
	}
	if len(line) < 3 || line[1] == ' ' || line[1] == '\t' || line[1] == '\n' {
		return nil
	}
	for i := 2; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++ // \$ is a dollar inside the formula
		case '\n':
			return nil
		case '$':
			// The first unescaped $ closes the formula or, when it
			// cannot (a space before it, a digit after it: "$20 and
			// $30"), shows that the opening $ was text.
			if line[i-1] == ' ' || line[i-1] == '\t' || i+1 < len(line) && isDigit(line[i+1]) {
				return nil
			}
			block.Advance(i + 1)
			return &Math{TeX: string(line[1:i]), Offset: seg.Start + 1}
		}
	}
	return nil
}

// blockMathParser parses $$ … $$ blocks.
type blockMathParser struct{}

func (blockMathParser) Trigger() []byte { return []byte{'$'} }

func (blockMathParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 || !bytes.HasPrefix(line[pos:], []byte("$$")) {
		return nil, parser.NoChildren
	}
	rest := bytes.TrimRight(line[pos+2:], " \t\r\n")
	n := &MathBlock{}
	start := seg.Start + pos + 2
	if bytes.HasSuffix(rest, []byte("$$")) {
		// $$ … $$ on one line; anything after the closing $$ makes it an
		// inline formula of a paragraph instead.
		n.Lines().Append(text.NewSegment(start, start+len(rest)-2))
		n.closed = true
	} else if len(bytes.TrimSpace(rest)) > 0 {
		n.Lines().Append(text.NewSegment(start, start+len(rest)))
	}
	reader.AdvanceToEOL()
	return n, parser.NoChildren
}

func (blockMathParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*MathBlock)
	if n.closed {
		return parser.Close
	}
	line, seg := reader.PeekLine()
	if line == nil {
		return parser.Close
	}
	trimmed := bytes.TrimRight(line, " \t\r\n")
	if bytes.HasSuffix(trimmed, []byte("$$")) {
		n.Lines().Append(text.NewSegment(seg.Start, seg.Start+len(trimmed)-2))
		n.closed = true
		reader.AdvanceToEOL()
		return parser.Close
	}
	n.Lines().Append(seg)
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (blockMathParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	n := node.(*MathBlock)
	var tex strings.Builder
	lines := n.Lines()
	offset := 0
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		if i == 0 {
			offset = seg.Start
		}
		tex.Write(seg.Value(reader.Source()))
	}
	st := pc.Get(stateKey).(*state)
	if !n.closed {
		st.errorf(offset, "formula: $$ without a closing $$")
	}
	if offset == 0 && lines.Len() == 0 {
		_, seg := reader.Position()
		offset = seg.Start
	}
	n.Math = &Math{TeX: tex.String(), Display: true, Offset: offset}
}

func (blockMathParser) CanInterruptParagraph() bool { return true }
func (blockMathParser) CanAcceptIndentedLine() bool { return false }

func (c *Converter) convertMath(st *state, m *Math) {
	if strings.TrimSpace(m.TeX) == "" {
		st.errorf(m.Offset, "formula: empty")
		return
	}
	out, err := TeXToMathML(m.TeX, m.Display)
	if err != nil {
		off := m.Offset
		var te *TeXError
		if errors.As(err, &te) {
			off += te.Pos
		}
		st.errorf(off, "formula %q: %v", strings.TrimSpace(m.TeX), err)
		return
	}
	m.MathML = out
}

func (r *nodeRenderer) renderMath(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	w.WriteString(node.(*Math).MathML)
	return ast.WalkSkipChildren, nil
}

func (r *nodeRenderer) renderMathBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		w.WriteString(`<div class="math">` + node.(*MathBlock).Math.MathML + "</div>\n")
	}
	return ast.WalkSkipChildren, nil
}
