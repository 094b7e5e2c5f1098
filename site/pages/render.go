package pages

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"retrylab/core/calc"
	"retrylab/core/standin/query"
	"retrylab/site/locale"
	"retrylab/site/markdown"
	"retrylab/site/preview"
	"retrylab/site/widget"
)

// CSP is the Content-Security-Policy of every page (the meta tag). The
// HTTP header adds frame-ancestors, which a meta tag cannot carry.
// worker-src 'self' lets the playground run its worker
// (playground-worker.js); default-src would allow it too, but a policy
// that tightens script-src must keep it.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'"

//go:embed templates/*.html
var templateFS embed.FS

// tmpl returns the page templates, parsed on first use (not when the
// program starts: `retrylab serve` and `retrylab calc` never render one).
func tmpl() *template.Template {
	tmplOnce.Do(func() { tmplParsed = template.Must(template.New("").ParseFS(templateFS, "templates/*.html")) })
	return tmplParsed
}

var (
	tmplOnce   sync.Once
	tmplParsed *template.Template
)

type builder struct {
	cfg     Config
	langs   []string
	base    baseURL
	files   map[string][]byte
	locales map[string]locale.Locale
	slugs   []string
	pages   map[string]map[string]*markdown.Page
	asset   map[string]string // asset name → hashed href
	cards   []ogImage         // the link previews to draw (previews.go)
}

// pageModule is one playground module a page loads: its set's name
// (wasm/playground/NAME), its href and the page's calculators it draws.
type pageModule struct {
	Name  string   `json:"name"`
	Wasm  string   `json:"wasm"`
	Calcs []string `json:"calcs"`
}

// modules returns the playground modules of a page whose live widgets draw
// calculators calcs, adding each to the site at its first use: the module
// of the first set of widget.Sets that holds them all, else (a page that
// mixes the articles' experiments, the playground) one module per set, each
// for the calculators whose first set it is, in the order of the page.
// Each module stays an article's: no page loads a module of every
// calculator, which would be larger than the budget of issue 16 (1,050 KB
// gzip). nil without widgets or without modules (static pages); an error
// when a calculator has no set or its module was not given.
func (b *builder) modules(calcs []string) ([]pageModule, error) {
	if len(calcs) == 0 || len(b.cfg.Wasm) == 0 || b.cfg.WasmExec == nil {
		return nil, nil
	}
	var uniq []string
	for _, c := range calcs {
		if !slices.Contains(uniq, c) {
			uniq = append(uniq, c)
		}
	}
	if s := widget.For(uniq); s != nil {
		href, err := b.moduleHref(s, uniq)
		if err != nil {
			return nil, err
		}
		return []pageModule{{Name: s.Name(), Wasm: href, Calcs: uniq}}, nil
	}
	var mods []pageModule
	for _, c := range uniq {
		s := widget.For([]string{c})
		if s == nil {
			return nil, fmt.Errorf("no calculator set of site/widget holds %s", c)
		}
		i := slices.IndexFunc(mods, func(m pageModule) bool { return m.Name == s.Name() })
		if i < 0 {
			href, err := b.moduleHref(s, uniq)
			if err != nil {
				return nil, err
			}
			mods = append(mods, pageModule{Name: s.Name(), Wasm: href})
			i = len(mods) - 1
		}
		mods[i].Calcs = append(mods[i].Calcs, c)
	}
	return mods, nil
}

// moduleHref returns the href of set s's module, adding it to the site at
// its first use; calcs, the page's, are for the error when the build was
// not given that module.
func (b *builder) moduleHref(s *widget.Set, calcs []string) (string, error) {
	data, given := b.cfg.Wasm[s.Name()]
	if !given {
		return "", fmt.Errorf("the widgets (%s) need the playground module %s (wasm/playground/%s), which the build was not given: run ./build.sh", strings.Join(calcs, ", "), s.Name(), s.Name())
	}
	name := "playground-" + s.Name() + ".wasm"
	if href, ok := b.asset[name]; ok {
		return href, nil
	}
	hashed := "assets/" + HashedName(name, data)
	b.files[hashed] = data
	b.asset[name] = b.base.href(hashed)
	return b.asset[name], nil
}

