// Package embed makes what other people's pages take from retrylab: the
// embed pages (/LANG/embed/NAME/, one widget in a minimal page that any
// site may frame), and the widget's chart as a standalone SVG image
// (/api/v1/NAME.svg and the build's LANG/charts/NAME.svg) for places that
// allow no iframe and no script.
//
// The embed page is a contract for hosts (README: "Embeds and the
// classroom"): its query holds the calculator's parameters as plain keys
// (?q=0.9&n=5) and an optional id; it posts
// {type: "retrylab:height", id, height} to its parent whenever its height
// changes; site/assets/embed.js, included by the host, applies it.
package embed

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"net/url"
	"strings"
	"sync"

	"retrylab/core/calc"
	"retrylab/core/meter"
	"retrylab/site/locale"
	"retrylab/site/widget"
)

// ChartView returns the view an SVG of c draws: its first own chart, or
// "bars" (the chart of its numeric lists); "" when c draws no chart.
func ChartView(c *calc.Calculator) string {
	for _, v := range widget.All().DefaultViews(c) {
		if !widget.TableView(v) {
			return v
		}
	}
	return ""
}

// Error is a request the SVG endpoint refuses: Msg is for the reader, in
// the requested language when the calculator refused a parameter.
type Error struct {
	Param string
	Msg   string
}

func (e *Error) Error() string { return e.Msg }

//go:generate go run ./internal/svgstylegen -o svgstyle_gen.go

// SVG computes calculator name with values and returns its chart as a
// standalone SVG document (xmlns, a style element with the colours, the
// localized title and desc) in loc's language. An unknown calculator, a
// calculator without a chart, or a parameter the calculator refuses is an
// *Error with a message in loc's language where the strings have one.
func SVG(reg *calc.Registry, loc locale.Locale, name string, values url.Values) ([]byte, error) {
	return SVGPoll(reg, loc, name, values, nil)
}

// SVGPoll is SVG with the Poll the computation calls (calc.Args.WithPoll):
// when it stops the computation, SVGPoll returns meter.ErrStopped.
func SVGPoll(reg *calc.Registry, loc locale.Locale, name string, values url.Values, poll meter.Poll) ([]byte, error) {
	c, ok := reg.Lookup(name)
	if !ok {
		return nil, &Error{Msg: reg.UnknownError(name).Message}
	}
	view := ChartView(c)
	if view == "" {
		return nil, &Error{Msg: fmt.Sprintf("%s draws no chart; its result is at /api/v1/%s", name, name)}
	}
	a, err := c.Parse(values)
	if err != nil {
		return nil, refusal(loc, c, err)
	}
	res, err := c.Run(widget.RunArgs(c, a, []string{view}).WithPoll(poll))
	if errors.Is(err, meter.ErrStopped) {
		return nil, err
	}
	if err != nil {
		return nil, refusal(loc, c, err)
	}
	out, err := widget.All().RenderOutput(c, a, res, []string{view}, loc)
	if err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	svg, err := Standalone(out)
	if err != nil && view == "bars" {
		// The generic view draws the result's numeric lists; it has none.
		return nil, &Error{Msg: fmt.Sprintf("%s draws no chart; its result is at /api/v1/%s", name, name)}
	}
	return svg, err
}

func refusal(loc locale.Locale, c *calc.Calculator, err error) error {
	if ce, ok := err.(*calc.Error); ok {
		return &Error{Param: ce.Param, Msg: loc.Error(ce, c)}
	}
	return &Error{Msg: err.Error()}
}

