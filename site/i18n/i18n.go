// Package i18n loads the interface strings of each language from
// content/<lang>/strings.toml into a locale.Locale. Nested tables flatten
// to dotted keys: [param.jitter] clients = "…" is "param.jitter.clients";
// a quoted key keeps its dots ("clients.help" = "…" in that table is
// "param.jitter.clients.help").
package i18n

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"retrylab/site/locale"
)

// Load reads dir/<lang>/strings.toml (dir is the content folder).
func Load(dir, lang string) (locale.Locale, error) {
	path := filepath.Join(dir, lang, "strings.toml")
	b, err := os.ReadFile(path)
	if err != nil {
		return locale.Locale{}, err
	}
	strs, err := Parse(b)
	if err != nil {
		return locale.Locale{}, fmt.Errorf("%s: %v", path, err)
	}
	return locale.Locale{Lang: lang, Strings: strs}, nil
}

// LoadAll loads every language of locale.Languages.
func LoadAll(dir string) (map[string]locale.Locale, error) {
	out := map[string]locale.Locale{}
	for _, l := range locale.Languages() {
		loc, err := Load(dir, l)
		if err != nil {
			return nil, err
		}
		out[l] = loc
	}
	return out, nil
}

// Parse reads a strings table: every value must be a string (or a table
// of them); a key given twice, or one that is both a string and a table
// after flattening, is an error with its line.
func Parse(b []byte) (map[string]string, error) {
	var tree map[string]any
	if _, err := toml.Decode(string(b), &tree); err != nil {
		return nil, err
	}
	out := map[string]string{}
	if err := flatten("", tree, out); err != nil {
		return nil, err
	}
	return out, nil
}

func flatten(prefix string, m map[string]any, out map[string]string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		switch v := m[k].(type) {
		case string:
			if _, dup := out[key]; dup {
				return fmt.Errorf("key %s is given twice (once as a dotted key)", key)
			}
			out[key] = v
		case map[string]any:
			if err := flatten(key, v, out); err != nil {
				return err
			}
		default:
			return fmt.Errorf("key %s: strings only, got %T", key, v)
		}
	}
	return nil
}

// Missing returns, sorted, the keys of want that loc lacks.
func Missing(loc locale.Locale, want []string) []string {
	var miss []string
	for _, k := range want {
		if _, ok := loc.Strings[k]; !ok {
			miss = append(miss, k)
		}
	}
	sort.Strings(miss)
	return miss
}

// placeholders returns the {names} of a template, sorted and unique; a
// plural placeholder {n|one form|other forms} counts as its name n (each
// language inflects the words it needs: Spanish may agree with total
// where Italian agrees with n, Chinese with neither).
func placeholders(s string) []string {
	seen := map[string]bool{}
	for _, p := range locale.Placeholders(s) {
		name, _, _ := strings.Cut(p, "|")
		seen[name] = true
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
