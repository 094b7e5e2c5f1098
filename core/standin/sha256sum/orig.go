//go:build standin_orig_sha256sum

// The original in the stand-in's place, for core/standin/bench.sh (what
// sha256sum saves) and for running sha256sum's tests against crypto/sha256.

package sha256sum

import "crypto/sha256"

// Size is sha256.Size.
const Size = sha256.Size

// Sum is sha256.Sum256.
func Sum(data []byte) [Size]byte { return sha256.Sum256(data) }
