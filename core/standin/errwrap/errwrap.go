//go:build !standin_orig_errwrap

// Package errwrap adds a detail to a sentinel error without fmt, which the
// browser's module does not link (package core/standin;
// wasm/playground TestKeptOut): Detail(err, d) is what
// fmt.Errorf("%w: %s", err, d) returns, the same text, and errors.Is and
// errors.As see err through it.
package errwrap

// Detail returns an error whose text is err's, ": " and detail, and which
// wraps err (its Unwrap returns err). A nil err gives nil.
func Detail(err error, detail string) error {
	if err == nil {
		return nil
	}
	return &wrapped{msg: err.Error() + ": " + detail, err: err}
}

// wrapped is the error Detail returns.
type wrapped struct {
	msg string
	err error
}

func (e *wrapped) Error() string { return e.msg }
func (e *wrapped) Unwrap() error { return e.err }