// converter returns the Markdown converter of one language: widgets and
// citations rendered by site/widget in that language.
func (b *builder) converter(lang string) *markdown.Converter {
	loc := b.locales[lang]
	set := widget.All()
	var encoded sync.Map // *markdown.Widget → widget.Encoded: encode a result once, cite it many times
	return markdown.New(markdown.Options{
		Registry: b.cfg.Registry,
		Include:  b.cfg.Repo,
		Title:    func(name string) string { return loc.TOr("widget."+name+".title", "") },
		RunArgs:  func(w *markdown.Widget) calc.Args { return widget.RunArgs(w.Calc, w.Args, w.Views) },
		Widget: func(w *markdown.Widget) (string, error) {
			return widget.Render(widget.Spec{Calc: w.Calc, ID: w.ID, Values: w.Params, Views: w.Views, Embed: b.embedURL(lang, w.Calc.Name), Title: w.Title, Args: w.Args, Result: w.Result, Compare: w.Compare, FieldsLater: true}, loc)
		},
		Cite: func(w *markdown.Widget, field, format string) (string, any, error) {
			res, key := w.Result, any(w)
			if f, ok := strings.CutPrefix(field, widget.CompareCite); ok { // {=ID.compare.FIELD}
				v, err := w.Variant()
				if err != nil {
					return "", nil, err
				}
				res, key, field = v, variantKey{w}, f
			}
			d, ok := encoded.Load(key)
			if !ok {
				dd, err := set.Encode(res)
				if err != nil {
					return "", nil, err
				}
				d, _ = encoded.LoadOrStore(key, dd)
			}
			text, value, err := set.Cite(w.Calc, d, field, format, loc)
			if err != nil {
				return "", nil, err
			}
			return text, json.RawMessage(value), nil
		},
	})
}

// variantKey keys the encoded result of a widget's comparison.
type variantKey struct{ w *markdown.Widget }

// siteData is what every template sees as .Site.
type siteData struct {
	Name  string
	CSP   string
	asset map[string]string
}

// Asset returns the hashed href of an asset ("" when absent).
func (s siteData) Asset(name string) string { return s.asset[name] }

type link struct {
	Lang, Href, Name string
	Current          bool
}

type langEntry struct {
	Lang, Href, Name, Tagline, NotFound, NotFoundText string
}

type listEntry struct {
	Href, Title, Description string
	Order                    int
	Slug                     string
}

// pageView is the data of one rendered page.
type pageView struct {
	Site        siteData
	Lang, Theme string
	// the language's way of writing numbers, for the page's scripts
	// (<html data-decimal data-group data-group-min>: player.js
	// numberFormat); "" on a page of all languages
	Decimal, Group      string
	GroupMin            int
	Title, OGTitle      string
	Description         string
	Canonical, XDefault string
	OGURL               string // the canonical URL when absolute (Open Graph needs one)
	Alternates          []link
	Switch              []link
	OGType, OGLocale    string
	OGAlternateLocales  []string
	NoIndex             bool
	Home                string
	Data                template.JS
	PreloadWasm         bool   // app.js is loaded async with the module's address on its tag
	Wasm                string // href of the page's playground module (the first of several)
	SeveralModules      bool   // the page loads one module per article (page data "modules")
	HasWidgets          bool
	Page                *markdown.Page
	Body                template.HTML
	Date                string
	Pages               []listEntry
	Langs               []langEntry
	Feeds               []feedLink // the Atom feeds the head links (feed.go)
	OGImage, OGImageAlt string     // the link preview (previews.go); "" for none
	Search              *searchBox // the search form (search.go); nil on pages of every language
	loc                 locale.Locale
	all                 []locale.Locale // pages of every language: the root, 404
}

