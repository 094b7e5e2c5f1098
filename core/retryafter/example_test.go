package retryafter_test

import (
	"fmt"
	"time"

	"retrylab/core/retryafter"
)

// A 429 received at 14:00:00 UTC carries Retry-After in one of its forms;
// each asks for the same floor on the wait before the next call.
func ExampleParse() {
	received := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC).Unix()
	for _, field := range []string{
		"12",
		"Tue, 01 Dec 2026 14:00:12 GMT",
		"Tuesday, 01-Dec-26 14:00:12 GMT",
		"Tue Dec  1 14:00:12 2026",
		"12.5",
	} {
		v, err := retryafter.Parse(field, received)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-13s wait at least %d s\n", v.Form, v.Delay)
	}
	// Output:
	// delay-seconds wait at least 12 s
	// IMF-fixdate   wait at least 12 s
	// rfc850-date   wait at least 12 s
	// asctime-date  wait at least 12 s
	// retryafter: not a delay-seconds or an HTTP-date: delay-seconds holds "." at byte 2
}
