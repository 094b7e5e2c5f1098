//go:build !(js && wasm)

package widget

import (
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
	allowed := []string{".widget-table:has(> thead)", ".widget-table th:has(> .widget-swatch:first-child)", "figure.widget-chart:has(> svg)"}
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
