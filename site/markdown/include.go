package markdown

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// include returns the file PATH of the repository, or the lines between
// "// region NAME" and "// endregion" for PATH#NAME. Region markers inside
// the text are dropped and the common indentation removed.
func (c *Converter) include(spec string) (string, error) {
	file, region, hasRegion := strings.Cut(spec, "#")
	if c.opts.Include == nil {
		return "", fmt.Errorf("include %s: no repository to include from", spec)
	}
	clean := path.Clean(file)
	if !fs.ValidPath(clean) || clean != file {
		return "", fmt.Errorf("include %s: the path must be relative to the repository root (no . or .. parts)", spec)
	}
	b, err := fs.ReadFile(c.opts.Include, clean)
	if err != nil {
		return "", fmt.Errorf("include %s: no such file in the repository", spec)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if hasRegion {
		start, end := -1, -1
		depth := 0
		for i, l := range lines {
			t := strings.TrimSpace(l)
			if start < 0 {
				if name, ok := strings.CutPrefix(t, "// region "); ok && strings.TrimSpace(name) == region {
					start = i + 1
				}
				continue
			}
			if strings.HasPrefix(t, "// region ") {
				depth++
			} else if t == "// endregion" {
				if depth == 0 {
					end = i
					break
				}
				depth--
			}
		}
		if start < 0 {
			return "", fmt.Errorf("include %s: %s has no line \"// region %s\"", spec, file, region)
		}
		if end < 0 {
			return "", fmt.Errorf("include %s: region %s of %s has no \"// endregion\"", spec, region, file)
		}
		lines = lines[start:end]
	}
	var kept []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "// region ") || t == "// endregion" {
			continue
		}
		kept = append(kept, l)
	}
	if len(kept) == 0 {
		return "", fmt.Errorf("include %s: the region is empty", spec)
	}
	return dedent(kept), nil
}

// dedent removes the indentation common to every non-blank line.
func dedent(lines []string) string {
	prefix := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = ind, false
			continue
		}
		for !strings.HasPrefix(ind, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimPrefix(l, prefix))
	}
	s := b.String()
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}
