package errwrap

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

var errSentinel = errors.New("thing: too large")

// TestDetail holds Detail to fmt.Errorf("%w: %s"): the same text, and
// errors.Is and errors.As find the wrapped error.
func TestDetail(t *testing.T) {
	for _, tc := range []struct {
		err    error
		detail string
	}{
		{errSentinel, "12 nodes, at most 10"},
		{errSentinel, ""},
		{fs.ErrNotExist, "naïve 你好 %d %w"},
		{&fs.PathError{Op: "open", Path: "x", Err: fs.ErrPermission}, "again"},
	} {
		got := Detail(tc.err, tc.detail)
		want := fmt.Errorf("%w: %s", tc.err, tc.detail)
		if got.Error() != want.Error() {
			t.Errorf("Detail(%v, %q) = %q, want %q", tc.err, tc.detail, got, want)
		}
		if !errors.Is(got, tc.err) || errors.Unwrap(got) != tc.err {
			t.Errorf("Detail(%v, %q) does not wrap it", tc.err, tc.detail)
		}
		if pe, ok := errors.AsType[*fs.PathError](got); ok != errors.Is(tc.err, fs.ErrPermission) || ok && pe.Path != "x" {
			t.Errorf("errors.AsType through Detail(%v): %v, %v", tc.err, pe, ok)
		}
	}
	if Detail(nil, "x") != nil {
		t.Error("Detail(nil, …) is not nil")
	}
}

func ExampleDetail() {
	err := Detail(errSentinel, "12 nodes, at most 10")
	fmt.Println(err)
	fmt.Println(errors.Is(err, errSentinel))
	// Output:
	// thing: too large: 12 nodes, at most 10
	// true
}
