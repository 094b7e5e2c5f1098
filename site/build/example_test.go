package build_test

import (
	"fmt"

	"retrylab/site/build"
)

func ExampleHashedName() {
	fmt.Println(build.HashedName("style.css", []byte("body{}")))
	// Output: style.7c98040a5416.css
}
