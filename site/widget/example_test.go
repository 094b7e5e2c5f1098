package widget_test

import (
	"fmt"
	"net/url"
	"regexp"

	"retrylab/core/calc"
	"retrylab/site/locale"
	"retrylab/site/widget"
)

// Render writes the whole widget; the build puts it in the page and the
// playground recomputes its output with Set.RenderOutput.
func ExampleRender() {
	c, _ := calc.New().Lookup("attempts")
	loc := locale.Locale{Lang: "it", Strings: map[string]string{"field.attempts.expected_attempts": "tentativi attesi"}}
	html, err := widget.Render(widget.Spec{Calc: c, ID: "att", Values: url.Values{"q": {"0.9"}}, Views: []string{"table"}}, loc)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range regexp.MustCompile(`<div class="widget[ "][^>]*>|<th scope="row">[^<]*</th><td[^>]*>[^<]*</td>`).FindAllString(html, -1) {
		fmt.Println(m)
	}
	// Output:
	// <div class="widget widget-io" data-widget="attempts" id="att" data-defaults="q=0.9" data-views="table" role="group" aria-labelledby="att-title">
	// <th scope="row">tentativi attesi</th><td data-out="expected_attempts" data-value="2.71">2,71</td>
	// <th scope="row">success probability</th><td data-out="success_probability" data-value="0.271">27,10%</td>
}
