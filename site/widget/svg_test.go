package widget

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"retrylab/core/calc"
)

// TestSVGWellFormed renders every view of every calculator at its
// defaults, in every language, and reads each <svg> it draws with a
// strict XML decoder: an attribute written without its name (height="4"0.75)
// or a tag left open is an error that browsers repair silently, and the
// standalone SVG endpoint would serve it as is.
func TestSVGWellFormed(t *testing.T) {
	for _, c := range calc.New().List() {
		for _, v := range All().Views(c) {
			for lang, loc := range locales(t) {
				html, err := Render(Spec{Calc: c, ID: "w", Views: []string{v}}, loc)
				if err != nil {
					t.Fatalf("%s %s %s: %v", c.Name, v, lang, err)
				}
				rest, n := html, 0
				for {
					i := strings.Index(rest, "<svg")
					if i < 0 {
						break
					}
					j := strings.Index(rest[i:], "</svg>")
					if j < 0 {
						t.Fatalf("%s %s %s: an <svg> without its end", c.Name, v, lang)
					}
					doc := rest[i : i+j+len("</svg>")]
					rest = rest[i+j:]
					n++
					d := xml.NewDecoder(strings.NewReader(doc))
					d.Strict = true
					for {
						_, err := d.Token()
						if errors.Is(err, io.EOF) {
							break
						}
						if err != nil {
							line := doc[max(0, int(d.InputOffset())-120):min(len(doc), int(d.InputOffset())+40)]
							t.Errorf("%s view %s (%s), svg %d: %v near %q", c.Name, v, lang, n, err, line)
							break
						}
					}
				}
			}
		}
	}
}
