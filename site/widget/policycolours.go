//go:build !(js && wasm)

package widget

import (
	"strings"

	"retrylab/core/policies"
)

// policyColours gives each retry policy (core/policies' presets, by their
// stable id) one colour, the same in every view and language: the bars
// of the summary, the swatch of the results table, the marker of each
// play strip, all of class chart-policy-ID. Hues after Okabe–Ito and
// Paul Tol's colour-blind-safe sets: one family per project (gRPC
// bluish green, Envoy reddish purple, Finagle orange, the AWS SDKs blue
// to violet, the SRE book olive), the presets of a project told apart by
// lightness, and the default selection's nine on the most distinct hues.
// Light for the light theme, Dark for the dark one; each keeps 3:1
// against its page's background (TestPolicyColours). It is data of the
// style sheet only (css.go): the browser's module draws the class, never
// the colour, so this table is left out of the wasm build.
var policyColours = []struct {
	Policy      policies.Policy
	Light, Dark string // #rrggbb
}{
	{policies.None, "#666666", "#a0a0a0"},
	{policies.Naive, "#d55e00", "#ff8c42"},
	{policies.Backoff, "#0072b2", "#56b4e9"},
	{policies.GRPC, "#00876c", "#2bc79a"},
	{policies.GRPCDeadline, "#005c4a", "#8fe3c8"},
	{policies.GRPCHedge, "#4d9a3a", "#a6d96a"},
	{policies.EnvoyRoute, "#7a2a5e", "#f0a8d0"},
	{policies.EnvoyRetry, "#c04f8f", "#e58fc0"},
	{policies.Envoy, "#aa3377", "#cc79a7"},
	{policies.FinagleDefault, "#8a5a00", "#ffd166"},
	{policies.Finagle, "#b07800", "#e6a700"},
	{policies.AWS2025, "#1f3f99", "#a5b8ff"},
	{policies.AWS, "#3d5fd6", "#7d96ff"},
	{policies.AWSAdaptive, "#5b2ea6", "#b99cf0"},
	{policies.SREBudget, "#6d6d1f", "#cfcf6a"},
	{policies.SREThrottle, "#7f7f00", "#b5b53a"},
	{policies.Resilience4j, "#a8323e", "#ff7f8a"},
	{policies.Polly, "#0f7d99", "#5fd3f0"},
	{policies.Tower, "#7a4b2a", "#d9a37a"},
}

// policyDecls declares the policies' colours as custom properties
// (--policy-ID), for the light or the dark theme.
func policyDecls(dark bool) string {
	return colourDecls("policy", len(policyColours), func(i int) (string, string, string) {
		return string(policyColours[i].Policy), policyColours[i].Light, policyColours[i].Dark
	}, dark)
}

// policyCSS writes the policies' custom properties (--policy-ID, light
// and dark as the roles' are) and the classes that bind them: a mark or
// swatch of class chart-policy-ID takes the policy's colour as its ink.
func policyCSS() string {
	var b strings.Builder
	b.WriteString("/* the policies' colours (policycolours.go) */\n")
	b.WriteString(themedVars(policyDecls))
	b.WriteString(policyClassCSS())
	// the policy chips (the set control of the policies parameter) carry
	// their policy's colour too, as a swatch before the name: the reader
	// who ticks one knows its colour in the figures before looking
	for _, p := range policyColours {
		b.WriteString(`.widget-chip > input[data-chip-for="policies"][value="` + string(p.Policy) + `"] + span { --ink: var(--policy-` + string(p.Policy) + "); }\n")
	}
	// and so do the lanes of the request-flow view (flow.go: data-lane is
	// the policy's id), a swatch before the lane's name
	for _, p := range policyColours {
		b.WriteString(`[data-widget="policies"] .widget-flow-lane[data-lane="` + string(p.Policy) + `"] > .widget-flow-name::before { content: ""; display: inline-block; width: 0.8em; height: 0.8em; margin-inline-end: 0.4em; border-radius: 2px; vertical-align: -0.05em; background: var(--policy-` + string(p.Policy) + "); }\n")
	}
	b.WriteString(`.widget-chip > input[data-chip-for="policies"] + span::after { content: ""; display: inline-block; width: 0.7em; height: 0.7em; margin-inline-start: 0.45em; border-radius: 50%; background: var(--ink); box-shadow: 0 0 0 1.5px var(--bg, Canvas); vertical-align: -0.05em; }` + "\n")
	b.WriteString(".widget-swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-inline-end: 0.4em; border-radius: 2px; background: var(--ink); vertical-align: -0.05em; }\n")
	return b.String()
}

// SVGCSS is the style sheet of a standalone chart (site/embed's .svg
// answers and files, which carry it in a <style> element): the page's
// text colour, background and fonts, the roles' and the policies'
// colours in the light and the dark scheme, and the marks' rules, from
// the same tables as the page's style sheet (CSS). In such a document
// the <svg class="chart"> is the root, so the dark colours hang on it
// under prefers-color-scheme rather than on a page's :root.
// site/embed keeps it as generated text (svgstyle_gen.go, go generate
// ./site/embed), since the Worker's module builds site/embed without
// these tables.
func SVGCSS() string {
	var b strings.Builder
	b.WriteString(`svg { color: #1b1f24; background: #fff; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif; ` + roleDecls(false) + policyDecls(false) + "}\n")
	b.WriteString("@media (prefers-color-scheme: dark) { svg { color: #e6e8eb; background: #16181c; " + roleDecls(true) + policyDecls(true) + "} }\n")
	b.WriteString(roleClassCSS())
	b.WriteString(markCSS)
	b.WriteString(policyClassCSS())
	return b.String()
}

// policyClassCSS binds each class chart-policy-ID to its policy's colour
// (--ink), and outlines with a dashed line of the text's colour the bar of
// a policy that never recovers, which keeps its policy's colour (a
// failure-coloured outline did not show on a phone's 7 px bar beside the
// reds and oranges of the palette: reader review); the key's swatch is
// the outline alone.
func policyClassCSS() string {
	var b strings.Builder
	for _, p := range policyColours {
		b.WriteString(".chart-policy-" + string(p.Policy) + " { --ink: var(--policy-" + string(p.Policy) + "); }\n")
	}
	b.WriteString(".chart .chart-policy.chart-bar-mark { fill: var(--ink); stroke: currentColor; stroke-width: 3; stroke-dasharray: 4 3; }\n")
	b.WriteString(".chart .chart-legend .chart-policy.chart-bar-mark { fill: none; }\n")
	return b.String()
}