// T returns a string of the page's language; on a page of every language,
// the string of each language, joined by " · ".
func (p pageView) T(key string) string {
	if len(p.all) == 0 {
		return p.loc.T(key)
	}
	parts := make([]string, len(p.all))
	for i, l := range p.all {
		parts[i] = l.T(key)
	}
	return strings.Join(parts, " · ")
}

// pagePath returns the path of a page (slug "" is the language index).
func pagePath(lang, slug string) string {
	if slug == "" {
		return lang + "/"
	}
	return lang + "/" + slug + "/"
}

// pageData is the JSON the loader and the playground read from
// <script type="application/json" id="retrylab-data"> (wasm/playground/DOM.md).
type pageData struct {
	Lang     string `json:"lang"`
	Base     string `json:"base"`
	API      string `json:"api"`
	Wasm     string `json:"wasm,omitempty"` // the first of Modules
	WasmExec string `json:"wasm_exec,omitempty"`
	// Modules lists the playground modules of a page that loads more than
	// one (the playground: one per article), with the calculators each
	// draws; the loader runs them one after the other (site/assets/app.js).
	Modules []pageModule  `json:"modules,omitempty"`
	Worker  string        `json:"worker,omitempty"`
	Locale  locale.Locale `json:"locale"`
	Widgets []widgetData  `json:"widgets"`
}

type widgetData struct {
	ID       string `json:"id"`
	Calc     string `json:"calc"`
	Defaults string `json:"defaults"`
	Views    string `json:"views,omitempty"`
}

