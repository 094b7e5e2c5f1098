// Package deploy checks the Cloudflare deployment without the network:
// its test runs the pinned wrangler (package.json, `npm ci
// --ignore-scripts`) as `wrangler deploy --dry-run` on the bundle that
// `make worker` builds, so that a configuration or bundling error of
// worker/wrangler.toml is caught by `make test`, before anyone deploys.
package deploy

import "strings"

// DryRunConfig returns the text of wrangler.toml without its [build]
// table (and [build.*] subtables): the dry run bundles what `make worker`
// already built instead of building it again. The rest is kept as
// written, so the copy must sit one folder below the repository root, as
// worker/wrangler.toml does, for its relative paths to name the same
// files.
func DryRunConfig(wrangler string) string {
	var out []string
	skip := false
	for _, line := range strings.Split(wrangler, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "[") {
			name := strings.TrimSpace(strings.Trim(strings.SplitN(t, "]", 2)[0], "[ "))
			skip = name == "build" || strings.HasPrefix(name, "build.")
		}
		if !skip {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
