package query_test

import (
	"fmt"

	"retrylab/core/standin/query"
)

func Example() {
	v, err := query.Parse("jitter-1.seed=7&a.q=0.9&name=a+b%26c&flag")
	fmt.Printf("%q %q %q %d %v\n", v["a.q"], v["name"], v["flag"], len(v), err)
	v["a.q"] = []string{"0.25"}
	fmt.Println(query.Encode(v))
	fmt.Println(query.Escape("1 + 1 = 2"))
	_, err = query.Parse("a=%zz&b=1")
	fmt.Println(err)
	// Output:
	// ["0.9"] ["a b&c"] [""] 4 <nil>
	// a.q=0.25&flag=&jitter-1.seed=7&name=a+b%26c
	// 1+%2B+1+%3D+2
	// invalid URL escape "%zz"
}
