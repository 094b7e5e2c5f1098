//go:build !(js && wasm)

package playground

import (
	"os"
	"strings"
)

// ReadBuildFlags reads a buildflags file (this package's buildflags, the
// flags of the browser's modules) as build.sh does: one go build flag a
// line, or NAME=value (an upper-case name) for the go command's
// environment; blank lines and lines starting with '#' are skipped.
// wasmbench and TestModulesLinkTheirSet build the modules with it.
func ReadBuildFlags(path string) (flags, env []string, err error) {
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
