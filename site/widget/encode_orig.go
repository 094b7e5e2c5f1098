//go:build standin_orig_encoders

package widget

// encoding/json in the place of the generated encoders (encode_gen.go),
// for core/standin/bench.sh: `-tags standin_orig_encoders` builds the
// modules with json.Marshal, to measure what encgen's encoders save.
// The dispatchers accept any value here, where the generated ones accept
// only their set's result types; the bytes are the same
// (TestEncodeCalculators compares them).

import (
	"encoding/json"

	"retrylab/core/canonjson"
)

// encodeJSON is every dispatcher: json.Marshal, its top-level members
// marked as jsonEnc.member marks them.
func encodeJSON(e *jsonEnc, res any) bool {
	b, err := json.Marshal(res)
	if err != nil {
		e.fail(err)
		return true
	}
	e.b = append(e.b, b...)
	canonjson.Members(e.b, func(key, val []byte) bool {
		name, _ := canonjson.Unquote(key)
		start := cap(e.b) - cap(val) // val lies in e.b (the stand-in reader)
		m := memberSpan{name: name, start: start, end: start + len(val)}
		if xs, ok := numList(val); ok && len(xs) > 0 {
			m.nums.f = xs // what the generated encoders hand the generic bars
		}
		e.members = append(e.members, m)
		return true
	})
	return true
}

func encodeResult(e *jsonEnc, res any) bool      { return encodeJSON(e, res) }
func encodeRetries(e *jsonEnc, res any) bool     { return encodeJSON(e, res) }
func encodeRateLimits(e *jsonEnc, res any) bool  { return encodeJSON(e, res) }
func encodePolicies(e *jsonEnc, res any) bool    { return encodeJSON(e, res) }
func encodeBackoffWork(e *jsonEnc, res any) bool { return encodeJSON(e, res) }