func (b *builder) render() error {
	siteName := b.locales[b.langs[0]].T("site.name")
	site := siteData{Name: siteName, CSP: CSP, asset: b.asset}
	// Pages and language indexes.
	for _, lang := range b.langs {
		loc := b.locales[lang]
		var list []listEntry
		for slug, p := range b.pages[lang] {
			if slug == "" {
				continue
			}
			list = append(list, listEntry{Href: b.base.href(pagePath(lang, slug)), Title: p.Meta.Title, Description: p.Meta.Description, Order: p.Meta.Order, Slug: slug})
		}
		sort.Slice(list, func(i, j int) bool {
			if list[i].Order != list[j].Order {
				return list[i].Order < list[j].Order
			}
			return list[i].Slug < list[j].Slug
		})
		for _, slug := range sortedKeys(b.pages[lang]) {
			p := b.pages[lang][slug]
			v := b.view(site, lang, slug, loc)
			v.Page = p
			v.Body = template.HTML(searchWeights(slug, string(p.HTML)))
			v.Search = &searchBox{Script: b.base.href("pagefind/pagefind.js"), Base: b.base.path, Action: b.base.href(pagePath(lang, "")), Ranking: searchRanking()}
			v.Description = p.Meta.Description
			v.Date = formatDate(p.Meta.Date, loc)
			name := "page"
			if slug == "" {
				name = "index"
				v.Title = p.Meta.Title + " · " + siteName
				v.OGType = "website"
				v.Pages = list
			} else {
				v.Title = p.Meta.Title + " · " + siteName
				v.OGType = "article"
			}
			v.OGTitle = p.Meta.Title
			if b.cfg.Previews {
				v.OGImage, v.OGImageAlt = b.base.abs(previewFile(lang, slug)), p.Meta.Title
				b.cards = append(b.cards, ogImage{file: previewFile(lang, slug), lang: lang,
					card: preview.Card{Site: siteName, Title: p.Meta.Title, Subtitle: p.Meta.Description, SVG: pageChart(p, lang, b)}})
			}
			data := pageData{Lang: lang, Base: b.base.path, API: b.base.href("api/v1/"), WasmExec: b.asset["wasm_exec.js"],
				Worker: b.asset["playground-worker.js"], Widgets: []widgetData{}}
			var calcs, live []string
			for _, w := range p.Widgets {
				calcs = append(calcs, w.Calc.Name)
			}
			data.Locale = b.pageLocale(loc, calcs)
			for _, w := range p.Widgets {
				if w.Kind != "widget" {
					continue
				}
				v.HasWidgets = true
				live = append(live, w.Calc.Name)
				data.Widgets = append(data.Widgets, widgetData{ID: w.ID, Calc: w.Calc.Name, Defaults: query.Encode(w.Args.Query()), Views: strings.Join(w.Views, ",")})
			}
			mods, err := b.modules(live)
			if err != nil {
				file := slug
				if file == "" {
					file = "index"
				}
				return fmt.Errorf("build: %s/%s/%s.md: %v", b.cfg.ContentDir, lang, file, err)
			}
			if len(mods) > 0 {
				data.Wasm, v.Wasm = mods[0].Wasm, mods[0].Wasm
			}
			if len(mods) > 1 {
				data.Modules, v.SeveralModules = mods, true
			}
			js, err := json.Marshal(data)
			if err != nil {
				return err
			}
			v.Data = template.JS(js)
			v.PreloadWasm = v.HasWidgets && data.Wasm != ""
			if err := b.exec(name, pagePath(lang, slug)+"index.html", v); err != nil {
				return err
			}
		}
	}
	// The root page: the languages.
	root := b.view(site, "", "", locale.Locale{})
	root.Lang = "mul"
	root.Title = siteName
	root.OGTitle = siteName
	root.OGType = "website"
	root.Canonical = b.base.abs("")
	root.Description = strings.Join(b.each(func(l locale.Locale) string { return l.T("site.tagline") }), " · ")
	root.Switch = nil
	root.Home = b.base.href("")
	root.Langs = b.langEntries()
	if err := b.exec("root", "index.html", root); err != nil {
		return err
	}
	// 404: every language, no index.
	nf := b.view(site, "", "", locale.Locale{})
	nf.Lang = "mul"
	nf.Title = strings.Join(b.each(func(l locale.Locale) string { return l.T("site.not_found") }), " · ")
	nf.OGTitle, nf.OGType, nf.NoIndex = nf.Title, "website", true
	nf.Description = nf.Title
	nf.Canonical, nf.XDefault, nf.Alternates, nf.Switch = "", "", nil, nil
	nf.Home = b.base.href("")
	nf.Langs = b.langEntries()
	if err := b.exec("404", "404.html", nf); err != nil {
		return err
	}
	for _, lang := range b.langs {
		f, err := b.feed(lang)
		if err != nil {
			return err
		}
		b.files[feedPath(lang)] = f
	}
	b.files["sitemap.xml"] = b.sitemap()
	robots := "User-agent: *\nAllow: /\n"
	if b.base.origin != "" {
		robots += "Sitemap: " + b.base.abs("sitemap.xml") + "\n"
	}
	b.files["robots.txt"] = []byte(robots)
	if err := b.embeds(); err != nil { // embed pages, charts, exercises (embed.go)
		return err
	}
	return b.drawPreviews(b.cards)
}

// pageLocale is what the playground needs of a language's strings on a
// page with widgets of calcs: the generic widget, error and site strings,
// and the param., field., view., widget. and detail. strings of those
// calculators only (all of them would add some 20 kB to every page).
func (b *builder) pageLocale(loc locale.Locale, calcs []string) locale.Locale {
	sub := loc.Subset("param.", "err.", "detail.", "widget.", "view.", "field.", "site.")
	onPage := map[string]bool{}
	for _, c := range calcs {
		onPage[c] = true
	}
	out := locale.Locale{Lang: sub.Lang, Strings: map[string]string{}}
	for k, v := range sub.Strings {
		parts := strings.SplitN(k, ".", 3)
		if len(parts) == 3 && parts[0] != "err" && parts[0] != "site" {
			if _, isCalc := b.cfg.Registry.Lookup(parts[1]); isCalc && !onPage[parts[1]] {
				continue
			}
		}
		out.Strings[k] = v
	}
	return out
}

