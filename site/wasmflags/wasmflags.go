// Package wasmflags reads the buildflags file of the browser's modules
// (wasm/playground/buildflags), as build.sh does, for the Go programs and
// tests that build those modules themselves (wasmbench,
// TestModulesLinkTheirSet).
package wasmflags

import (
	"os"
	"strings"
)

// Read reads a buildflags file (wasm/playground/buildflags, the flags of
// the browser's modules) as build.sh does: one go build flag a
// line, or NAME=value (an upper-case name) for the go command's
// environment; blank lines and lines starting with '#' are skipped.
// wasmbench and TestModulesLinkTheirSet build the modules with it.
func Read(path string) (flags, env []string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	for line := range strings.Lines(string(b)) {
		switch line = strings.TrimRight(line, "\r\n"); {
		case line == "" || line[0] == '#':
		case line[0] >= 'A' && line[0] <= 'Z' && strings.Contains(line, "="):
			env = append(env, line)
		default:
			flags = append(flags, line)
		}
	}
	return flags, env, nil
}
