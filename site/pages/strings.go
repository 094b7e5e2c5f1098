package pages

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/BurntSushi/toml"

	"retrylab/site/i18n"
	"retrylab/site/locale"
	"retrylab/site/markdown"
)

// SiteKeys are the [site] strings the page templates use; every language
// must define each of them.
var SiteKeys = []string{
	"site.name", "site.tagline", "site.lang_name", "site.og_locale", "site.skip", "site.languages",
	"site.theme", "site.noscript", "site.pages", "site.footer", "site.not_found",
	"site.not_found_text", "site.date",
	"site.search_label", "site.search_button", "site.search_noscript", "site.search_none", "site.search_unavailable",
	"site.month.1", "site.month.2", "site.month.3", "site.month.4", "site.month.5", "site.month.6",
	"site.month.7", "site.month.8", "site.month.9", "site.month.10", "site.month.11", "site.month.12",
}

// loadStrings reads <lang>/strings.toml into a Locale with i18n.Parse
// ("[site] skip" is "site.skip"). A missing [site] key is an error
// naming it.
func loadStrings(fsys fs.FS, lang, contentDir string) (locale.Locale, error) {
	file := path.Join(lang, "strings.toml")
	name := path.Join(contentDir, file)
	b, err := fs.ReadFile(fsys, file)
	if err != nil {
		return locale.Locale{}, &markdown.Error{File: name, Line: 0, Msg: "missing: every language needs its interface strings"}
	}
	strs, err := i18n.Parse(b)
	if err != nil {
		line := 1
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line, err = pe.Position.Line, errors.New(pe.Message)
		}
		return locale.Locale{}, &markdown.Error{File: name, Line: line, Msg: err.Error()}
	}
	loc := locale.Locale{Lang: lang, Strings: strs}
	if missing := i18n.Missing(loc, SiteKeys); len(missing) > 0 {
		if len(missing) > 6 {
			missing = append(missing[:6], fmt.Sprintf("and %d more", len(missing)-6))
		}
		return locale.Locale{}, &markdown.Error{File: name, Line: 1, Msg: "missing strings (the [site] table): " + strings.Join(missing, ", ")}
	}
	return loc, nil
}
