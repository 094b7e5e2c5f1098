package pages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"sort"
	"strings"

	"retrylab/site/assets"
	"retrylab/site/classroom"
	"retrylab/site/embed"
	"retrylab/site/locale"
	"retrylab/site/markdown"
	"retrylab/site/preview"
	"retrylab/site/widget"
)

// embeds writes what site/embed and site/classroom add to the site (see
// README, "Embeds and the classroom"): the assets of embeds and of the
// exercises page; per language, an embed page for every calculator
// (LANG/embed/NAME/), the default chart of every calculator that draws
// one (LANG/charts/NAME.svg), the strings the SVG endpoint needs
// (LANG/embed/strings.json); and the exercises block of each page,
// replacing the placeholder site/markdown wrote.
func (b *builder) embeds() error {
	var table *classroom.Table // the exercises' answers: the same in every language
	for _, lang := range b.langs {
		loc := b.locales[lang]
		strs, err := json.Marshal(loc.Subset("param.", "err.", "detail.", "widget.", "view.", "field."))
		if err != nil {
			return err
		}
		b.files[lang+"/embed/strings.json"] = append(strs, '\n')
		for _, c := range b.cfg.Registry.List() {
			chart := ""
			if embed.ChartView(c) != "" {
				svg, err := embed.SVG(b.cfg.Registry, loc, c.Name, url.Values{})
				switch {
				case err == nil:
					b.files[lang+"/charts/"+c.Name+".svg"] = svg
					chart = b.base.href(lang + "/charts/" + c.Name + ".svg")
				case embed.ChartView(c) != "bars":
					return fmt.Errorf("build: chart of %s (%s): %v", c.Name, lang, err)
				}
				// The generic bars of a result without numeric lists draw
				// nothing: that calculator has no chart to link.
			}
			html, err := widget.Render(widget.Spec{Calc: c, ID: c.Name}, loc)
			if err != nil {
				return fmt.Errorf("build: embed of %s (%s): %v", c.Name, lang, err)
			}
			mods, err := b.modules([]string{c.Name})
			if err != nil {
				return fmt.Errorf("build: embed of %s (%s): %v", c.Name, lang, err)
			}
			wasm := ""
			if len(mods) > 0 {
				wasm = mods[0].Wasm
			}
			data, err := json.Marshal(pageData{Lang: lang, Base: b.base.path, API: b.base.href("api/v1/"), Wasm: wasm, WasmExec: b.asset["wasm_exec.js"], Worker: b.asset["playground-worker.js"],
				Locale:  b.calcLocale(loc.Subset("param.", "err.", "detail.", "widget.", "view.", "field.", "site."), c.Name),
				Widgets: []widgetData{{ID: c.Name, Calc: c.Name, Defaults: "", Views: strings.Join(widget.All().DefaultViews(c), ",")}}})
			if err != nil {
				return err
			}
			p := embed.Page{Lang: lang, Title: loc.Tf("embed.page_title", "{title}", "title", widget.Title(c, loc)), CSP: CSP,
				Widget: template.HTML(html), Data: template.JS(data), Asset: b.asset, Wasm: wasm, Chart: chart, Strings: loc, XDefault: b.base.abs("")}
			for _, l := range b.langs {
				where := pagePath(l, widget.EmbedDir+"/"+c.Name)
				p.Langs = append(p.Langs, embed.Alt{Lang: l, Href: b.base.href(where), Abs: b.base.abs(where), Name: b.locales[l].T("site.lang_name"), Current: l == lang})
			}
			if slug, title := b.articleOf(lang, c.Name); slug != "" {
				p.Article = b.base.abs(pagePath(lang, slug))
				p.ArticleName = loc.Tf("embed.from", "{title}", "title", title)
			}
			p.OEmbed = b.base.abs(embed.OEmbedFile(lang, c.Name))
			if b.cfg.Previews {
				file := embedPreviewFile(lang, c.Name)
				p.OGImage, p.SiteName = b.base.abs(file), b.locales[b.langs[0]].T("site.name")
				var svg []byte
				if chart != "" {
					svg = b.files[lang+"/charts/"+c.Name+".svg"]
				}
				b.cards = append(b.cards, ogImage{file: file, lang: lang, card: preview.Card{Site: p.SiteName, Title: widget.Title(c, loc), Subtitle: p.ArticleName, SVG: svg}})
			}
			page, err := p.Render()
			if err != nil {
				return err
			}
			b.files[lang+"/"+widget.EmbedDir+"/"+c.Name+"/index.html"] = page
			// The page's oEmbed answer, which its head names (site/embed/oembed.go).
			ans, err := embed.Answer(page, b.embedURL(lang, c.Name), b.locales[b.langs[0]].T("site.name"), b.base.abs(""), 0, 0)
			if err != nil {
				return err
			}
			js, err := json.MarshalIndent(ans, "", "  ")
			if err != nil {
				return err
			}
			b.files[embed.OEmbedFile(lang, c.Name)] = append(js, '\n')
		}
		// The exercises blocks.
		for _, slug := range sortedKeys(b.pages[lang]) {
			file := pagePath(lang, slug) + "index.html"
			page := b.files[file]
			marker := []byte(`<div class="classroom" ` + markdown.ExercisesAttr + `="`)
			for {
				i := bytes.Index(page, marker)
				if i < 0 {
					break
				}
				j := bytes.Index(page[i:], []byte(`"></div>`))
				if j < 0 {
					return fmt.Errorf("build: %s: a broken exercises placeholder", file)
				}
				q, err := url.ParseQuery(unescapeAttr(string(page[i+len(marker) : i+j])))
				if err != nil {
					return fmt.Errorf("build: %s: exercises: %v", file, err)
				}
				if table == nil {
					if table, err = classroom.Tables(b.cfg.Registry); err != nil {
						return fmt.Errorf("build: %s: exercises: %v", file, err)
					}
				}
				block, err := classroom.PageHTML(classroom.PageConfig{Registry: b.cfg.Registry, Locale: loc, Code: q.Get("code"), Student: q.Get("student"), Table: table,
					Embed: b.base.href(lang + "/" + widget.EmbedDir + "/"), Script: b.asset["classroom.js"], Derive: b.asset["classroom-derive.js"], Style: b.asset["classroom.css"]})
				if err != nil {
					return fmt.Errorf("build: %s: exercises: %v", file, err)
				}
				block = exercisesSearchWeights(block)
				page = append(page[:i:i], append([]byte(block), page[i+j+len(`"></div>`):]...)...)
			}
			b.files[file] = page
		}
	}
	return nil
}

