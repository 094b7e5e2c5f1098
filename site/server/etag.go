package server

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"strings"

	"retrylab/core/calc"
)

// APIKey returns the canonical request of a calculator's answer: NAME,
// then "?" and the canonical query of a when some parameter differs from
// its default ("attempts", "attempts?q=0.9&n=5"). For the chart
// (svg true) it is NAME.svg?lang=LANG, then "&" and the canonical query.
// Equal questions have equal keys; the answer depends on nothing else but
// the deployed version (and, for a chart, the words of its language in
// dist/, which its ETag adds: svg in embed.go). The Worker's edge layer computes the same text
// (wasm/worker/edge/edge.mjs; its tests hold the two equal).
func APIKey(name string, a calc.Args, svg bool, lang string) string {
	q := a.Canonical()
	if svg {
		name += ".svg?lang=" + lang
		if q != "" {
			name += "&" + q
		}
		return name
	}
	if q != "" {
		name += "?" + q
	}
	return name
}

// ETag returns the entity tag of the answer to the canonical request key
// under version: `"VERSION-HASH"`, HASH the first 16 hexadecimal digits
// of the SHA-256 of key. It changes with the version and with the
// question, never with how the question was spelled.
func ETag(version, key string) string {
	sum := sha256.Sum256([]byte(key))
	return `"` + version + "-" + hex.EncodeToString(sum[:8]) + `"`
}

// apiVersion returns the deployed version the API's ETags carry:
// Config.Version, else buildVersion's, reduced to the characters
// [0-9A-Za-z._+] (an ETag cannot hold a quote). Computed once, on the
// first API request.
func (h *handler) apiVersion() string {
	h.versionOnce.Do(func() {
		v := h.version
		if v == "" {
			v = buildVersion()
		}
		h.version = sanitizeVersion(v)
	})
	return h.version
}

// buildVersion names the running code: the module version it was
// installed at, else the VCS revision it was built from when the tree was
// clean, else the first 12 hexadecimal digits of the SHA-256 of the
// executable (`go run` and modified trees stamp no usable revision, and a
// changed program must not keep the old ETags), else "dev".
func buildVersion() string {
	rev, dirty := "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && !dirty {
		return rev
	}
	if h := executableHash(); h != "" {
		return h
	}
	if rev != "" {
		return rev + "+dirty"
	}
	return "dev"
}

// executableHash returns the first 12 hexadecimal digits of the SHA-256 of
// the running executable, or "" when it cannot be read (WebAssembly).
func executableHash() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

func sanitizeVersion(v string) string {
	var b strings.Builder
	for _, r := range v {
		if r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '.' || r == '_' || r == '+' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "dev"
	}
	return b.String()
}

// cacheable sets the headers of a cacheable API answer (200 or 304): its
// ETag, Cache-Control and CORS, and reports whether the request's
// If-None-Match already holds the ETag: then it has answered 304 and the
// caller computes nothing.
func (h *handler) cacheable(w http.ResponseWriter, r *http.Request, key string) bool {
	etag := ETag(h.apiVersion(), key)
	hd := w.Header()
	hd.Set("ETag", etag)
	hd.Set("Cache-Control", cacheAPI)
	hd.Set("Access-Control-Allow-Origin", "*")
	if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatch(inm, etag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	return false
}

// clearCacheable takes back what cacheable set, for an answer that turns
// out to be an error (which is not cached: writeJSONError says no-store).
func clearCacheable(w http.ResponseWriter) {
	hd := w.Header()
	hd.Del("ETag")
	hd.Del("Access-Control-Allow-Origin")
}
