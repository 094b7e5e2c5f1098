package server

import "retrylab/core/calc"

// What the handler needs is built when a request first needs it, not when
// the program starts nor in New: in the Worker every request starts a
// fresh Go instance, so start-up work is paid by every request
// (TestStartupAllocs holds it to a budget).

// registry returns Config.Registry, or calc.New() built on first use.
func (h *handler) registry() *calc.Registry {
	h.regOnce.Do(func() {
		if h.reg == nil {
			h.reg = calc.New()
		}
	})
	return h.reg
}

// hashedName reports whether a file name carries a content hash, as the
// build writes them: ".HASH.EXT" at its end, HASH 12 lowercase hexadecimal
// digits, EXT lowercase letters and digits (what the regular expression
// `\.[0-9a-f]{12}\.[a-z0-9]+$` matches; TestHashedName holds the two
// equal).
func hashedName(name string) bool {
	dot := -1
	for i := len(name) - 1; i >= 0; i-- {
		c := name[i]
		if c == '.' {
			dot = i
			break
		}
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	if dot < 13 || dot == len(name)-1 || name[dot-13] != '.' {
		return false
	}
	for _, c := range []byte(name[dot-12 : dot]) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// contentType returns the media type of a file extension (not the OS
// table: the answer must not depend on the machine);
// application/octet-stream for the others.
func contentType(ext string) string {
	switch ext {
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".json":
		return "application/json"
	case ".wasm":
		return "application/wasm"
	case ".svg":
		return "image/svg+xml"
	case ".xml":
		return "application/xml; charset=utf-8"
	case ".txt":
		return "text/plain; charset=utf-8"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/x-icon"
	case ".webp":
		return "image/webp"
	case ".woff2":
		return "font/woff2"
	}
	return "application/octet-stream"
}
