package pages_test

import (
	"fmt"

	"retrylab/site/pages"
)

func ExampleHashedName() {
	fmt.Println(pages.HashedName("style.css", []byte("body{}")))
	// Output: style.7c98040a5416.css
}