func (b *builder) each(f func(locale.Locale) string) []string {
	out := make([]string, len(b.langs))
	for i, lang := range b.langs {
		out[i] = f(b.locales[lang])
	}
	return out
}

func (b *builder) langEntries() []langEntry {
	var out []langEntry
	for _, lang := range b.langs {
		l := b.locales[lang]
		out = append(out, langEntry{Lang: lang, Href: b.base.href(pagePath(lang, "")), Name: l.T("site.lang_name"),
			Tagline: l.T("site.tagline"), NotFound: l.T("site.not_found"), NotFoundText: l.T("site.not_found_text")})
	}
	return out
}

// view fills the parts every page shares: alternates, switcher, Open Graph
// locales. lang "" is a page of all languages.
func (b *builder) view(site siteData, lang, slug string, loc locale.Locale) pageView {
	v := pageView{Site: site, Lang: lang, loc: loc, Home: b.base.href(pagePath(lang, ""))}
	if lang != "" {
		v.Decimal, v.Group, v.GroupMin = loc.DecimalMark(), loc.GroupMark(), loc.GroupMin()
		v.Canonical = b.base.abs(pagePath(lang, slug))
		v.OGLocale = loc.T("site.og_locale")
	}
	v.XDefault = b.base.abs("")
	for _, l := range b.langs {
		ll := b.locales[l]
		v.Alternates = append(v.Alternates, link{Lang: l, Href: b.base.abs(pagePath(l, slug))})
		v.Switch = append(v.Switch, link{Lang: l, Href: b.base.href(pagePath(l, slug)), Name: ll.T("site.lang_name"), Current: l == lang})
		if l != lang && lang != "" {
			v.OGAlternateLocales = append(v.OGAlternateLocales, ll.T("site.og_locale"))
		}
	}
	if lang == "" {
		for _, l := range b.langs {
			v.all = append(v.all, b.locales[l])
		}
	}
	v.Feeds = b.feedLinks(lang)
	return v
}

func (b *builder) exec(name, file string, v pageView) error {
	if b.base.origin != "" {
		v.OGURL = v.Canonical
	}
	var buf bytes.Buffer
	if err := tmpl().ExecuteTemplate(&buf, name, v); err != nil {
		return fmt.Errorf("build: %s: %v", file, err)
	}
	b.files[file] = buf.Bytes()
	return nil
}

// formatDate writes an ISO date with the language's site.date pattern
// ("{d} {month} {y}").
func formatDate(iso string, loc locale.Locale) string {
	t, err := time.Parse("2006-01-02", iso)
	if err != nil {
		return iso
	}
	return locale.Expand(loc.T("site.date"), "d", fmt.Sprint(t.Day()), "m", fmt.Sprint(int(t.Month())),
		"month", loc.T(fmt.Sprintf("site.month.%d", int(t.Month()))), "y", fmt.Sprint(t.Year()))
}

// sitemap lists every page with its translations.
func (b *builder) sitemap() []byte {
	var s strings.Builder
	s.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	s.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
	esc := func(u string) string { return template.HTMLEscapeString(u) }
	for _, lang := range b.langs {
		for _, slug := range sortedKeys(b.pages[lang]) {
			s.WriteString("<url><loc>" + esc(b.base.abs(pagePath(lang, slug))) + "</loc>")
			if d := b.pages[lang][slug].Meta.Date; d != "" {
				s.WriteString("<lastmod>" + esc(d) + "</lastmod>")
			}
			for _, l := range b.langs {
				s.WriteString(`<xhtml:link rel="alternate" hreflang="` + l + `" href="` + esc(b.base.abs(pagePath(l, slug))) + `"/>`)
			}
			s.WriteString(`<xhtml:link rel="alternate" hreflang="x-default" href="` + esc(b.base.abs("")) + `"/>`)
			s.WriteString("</url>\n")
		}
	}
	s.WriteString("</urlset>\n")
	return []byte(s.String())
}
