package sha256sum

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
)

// TestFIPS180Examples checks the example messages of FIPS 180-4 (NIST's
// "SHA256.pdf", "SHA2_Additional.pdf" and the million 'a' of FIPS 180-2
// appendix B.3) against their published digests, independently of
// crypto/sha256.
func TestFIPS180Examples(t *testing.T) {
	tests := []struct {
		name, msg, want string
	}{
		{"empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc (one block)", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"448 bits (two blocks)", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
			"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		{"896 bits", "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
			"cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
		{"one million 'a'", strings.Repeat("a", 1_000_000),
			"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum := Sum([]byte(tt.msg))
			if got := hex.EncodeToString(sum[:]); got != tt.want {
				t.Errorf("Sum(%d bytes) = %s, want %s", len(tt.msg), got, tt.want)
			}
		})
	}
}

// message returns n bytes that differ from one length to the next and
// use every byte value (no randomness: the test is the same every run).
func message(n int) []byte {
	b := make([]byte, n)
	x := uint32(n)*2654435761 + 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// TestLengths compares with crypto/sha256 for every length from 0 to 200
// bytes and around the block and padding boundaries of longer messages:
// the padding takes one extra block exactly when len%64 is 56..63.
func TestLengths(t *testing.T) {
	var lengths []int
	for n := 0; n <= 200; n++ {
		lengths = append(lengths, n)
	}
	for _, blocks := range []int{4, 5, 16, 17, 256} {
		for _, d := range []int{-9, -8, -7, -1, 0, 1, 55, 56, 57} {
			lengths = append(lengths, 64*blocks+d)
		}
	}
	for _, n := range lengths {
		msg := message(n)
		got, want := Sum(msg), sha256.Sum256(msg)
		if got != want {
			t.Errorf("%d bytes: Sum = %x, crypto/sha256 = %x", n, got, want)
		}
	}
	// The same length with different contents gives different digests:
	// the test would notice a Sum that ignored the data.
	a, b := message(100), message(100)
	b[99] ^= 1
	if Sum(a) == Sum(b) {
		t.Error("a one-bit change in the last byte left the digest unchanged")
	}
}

// TestDoesNotModifyInput checks that Sum leaves its argument as it was.
func TestDoesNotModifyInput(t *testing.T) {
	for _, n := range []int{0, 3, 56, 64, 200} {
		msg := message(n)
		keep := string(msg)
		Sum(msg)
		if string(msg) != keep {
			t.Errorf("%d bytes: Sum changed its input", n)
		}
	}
}

func FuzzSum(f *testing.F) {
	for _, n := range []int{0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000} {
		f.Add(message(n))
	}
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		if got, want := Sum(msg), sha256.Sum256(msg); got != want {
			t.Errorf("%d bytes %q: Sum = %x, crypto/sha256 = %x", len(msg), msg, got, want)
		}
	})
}

// BenchmarkSum sets this package beside crypto/sha256 (which uses the
// CPU's SHA instructions natively, and plain Go under js/wasm).
func BenchmarkSum(b *testing.B) {
	for _, n := range []int{64, 1024, 16384} {
		msg := message(n)
		b.Run("sha256sum/"+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				Sum(msg)
			}
		})
		b.Run("crypto-sha256/"+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				sha256.Sum256(msg)
			}
		})
	}
}
