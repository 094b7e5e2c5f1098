package pages

import (
	"encoding/json"
	"strings"
	"testing"

	"retrylab/site/embed"
)

// TestOEmbedFiles: every embed page names its oEmbed answer in its head,
// the build wrote that answer (a rich iframe of the embed page at the
// widget's estimated height with the resize script at BASE/embed.js, which
// the build wrote too), and the widgets' "embed" control offers the same
// frame.
func TestOEmbedFiles(t *testing.T) {
	cfg := tree(t, "testdata/site.txtar")
	cfg.BaseURL = "https://example.org/sub/"
	s, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Files["embed.js"]; !ok {
		t.Fatal("no embed.js at the site's root")
	}
	n := 0
	for name, page := range s.Files {
		lang, rest, _ := strings.Cut(name, "/")
		calc, ok := strings.CutSuffix(strings.TrimPrefix(rest, "embed/"), "/index.html")
		if !ok || !strings.HasPrefix(rest, "embed/") {
			continue
		}
		n++
		file := embed.OEmbedFile(lang, calc)
		link := `<link rel="alternate" type="application/json+oembed" href="https://example.org/sub/` + file + `"`
		if !strings.Contains(string(page), link) {
			t.Errorf("%s: no %s", name, link)
		}
		var ans embed.OEmbed
		if err := json.Unmarshal(s.Files[file], &ans); err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		src := "https://example.org/sub/" + lang + "/embed/" + calc + "/"
		if ans.Type != "rich" || ans.Version != "1.0" || ans.ProviderURL != "https://example.org/sub/" || ans.Height < 300 || ans.Width != 768 ||
			!strings.HasPrefix(ans.HTML, `<iframe src="`+src+`"`) || !strings.Contains(ans.HTML, `<script src="https://example.org/sub/embed.js" defer></script>`) {
			t.Errorf("%s: %+v", file, ans)
		}
	}
	if n == 0 {
		t.Fatal("no embed pages")
	}
}
