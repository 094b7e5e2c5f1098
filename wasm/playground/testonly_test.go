//go:build !(js && wasm)

package playground

import (
	"strings"
	"testing"
)

// TestWasmLacksTestOnlyModules: the modules that only tests may import
// (the differential tests of core/policies against aws-sdk-go-v2 and
// grpc-go, and the config checks against go-control-plane) are in no
// playground module, and neither is anything that comes with them.
func TestWasmLacksTestOnlyModules(t *testing.T) {
	deps := listDeps(t, "./retries", "./rate-limits", "./policies", "../worker")
	if !deps["retrylab/core/policies"] {
		t.Fatal("go list -deps does not list retrylab/core/policies: the check would prove nothing")
	}
	for p := range deps {
		for _, mod := range []string{"github.com/aws/", "google.golang.org/grpc", "google.golang.org/protobuf", "github.com/envoyproxy/"} {
			if strings.HasPrefix(p, mod) {
				t.Errorf("a wasm module links %s, a test-only module", p)
			}
		}
	}
}
