package server

// The API's routes below the site's base, declared once: GET
// Base+APIPath+NAME answers with JSON, Base+APIPath+NAME+ChartSuffix with
// the chart as an image. wasm/worker/edge writes both into the Worker's
// edge-data.mjs, so edge.mjs does not retype them. Every path under
// Base+APIRoot is the API's (its version, /api/stats): computed, limited,
// never a file; the Worker's entry.mjs reads it from edge-rules.mjs.
const (
	APIRoot     = "api/"
	APIPath     = APIRoot + "v1/"
	ChartSuffix = ".svg"
)
