package build

import (
	"os"
	"strings"
	"testing"

	"retrylab/site/locale"
)

// These tests run on the repository's own content/: the real site must
// build, its links resolve, its translations match, and two builds agree
// byte for byte.

func buildReal(t testing.TB) *Site {
	t.Helper()
	s, err := Build(realContent(t))
	if err != nil {
		t.Fatalf("content/ does not build:\n%v", err)
	}
	return s
}

func TestRealContentLinks(t *testing.T) {
	checkLinks(t, buildReal(t), "/")
}

func TestRealContentParity(t *testing.T) {
	s := buildReal(t)
	for _, msg := range CheckParity(s.Pages, locale.Languages()) {
		t.Error(msg)
	}
}

func TestRealContentDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("two full builds")
	}
	a, b := buildReal(t), buildReal(t)
	if !a.Equal(b) {
		t.Fatal("two builds of content/ differ")
	}
}

func TestParityDetectsDifferences(t *testing.T) {
	cfg := tree(t, "testdata/site.txtar")
	s, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if msgs := CheckParity(s.Pages, locale.Languages()); len(msgs) != 0 {
		t.Fatalf("the test tree is not in parity: %v", msgs)
	}
	es := s.Pages["es"]["demo"]
	es.Widgets[0], es.Widgets[1] = es.Widgets[1], es.Widgets[0]
	es.Citations = es.Citations[1:]
	msgs := strings.Join(CheckParity(s.Pages, locale.Languages()), "\n")
	for _, want := range []string{
		"content/es/demo.md: block 1 is calc attempts id=low q=0.1; in content/it/demo.md it is widget attempts id=a q=0.9",
		"content/es/demo.md: lacks citations of content/it/demo.md: {=a.q}",
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("parity messages lack %q:\n%s", want, msgs)
		}
	}
}

// BenchmarkBuildSite builds the real content/ (pages, assets, compression;
// without the wasm module, whose one-off compression BenchmarkCompressWasm
// measures). Target: well under a second per build.
func BenchmarkBuildSite(b *testing.B) {
	cfg := realContent(b)
	if _, err := Build(cfg); err != nil {
		b.Fatalf("content/ does not build:\n%v", err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Build(cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompressWasm compresses a playground module (gzip and brotli),
// the part of a build that a new wasm costs once per module.
func BenchmarkCompressWasm(b *testing.B) {
	wasm, err := os.ReadFile("../../build/playground-retries.wasm")
	if err != nil {
		b.Skip("no build/playground-retries.wasm (run make build)")
	}
	b.SetBytes(int64(len(wasm)))
	for i := 0; i < b.N; i++ {
		compressCache.Clear()
		compressBoth(wasm, brotliQuality("assets/playground-retries.wasm", len(wasm)))
	}
}

// TestRealContentSubPath builds content/ for a sub-path of a static host:
// every internal link must stay under it.
func TestRealContentSubPath(t *testing.T) {
	cfg := realContent(t)
	cfg.BaseURL = "https://example.org/retrylab/"
	s, err := Build(cfg)
	if err != nil {
		t.Fatalf("content/ does not build:\n%v", err)
	}
	checkLinks(t, s, "/retrylab/")
}
