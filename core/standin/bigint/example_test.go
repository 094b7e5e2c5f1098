package bigint_test

import (
	"encoding/json"
	"fmt"

	"retrylab/core/standin/bigint"
)

// Ten nested layers of 100 attempts each: the calls of every level, exact,
// and their JSON.
func Example() {
	calls := bigint.FromInt64(1)
	var levels []bigint.Int
	for range 10 {
		calls = calls.Mul(bigint.FromInt64(100))
		levels = append(levels, calls)
	}
	fmt.Println(calls)
	_, fits := calls.Int64()
	fmt.Println("fits in int64:", fits)
	b, _ := json.Marshal(map[string]any{"final_calls": calls, "levels": levels[:3]})
	fmt.Println(string(b))

	seed, ok := bigint.Parse("-18446744073709551617")
	fmt.Println(ok, seed.Sign(), seed.Abs(), seed.Words())
	_, ok = bigint.Parse("1_000")
	fmt.Println(ok)
	// Output:
	// 100000000000000000000
	// fits in int64: false
	// {"final_calls":100000000000000000000,"levels":[100,10000,1000000]}
	// true -1 18446744073709551617 [1 0 1]
	// false
}
