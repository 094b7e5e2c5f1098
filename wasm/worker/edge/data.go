// Package edge writes the Worker's edge layer into the bundle (`make
// worker`, wasm/worker/cmd/workerassets): edge.mjs, the JavaScript in
// front of syumai/workers' shim that answers repeated API and chart
// requests from its caches without running Go, and edge-data.mjs, the
// bundle's version and the table of the calculators' parameters from
// which edge.mjs computes the same canonical request as site/server's
// APIKey. The Worker's main module, entry.mjs (written by workerassets),
// sends the API and the charts through it.
package edge

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

	"retrylab/core/calc"
	"retrylab/site/server"
)

//go:embed edge.mjs
var modules embed.FS

// Main is the name of the Worker's main module in the bundle (written by
// wasm/worker/cmd/workerassets, not by Write).
const Main = "entry.mjs"

// Modules are the names of the modules Write writes.
var Modules = []string{"edge.mjs", "edge-data.mjs"}

// param is one parameter as edge.mjs reads it.
type param struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Def     *string  `json:"def"`               // canonical text of the default; null: none
	Choices []string `json:"choices,omitempty"` // of a choice
}

// data is edge-data.mjs's default export.
type data struct {
	Version     string             `json:"version"`
	API         string             `json:"api"`   // the API's path, "/" + server.APIPath
	Chart       string             `json:"chart"` // server.ChartSuffix
	Langs       []string           `json:"langs"`
	Calculators map[string][]param `json:"calculators"`
}

// kind names calc's kinds for edge.mjs; the kinds it does not
// canonicalize are "other" (Go decides).
func kind(k calc.Kind) string {
	switch k {
	case calc.Int:
		return "int"
	case calc.Float:
		return "float"
	case calc.IntList:
		return "int list"
	case calc.FloatList:
		return "float list"
	case calc.Bool:
		return "bool"
	case calc.Choice:
		return "choice"
	}
	return "other"
}

// Data returns the text of edge-data.mjs for reg and version.
func Data(reg *calc.Registry, version string) ([]byte, error) {
	d := data{Version: version, API: "/" + server.APIPath, Chart: server.ChartSuffix, Langs: server.ChartLangs(), Calculators: map[string][]param{}}
	for _, c := range reg.List() {
		ps := []param{}
		for _, p := range c.Params {
			ep := param{Name: p.Name, Kind: kind(p.Kind)}
			if p.Kind == calc.Choice {
				ep.Choices = p.Choices
			}
			if p.Default != "" {
				// The canonical text of the default: Parse with it given.
				if a, err := c.Parse(url.Values{p.Name: {p.Default}}); err == nil {
					if q := a.Query()[p.Name]; len(q) == 1 {
						ep.Def = &q[0]
					}
				}
			}
			ps = append(ps, ep)
		}
		d.Calculators[c.Name] = ps
	}
	b, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		return nil, err
	}
	return append(append([]byte("// Written by `make worker` (worker/edge/data.go): do not edit.\nexport default "), b...), ";\n"...), nil
}

// Version returns the version of a Worker bundle: the first 12 hexadecimal
// digits of the SHA-256 of its app.wasm and of the other files its answers
// depend on (the charts' strings), each preceded by its length, so that
// any change of the code or of those words changes the ETags and the
// edge's cache keys.
func Version(wasm []byte, more ...[]byte) string {
	h := sha256.New()
	for _, b := range append([][]byte{wasm}, more...) {
		h.Write([]byte(strconv.Itoa(len(b)) + ":"))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// Write writes the edge layer's modules into dir, the bundle folder that
// holds app.wasm; dist is the built site, whose LANG/embed/strings.json
// (the charts' words) enter the version with app.wasm.
func Write(dir, dist string, reg *calc.Registry) error {
	wasm, err := os.ReadFile(filepath.Join(dir, "app.wasm"))
	if err != nil {
		return err
	}
	var more [][]byte
	for _, lang := range server.ChartLangs() {
		b, err := os.ReadFile(filepath.Join(dist, lang, "embed", "strings.json"))
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		more = append(more, b)
	}
	d, err := Data(reg, Version(wasm, more...))
	if err != nil {
		return err
	}
	for _, name := range []string{"edge.mjs"} {
		b, err := modules.ReadFile(name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "edge-data.mjs"), d, 0o644)
}