// Standalone extracts the first <svg> of a widget's output HTML and makes
// it a document of its own: the XML declaration, the SVG namespace, an
// explicit size, and the style element. The widget's markup is already
// well-formed XML (self-closed elements, only &amp; &lt; &gt; &#34; &#39;
// as references).
func Standalone(html string) ([]byte, error) {
	i := strings.Index(html, "<svg ")
	j := strings.Index(html, "</svg>")
	if i < 0 || j < i {
		msg := "the chart cannot be drawn for these values"
		if k := strings.Index(html, `<p class="widget-note">`); k >= 0 {
			if e := strings.Index(html[k:], "</p>"); e > 0 {
				msg = unescape(html[k+len(`<p class="widget-note">`) : k+e])
			}
		}
		return nil, &Error{Msg: msg}
	}
	svg := html[i : j+len("</svg>")]
	head := svg[:strings.IndexByte(svg, '>')]
	w, h := "640", "300"
	if k := strings.Index(head, `viewBox="0 0 `); k >= 0 {
		dims := strings.Fields(strings.SplitN(head[k+len(`viewBox="0 0 `):], `"`, 2)[0])
		if len(dims) == 2 {
			w, h = dims[0], dims[1]
		}
	}
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="` + w + `" height="` + h + `"` + head[len("<svg"):] + ">")
	body := svg[len(head)+1:]
	// The title and desc come first (wasm/playground/DOM.md); the style follows them.
	if k := strings.Index(body, "</desc>"); k >= 0 {
		b.WriteString(body[:k+len("</desc>")])
		body = body[k+len("</desc>"):]
	}
	b.WriteString("<style>" + svgStyle + "</style>")
	b.WriteString(body)
	b.WriteString("\n")
	return b.Bytes(), nil
}

func unescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&amp;", "&").Replace(s)
}

// Page is what an embed page shows.
type Page struct {
	Lang        string
	Title       string // the widget's localized title
	CSP         string
	Widget      template.HTML // widget.Render of the calculator at its defaults, id = the calculator's name
	Data        template.JS   // the page data of wasm/playground/DOM.md (retrylab-data)
	Asset       map[string]string
	Wasm        string // href of the playground module that holds the calculator ("": static)
	Article     string // href of the article that holds the widget ("" when none)
	ArticleName string
	Chart       string // href of the static chart ("" when none)
	Strings     locale.Locale
	// Langs are the embed's translations (the current one included),
	// linked from the head (hreflang) and from a small switcher.
	Langs    []Alt
	XDefault string
	// OEmbed is the href of the embed's oEmbed answer (OEmbedFile), which
	// the head advertises; "" for none.
	OEmbed string
	// OGImage is the address of the embed's link preview (a PNG of its
	// chart, site/preview), SiteName the site's; "" for none.
	OGImage, SiteName string
}

// Alt is one translation of an embed page.
type Alt struct {
	Lang, Href, Abs, Name string
	Current               bool
}

// T returns a string of the page's language.
func (p Page) T(key string) string { return p.Strings.T(key) }

// pageTmpl returns the embed page's template, parsed on first use (not when
// the program starts: the API and the Worker never render a page).
func pageTmpl() *template.Template {
	pageOnce.Do(func() { pageTemplate = template.Must(template.New("embed").Parse(pageText)) })
	return pageTemplate
}

var (
	pageOnce     sync.Once
	pageTemplate *template.Template
)

const pageText = `<!DOCTYPE html>
<html lang="{{.Lang}}" dir="ltr" class="embed" data-decimal="{{.Strings.DecimalMark}}" data-group="{{.Strings.GroupMark}}" data-group-min="{{.Strings.GroupMin}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="referrer" content="strict-origin-when-cross-origin">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>{{.Title}}</title>
{{- if .Article}}
<link rel="canonical" href="{{.Article}}">
{{- end}}
{{- range .Langs}}
<link rel="alternate" hreflang="{{.Lang}}" href="{{.Abs}}">
{{- end}}
{{- if .XDefault}}
<link rel="alternate" hreflang="x-default" href="{{.XDefault}}">
{{- end}}
{{- if .OEmbed}}
<link rel="alternate" type="application/json+oembed" href="{{.OEmbed}}" title="{{.Title}}">
{{- end}}
{{- if .OGImage}}
<meta property="og:type" content="website">
<meta property="og:site_name" content="{{.SiteName}}">
<meta property="og:title" content="{{.Title}}">
<meta property="og:image" content="{{.OGImage}}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta property="og:image:alt" content="{{.Title}}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:image" content="{{.OGImage}}">
{{- end}}
<link rel="icon" href="{{index .Asset "favicon.svg"}}" type="image/svg+xml">
<link rel="stylesheet" href="{{index .Asset "style.css"}}">
<link rel="stylesheet" href="{{index .Asset "embed.css"}}">
<script src="{{index .Asset "embed-frame.js"}}" defer></script>
{{- if .Wasm}}
<script src="{{index .Asset "app.js"}}" async data-wasm="{{.Wasm}}" data-wasm-exec="{{index .Asset "wasm_exec.js"}}" data-worker="{{index .Asset "playground-worker.js"}}"></script>
{{- else}}
<script src="{{index .Asset "app.js"}}" defer></script>
{{- end}}
{{- with index .Asset "player.js"}}
<script src="{{.}}" defer></script>
{{- end}}
<script type="application/json" id="retrylab-data">{{.Data}}</script>
</head>
<body class="embed-body">
<main id="main">
<h1 class="visually-hidden">{{.Title}}</h1>
<p class="notice embed-error" data-embed-error role="alert" hidden data-msg-param="{{.T "embed.bad_param"}}" data-msg-value="{{.T "embed.bad_value"}}"></p>
{{.Widget}}
<p class="embed-from">
{{- if .Article}}<a href="{{.Article}}" target="_blank" rel="noopener">{{.ArticleName}}</a>{{end}}
{{- if .Chart}} · <a href="{{.Chart}}" target="_blank" rel="noopener">{{.T "embed.svg"}}</a>{{end}}
{{- range .Langs}} · <a href="{{.Href}}" hreflang="{{.Lang}}" lang="{{.Lang}}"{{if .Current}} aria-current="page"{{end}}>{{.Name}}</a>{{end}}</p>
</main>
</body>
</html>
`

// Render writes the embed page.
func (p Page) Render() ([]byte, error) {
	var b bytes.Buffer
	if err := pageTmpl().Execute(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Snippet is the code a host pastes: src is the embed page's absolute URL
// with its query, height the frame's first height (widget.EmbedHeight of
// the embed page); the frame and the resize script (widget.EmbedSnippet,
// which the widgets' "embed" control writes too).
func Snippet(src, title string, height int) string {
	return widget.EmbedSnippet(src, title, widget.EmbedScript(src), height)
}
