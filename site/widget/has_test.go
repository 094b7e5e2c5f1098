//go:build !(js && wasm)

package widget

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestFewHas: the widget's style sheet selects by :has() only where what
// :has() looks at is a table's or a chart's own child. Chromium checks a
// :has() rule again at changes inside its subject: on a widget, a chip or
// a segment (:has(> .widget-form), :has(input:checked)) that was every
// frame of a playing figure, 45 ms of style a frame at 4x CPU
// (/es/policies/ #storm, issue 30); a class written with the markup
// (widget-io) or the input's own state (input:checked + span) says the
// same.
func TestFewHas(t *testing.T) {
	allowed := []string{".widget-table:has(> thead)", ".widget-table th:has(> .widget-swatch:first-child)", ":has(> details.widget-data[open])"}
	css := regexp.MustCompile(`(?s)/\*.*?\*/`).ReplaceAllString(CSS(), "")
	n := 0
	for _, sel := range regexp.MustCompile(`[^{};]*:has\([^{]*\{`).FindAllString(css, -1) {
		n++
		rest := sel
		for _, a := range allowed {
			rest = strings.ReplaceAll(rest, a, "")
		}
		if strings.Contains(rest, ":has(") {
			t.Errorf("a :has() rule on what changes as the widget runs: %s", strings.TrimSpace(sel))
		}
	}
	if n == 0 {
		t.Fatal("no :has() rule found: the test reads nothing (the allowed ones are in widget.css)")
	}
}

// TestFieldsAttrInScripts: the scripts that make a widget's controls from
// their text (player.js, embed-frame.js) find it by the attribute the
// markup writes (FieldsAttr): typed there, held to Go here.
func TestFieldsAttrInScripts(t *testing.T) {
	want := "noscript[" + FieldsAttr + "]"
	for _, name := range []string{"../assets/player.js", "../assets/embed-frame.js"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sels := regexp.MustCompile(`noscript\[[^\]]*\]`).FindAllString(string(b), -1)
		if len(sels) == 0 {
			t.Errorf("%s: no noscript[…] selector: the script no longer makes the fields?", name)
		}
		for _, s := range sels {
			if s != want {
				t.Errorf("%s: selects %s, the markup writes %s (FieldsAttr)", name, s, want)
			}
		}
	}
}
