package markdown

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Meta is a page's front matter.
type Meta struct {
	Title       string `yaml:"title"`
	Description string `yaml:"description"`
	Date        string `yaml:"date"` // YYYY-MM-DD
	Order       int    `yaml:"order"`
}

var yamlLine = lazyRegexp{src: `line (\d+)`}

// parseFrontMatter splits the YAML front matter between two "---" lines
// from the Markdown body. The body keeps the front matter's lines as empty
// lines, so that offsets in it give the line numbers of the file. Errors
// are *Error with the line set (and File empty).
func parseFrontMatter(src []byte) (Meta, []byte, error) {
	var m Meta
	fail := func(line int, format string, args ...any) (Meta, []byte, error) {
		return m, nil, &Error{Line: line, Msg: "front matter: " + sprintf(format, args...)}
	}
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	lines := bytes.SplitAfter(src, []byte("\n"))
	if len(lines) == 0 || strings.TrimRight(string(lines[0]), " \t\r\n") != "---" {
		return fail(1, "the page must start with a --- line, then title, description and date, then ---")
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(string(lines[i]), " \t\r\n") == "---" {
			end = i
			break
		}
	}
	if end < 0 {
		return fail(1, "no closing --- line")
	}
	yml := bytes.Join(lines[1:end], nil)
	dec := yaml.NewDecoder(bytes.NewReader(yml))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil && len(bytes.TrimSpace(yml)) > 0 {
		line, msg := 1, err.Error()
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			msg = te.Errors[0]
		}
		if sm := yamlLine.get().FindStringSubmatch(msg); sm != nil {
			line, _ = strconv.Atoi(sm[1])
		}
		msg = strings.TrimPrefix(msg, "yaml: ")
		msg = yamlLine.get().ReplaceAllString(msg, "")
		msg = strings.TrimLeft(msg, ": ")
		return fail(line+1, "%s", msg)
	}
	keyLine := func(key string) int {
		for i := 1; i < end; i++ {
			if strings.HasPrefix(string(lines[i]), key+":") {
				return i + 1
			}
		}
		return end + 1
	}
	switch {
	case strings.TrimSpace(m.Title) == "":
		return fail(keyLine("title"), "title is required")
	case strings.TrimSpace(m.Description) == "":
		return fail(keyLine("description"), "description is required")
	case m.Date == "":
		return fail(keyLine("date"), "date is required (YYYY-MM-DD)")
	}
	if _, err := time.Parse("2006-01-02", m.Date); err != nil {
		return fail(keyLine("date"), "date must be YYYY-MM-DD, got %q", m.Date)
	}
	body := make([]byte, 0, len(src))
	for i := 0; i <= end; i++ {
		body = append(body, '\n')
	}
	for _, l := range lines[end+1:] {
		body = append(body, l...)
	}
	return m, body, nil
}
