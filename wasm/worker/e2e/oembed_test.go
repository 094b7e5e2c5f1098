//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestOEmbedWorker: the Worker answers the oEmbed endpoint as the native
// server does (site/server's TestOEmbed): a rich iframe of its own embed
// pages, sized within maxwidth, 404 for another site's address, 501 for
// a format other than json; and serves the build's answers as files.
func TestOEmbedWorker(t *testing.T) {
	for _, side := range []struct{ name, base string }{{"worker", worker.URL}, {"native", native.URL}} {
		own := side.base + "/it/embed/jitter/?seed=7"
		ask := func(u, extra string) string { return side.base + "/oembed?url=" + url.QueryEscape(u) + extra }
		for _, tc := range []struct {
			target string
			status int
		}{
			{ask(own, "&maxwidth=500"), http.StatusOK},
			{ask("https://example.org/it/embed/jitter/", ""), http.StatusNotFound},
			{ask(side.base+"/it/retries/", ""), http.StatusNotFound},
			{ask(own, "&format=xml"), http.StatusNotImplemented},
			{side.base + "/oembed", http.StatusBadRequest},
			{side.base + "/oembed/it/jitter.json", http.StatusOK},
		} {
			a := do(t, "GET", tc.target)
			if a.Status != tc.status {
				t.Errorf("%s %s: %d, want %d: %.300s", side.name, tc.target, a.Status, tc.status, a.Body)
				continue
			}
			if mediaType(a.Header.Get("Content-Type")) != "application/json" {
				t.Errorf("%s %s: Content-Type %q", side.name, tc.target, a.Header.Get("Content-Type"))
			}
			if tc.status != http.StatusOK {
				continue
			}
			var ans struct {
				Type   string `json:"type"`
				HTML   string `json:"html"`
				Width  int    `json:"width"`
				Height int    `json:"height"`
			}
			if err := json.Unmarshal(a.Body, &ans); err != nil {
				t.Errorf("%s %s: %v", side.name, tc.target, err)
				continue
			}
			if ans.Type != "rich" || ans.Height <= 0 || !strings.Contains(ans.HTML, "<iframe src=") {
				t.Errorf("%s %s: %+v", side.name, tc.target, ans)
			}
			if strings.Contains(tc.target, "maxwidth=500") && (ans.Width != 500 || !strings.Contains(ans.HTML, `src="`+side.base+`/it/embed/jitter/?seed=7"`)) {
				t.Errorf("%s: %+v", side.name, ans)
			}
		}
	}
}
