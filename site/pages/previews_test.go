package pages

import (
	"bytes"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"retrylab/site/preview"
)

// TestPreviews: with Config.Previews every page and every embed names a
// link preview (og:image, twitter:image, summary_large_image) that the
// build wrote: a 1200×630 PNG of at most 200 KB. Italian and Spanish only
// here (the Go fonts); the Chinese ones need the system's CJK font, which
// the browser tests' build draws (make test).
func TestPreviews(t *testing.T) {
	cfg := tree(t, "testdata/site.txtar")
	cfg.Languages = []string{"it", "es"}
	cfg.Previews = true
	cfg.BaseURL = "https://example.org/"
	s, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	og := regexp.MustCompile(`<meta property="og:image" content="https://example.org/([^"]+)">`)
	n := 0
	for name, page := range s.Files {
		if !strings.HasSuffix(name, "index.html") || name == "index.html" || !strings.Contains(name, "/") {
			continue
		}
		m := og.FindSubmatch(page)
		if m == nil {
			t.Errorf("%s: no og:image", name)
			continue
		}
		if !bytes.Contains(page, []byte(`<meta name="twitter:card" content="summary_large_image">`)) {
			t.Errorf("%s: no summary_large_image card", name)
		}
		img, ok := s.Files[string(m[1])]
		if !ok {
			t.Errorf("%s: og:image %s was not written", name, m[1])
			continue
		}
		if len(img) > preview.MaxBytes {
			t.Errorf("%s: %d bytes", m[1], len(img))
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(img))
		if err != nil || cfg.Width != preview.Width || cfg.Height != preview.Height {
			t.Errorf("%s: %v %dx%d", m[1], err, cfg.Width, cfg.Height)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no pages")
	}
}
