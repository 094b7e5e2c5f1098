package pages

import (
	"encoding/json"
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"retrylab/site/assets"
	"retrylab/site/widget"
)

// TestEmbedProtocolOneSource: the scripts that speak the embed protocol
// read it from the object the build writes (EmbedProtocolMark, once
// each) and type none of its values; the object holds site/widget's
// constants.
func TestEmbedProtocolOneSource(t *testing.T) {
	var p map[string]any
	if err := json.Unmarshal(EmbedProtocol(), &p); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"heightMessage": widget.EmbedHeightMessage, "maxHeight": float64(widget.EmbedMaxHeight),
		"idKey": widget.EmbedIDKey, "dir": widget.EmbedDir, "srcMark": widget.EmbedSrcMark} {
		if p[k] != want {
			t.Errorf("EmbedProtocol()[%q] = %v, want %v", k, p[k], want)
		}
	}
	for _, tc := range []struct {
		name string
		uses []string // the protocol's fields the script reads
	}{
		{"embed.js", []string{"P.heightMessage", "P.maxHeight", "P.dir"}},
		{"embed-frame.js", []string{"P.heightMessage", "P.idKey"}},
		{"widget-embed.js", []string{"P.srcMark"}},
	} {
		b, err := fs.ReadFile(assets.Classroom, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		var code []string // the lines that are not comments
		for _, line := range strings.Split(s, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "//") {
				code = append(code, line)
			}
		}
		if n := strings.Count(s, EmbedProtocolMark); n != 1 {
			t.Errorf("%s holds %s %d times, want once", tc.name, EmbedProtocolMark, n)
		}
		for _, u := range tc.uses {
			if !strings.Contains(s, u) {
				t.Errorf("%s does not read %s", tc.name, u)
			}
		}
		for _, typed := range []string{widget.EmbedHeightMessage, strconv.Itoa(widget.EmbedMaxHeight), "/" + widget.EmbedDir + "/", "'" + widget.EmbedIDKey + "'", "<iframe"} {
			if strings.Contains(strings.Join(code, "\n"), typed) {
				t.Errorf("%s types %q: read it from P", tc.name, typed)
			}
		}
	}
}