// embedAssets adds the assets of embeds and of the exercises page
// (assets.Classroom) under hashed names; assets() calls it.
func (b *builder) embedAssets() error {
	for _, name := range []string{"embed.js", "embed-frame.js", "embed.css", "widget-embed.js", "classroom-derive.js", "classroom.js", "classroom.css"} {
		data, err := fs.ReadFile(assets.Classroom, name)
		if err != nil {
			return err
		}
		data = bytes.ReplaceAll(data, []byte(EmbedProtocolMark), EmbedProtocol())
		hashed := "assets/" + HashedName(name, data)
		b.files[hashed] = data
		b.asset[name] = b.base.href(hashed)
		if name == widget.EmbedScriptName {
			// Also at a stable address, BASE/embed.js, which the snippets
			// that hosts paste name: they outlive the hashed names.
			b.files[widget.EmbedScriptName] = data
		}
	}
	return nil
}

// EmbedProtocolMark is where a script of the embeds (embed.js,
// embed-frame.js, widget-embed.js) reads the embed protocol:
// `var P = /*EMBED_PROTOCOL*/{};`, which the build fills with
// EmbedProtocol, so that the scripts type none of its values.
const EmbedProtocolMark = "/*EMBED_PROTOCOL*/{}"

// EmbedProtocol is the JavaScript object of site/widget's Embed*
// constants, the one source of the embed protocol.
func EmbedProtocol() []byte {
	b, err := json.Marshal(map[string]any{
		"heightMessage": widget.EmbedHeightMessage,
		"maxHeight":     widget.EmbedMaxHeight,
		"idKey":         widget.EmbedIDKey,
		"dir":           widget.EmbedDir,
		"srcMark":       widget.EmbedSrcMark,
	})
	if err != nil {
		panic(err)
	}
	return b
}

// embedURL is the absolute URL (or the path, without an origin) of the
// embed page of calculator name in lang.
func (b *builder) embedURL(lang, name string) string {
	return b.base.abs(pagePath(lang, widget.EmbedDir+"/"+name))
}

// calcLocale keeps the strings an embed of calculator name needs: it
// drops the keys of the other calculators ("param.OTHER.…", "field.OTHER.…"
// and so on), a third of an embed page's weight.
func (b *builder) calcLocale(loc locale.Locale, name string) locale.Locale {
	others := map[string]bool{}
	for _, c := range b.cfg.Registry.List() {
		others[c.Name] = c.Name != name
	}
	out := locale.Locale{Lang: loc.Lang, Strings: map[string]string{}}
	for k, v := range loc.Strings {
		parts := strings.SplitN(k, ".", 3)
		if len(parts) == 3 && others[parts[1]] {
			continue
		}
		out.Strings[k] = v
	}
	return out
}

func unescapeAttr(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#34;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">", "&quot;", `"`).Replace(s)
}

// articleOf returns the slug and title of the article of lang that holds a
// widget of calculator name: the first by order, a test page ("playground")
// only when no other has it.
func (b *builder) articleOf(lang, name string) (slug, title string) {
	var slugs []string
	for s := range b.pages[lang] {
		if s != "" {
			slugs = append(slugs, s)
		}
	}
	sort.Slice(slugs, func(i, j int) bool {
		pi, pj := b.pages[lang][slugs[i]], b.pages[lang][slugs[j]]
		if (slugs[i] == "playground") != (slugs[j] == "playground") {
			return slugs[j] == "playground"
		}
		if pi.Meta.Order != pj.Meta.Order {
			return pi.Meta.Order < pj.Meta.Order
		}
		return slugs[i] < slugs[j]
	})
	for _, s := range slugs {
		for _, w := range b.pages[lang][s].Widgets {
			if w.Kind == "widget" && w.Calc.Name == name {
				return s, b.pages[lang][s].Meta.Title
			}
		}
	}
	return "", ""
}
