package parity

import (
	"fmt"
	"net/http"
	"os"

	"retrylab/site/server"
)

// Native returns the handler of `retrylab serve` over the folder dist.
func Native(dist string) (http.Handler, error) {
	if fi, err := os.Stat(dist); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s: no built site (run `make build`)", dist)
	}
	return server.New(server.Config{Dist: os.DirFS(dist)}), nil
}
