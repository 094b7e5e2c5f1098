package canonjson

import (
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// TestHexString checks hexString against encoding/hex, its reference: every
// byte value, the empty slice and random slices.
func TestHexString(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	cases := [][]byte{nil, {}, {0}, {0xff}, all}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		b := make([]byte, r.IntN(70))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		cases = append(cases, b)
	}
	for _, b := range cases {
		if got, want := hexString(b), hex.EncodeToString(b); got != want {
			t.Fatalf("hexString(%x) = %q, want %q", b, got, want)
		}
	}
}
