package e2e

import (
	"net/http"
	"os"

	"retrylab/site/server"
)

// handler is the site's own HTTP handler (site/server, as `retrylab
// serve` and the Worker run it) over dist.
func handler(dist string) (http.Handler, error) {
	if _, err := os.Stat(dist); err != nil {
		return nil, err
	}
	return server.New(server.Config{Dist: os.DirFS(dist)}), nil
}
