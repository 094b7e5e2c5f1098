package sha256sum_test

import (
	"fmt"

	"retrylab/core/standin/sha256sum"
)

func ExampleSum() {
	sum := sha256sum.Sum([]byte("abc"))
	fmt.Printf("%x\n", sum)
	// Output:
	// ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
}
