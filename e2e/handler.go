package e2e

import (
	"mime"
	"net/http"
)

// handler is the site's HTTP handler over dist.
func handler(dist string) (http.Handler, error) {
	mime.AddExtensionType(".wasm", "application/wasm")
	return http.FileServer(http.Dir(dist)), nil
}
