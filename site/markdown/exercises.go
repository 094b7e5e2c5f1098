package markdown

import (
	"html"
	"net/url"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// ExercisesAttr is the attribute of the element an `exercises` block
// becomes: <div class="classroom" data-exercises="code=C&student=S"></div>.
// The build (site/pages, embed.go) replaces that element by the
// classroom's form, worksheet and data (site/classroom.PageHTML).
const ExercisesAttr = "data-exercises"

// exercisesBlock turns a fenced block with info string `exercises` into
// its placeholder. Its lines are `code: CLASS` and `student: NAME`, the
// variant the page shows first; both are required, nothing else is
// allowed.
func (c *Converter) exercisesBlock(st *state, fb *ast.FencedCodeBlock) ast.Node {
	line := 0
	if fb.Lines().Len() > 0 {
		line = st.lineOf(fb.Lines().At(0).Start)
	} else if fb.Info != nil {
		line = st.lineOf(fb.Info.Segment.Start)
	}
	v := url.Values{}
	lines := fb.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		text := strings.TrimSpace(string(seg.Value(st.src)))
		if text == "" {
			continue
		}
		k, val, ok := strings.Cut(text, ":")
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		switch {
		case !ok:
			st.errorf(seg.Start, "exercises: write key: value, got %q", text)
			continue
		case k != "code" && k != "student":
			st.errorf(seg.Start, "exercises: unknown key %q (code, student)", k)
			continue
		case val == "" || len(val) > 80:
			st.errorf(seg.Start, "exercises: %s must have 1 to 80 characters", k)
			continue
		case v.Has(k):
			st.errorf(seg.Start, "exercises: %s given twice", k)
			continue
		}
		v.Set(k, val)
	}
	if len(st.errs) == 0 && (!v.Has("code") || !v.Has("student")) {
		st.errorAtLine(line, "exercises: the block needs the lines code: CLASS and student: NAME")
	}
	return &ExercisesBlock{Values: v}
}

// KindExercisesBlock is the ast.NodeKind of [ExercisesBlock].
var KindExercisesBlock = ast.NewNodeKind("ExercisesBlock")

// ExercisesBlock is what an `exercises` fence becomes: the class and the
// student whose variant the page shows first.
type ExercisesBlock struct {
	ast.BaseBlock
	Values url.Values // code and student
}

// Kind implements ast.Node.
func (n *ExercisesBlock) Kind() ast.NodeKind { return KindExercisesBlock }

// Dump implements ast.Node.
func (n *ExercisesBlock) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Values": n.Values.Encode()}, nil)
}

// renderExercises writes the placeholder the build replaces.
func (r *nodeRenderer) renderExercises(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		w.WriteString(`<div class="classroom" ` + ExercisesAttr + `="` + html.EscapeString(node.(*ExercisesBlock).Values.Encode()) + `"></div>` + "\n")
	}
	return ast.WalkSkipChildren, nil
}
