package assetsdir_test

import (
	"fmt"
	"net/http"

	"retrylab/wasm/worker/assetsdir"
)

func ExampleFormatHeaders() {
	fmt.Print(assetsdir.FormatHeaders([]assetsdir.Rule{
		{Pattern: "/*", Header: http.Header{"X-Frame-Options": {"DENY"}, "X-Content-Type-Options": {"nosniff"}}},
		{Pattern: "/it/embed/*", Detach: []string{"X-Frame-Options"}},
	}))
	// Output:
	// /*
	//   X-Content-Type-Options: nosniff
	//   X-Frame-Options: DENY
	//
	// /it/embed/*
	//   ! X-Frame-Options
}

func ExampleURLPath() {
	for _, f := range []string{"index.html", "it/retries/index.html", "assets/style.3f2a9c1d0b7e.css"} {
		fmt.Println(assetsdir.URLPath(f))
	}
	// Output:
	// /
	// /it/retries/
	// /assets/style.3f2a9c1d0b7e.css
}
