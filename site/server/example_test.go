package server_test

import (
	"fmt"
	"net/http/httptest"
	"testing/fstest"

	"retrylab/site/server"
)

func ExampleNew() {
	dist := fstest.MapFS{"index.html": {Data: []byte("<!DOCTYPE html>")}}
	h := server.New(server.Config{Dist: dist})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/attempts?q=0.1&n=3", nil))
	fmt.Print(w.Code, " ", w.Header().Get("Content-Type"), " ", w.Body.String())
	// Output: 200 application/json {"q":0.1,"n":3,"expected_attempts":1.11,"success_probability":0.999}
}
