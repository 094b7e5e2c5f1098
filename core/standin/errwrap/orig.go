//go:build standin_orig_errwrap

// The original in the stand-in's place, for core/standin/bench.sh (what
// errwrap saves) and for running errwrap's tests against fmt.Errorf.

package errwrap

import "fmt"

// Detail is fmt.Errorf("%w: %s", err, detail); nil for a nil err.
func Detail(err error, detail string) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %s", err, detail)
}
