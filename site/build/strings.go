package build

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"retrylab/site/locale"
	"retrylab/site/markdown"
)

// SiteKeys are the [site] strings the page templates use; every language
// must define each of them.
var SiteKeys = []string{
	"site.name", "site.tagline", "site.lang_name", "site.og_locale", "site.skip", "site.languages",
	"site.theme", "site.noscript", "site.pages", "site.footer", "site.not_found",
	"site.not_found_text", "site.date",
	"site.month.1", "site.month.2", "site.month.3", "site.month.4", "site.month.5", "site.month.6",
	"site.month.7", "site.month.8", "site.month.9", "site.month.10", "site.month.11", "site.month.12",
}

// loadStrings reads <lang>/strings.toml into a Locale: nested tables become
// dotted keys ("[site] skip" is "site.skip"). A missing [site] key is an
// error naming it.
func loadStrings(fsys fs.FS, lang, contentDir string) (locale.Locale, error) {
	file := path.Join(lang, "strings.toml")
	name := path.Join(contentDir, file)
	b, err := fs.ReadFile(fsys, file)
	if err != nil {
		return locale.Locale{}, &markdown.Error{File: name, Line: 0, Msg: "missing: every language needs its interface strings"}
	}
	var raw map[string]any
	md, err := toml.Decode(string(b), &raw)
	if err != nil {
		line := 1
		if pe, ok := err.(toml.ParseError); ok {
			line = pe.Position.Line
			err = fmt.Errorf("%s", pe.Message)
		}
		return locale.Locale{}, &markdown.Error{File: name, Line: line, Msg: err.Error()}
	}
	_ = md
	strs := map[string]string{}
	if err := flatten("", raw, strs); err != nil {
		return locale.Locale{}, &markdown.Error{File: name, Line: 1, Msg: err.Error()}
	}
	var missing []string
	for _, k := range SiteKeys {
		if strings.TrimSpace(strs[k]) == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return locale.Locale{}, &markdown.Error{File: name, Line: 1, Msg: "missing strings: " + strings.Join(missing, ", ")}
	}
	return locale.Locale{Lang: lang, Strings: strs}, nil
}

func flatten(prefix string, m map[string]any, out map[string]string) error {
	for k, v := range m {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		switch v := v.(type) {
		case map[string]any:
			if err := flatten(key, v, out); err != nil {
				return err
			}
		case string:
			out[key] = v
		case int64:
			out[key] = strconv.FormatInt(v, 10)
		default:
			return fmt.Errorf("%s: a string is expected, got %T", key, v)
		}
	}
	return nil
}
