package errclass

import (
	"fmt"
	"regexp"
	"testing"
)

// The keys are translation keys and URLs may cite them: renaming one is a
// breaking change, so the list is pinned here.
func TestKeysStable(t *testing.T) {
	want := []string{"rate_limited", "internal_error", "bad_gateway", "service_unavailable", "gateway_timeout",
		"overloaded", "connect_timeout", "connection_reset", "validation_error", "context_length_exceeded",
		"authentication_error", "permission_denied", "safety_refusal", "deterministic_prompt_error",
		"non_idempotent_tool_call", "read_timeout", "stream_cut", "client_cancelled"}
	got := Table()
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	re := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	for i, e := range got {
		if e.Key != want[i] {
			t.Errorf("entry %d is %q, want %q", i, e.Key, want[i])
		}
		if !re.MatchString(e.Key) {
			t.Errorf("key %q is not lower_snake_case", e.Key)
		}
		if e.Fallback != (e.FallbackWhen != "") {
			t.Errorf("%s: Fallback %v but FallbackWhen %q", e.Key, e.Fallback, e.FallbackWhen)
		}
		if e.Note == "" || e.Processed == "" || e.Decision == "" || e.Batch == "" {
			t.Errorf("%s: incomplete entry %+v", e.Key, e)
		}
	}
}

func TestArticleClassification(t *testing.T) {
	tests := []struct {
		key       string
		decision  Decision
		fallback  bool
		processed Processed
	}{
		{"rate_limited", Retry, true, ProcessedNo},
		{"internal_error", Retry, false, ProcessedUnknown},
		{"bad_gateway", Retry, false, ProcessedUnknown},
		{"service_unavailable", Retry, true, ProcessedNo},
		{"overloaded", Retry, true, ProcessedNo},
		{"connection_reset", Retry, false, ProcessedUnknown},
		{"connect_timeout", Retry, true, ProcessedNo},
		{"validation_error", Never, false, ProcessedNo},
		{"context_length_exceeded", Never, true, ProcessedNo},
		{"authentication_error", Never, false, ProcessedNo},
		{"safety_refusal", Never, false, ProcessedYes},
		{"deterministic_prompt_error", Never, false, ProcessedYes},
		{"non_idempotent_tool_call", Never, false, ProcessedYes},
		{"read_timeout", AskUser, false, ProcessedUnknown},
		{"stream_cut", AskUser, false, ProcessedYes},
		{"client_cancelled", Never, false, ProcessedUnknown},
	}
	for _, tt := range tests {
		e, ok := ByKey(tt.key)
		if !ok || e.Decision != tt.decision || e.Fallback != tt.fallback || e.Processed != tt.processed {
			t.Errorf("ByKey(%q) = %+v, %v; want decision %s, fallback %v, processed %s", tt.key, e, ok, tt.decision, tt.fallback, tt.processed)
		}
	}
	// Nothing that was processed, or may have been, goes to another
	// provider, except the 5xx whose outcome is unknown (504, the gateway timeout):
	// the routing policy moves them on provider_5xx and accepts that the
	// first provider may have billed the call too.
	for _, e := range Table() {
		if e.Processed != ProcessedNo && e.Fallback {
			if e.FallbackWhen != ReasonProvider5xx || e.Processed != ProcessedUnknown {
				t.Errorf("%s: processed %s but cross-provider fallback allowed", e.Key, e.Processed)
			}
		}
	}
	// 529 is one provider's code, not a standard status; every other
	// status in the table is standard.
	for _, e := range Table() {
		if want := e.Status != 0 && e.Status != 529; e.Standard != want {
			t.Errorf("%s (%d): standard %v", e.Key, e.Status, e.Standard)
		}
	}
}

func TestByStatus(t *testing.T) {
	tests := []struct {
		status int
		key    string
		ok     bool
	}{
		{429, "rate_limited", true}, {500, "internal_error", true}, {502, "bad_gateway", true},
		{503, "service_unavailable", true}, {504, "gateway_timeout", true}, {529, "overloaded", true},
		{400, "validation_error", true}, {401, "authentication_error", true}, {403, "permission_denied", true},
		{507, "internal_error", true}, {418, "validation_error", true}, {200, "", false}, {0, "", false},
	}
	for _, tt := range tests {
		e, ok := ByStatus(tt.status)
		if ok != tt.ok || e.Key != tt.key {
			t.Errorf("ByStatus(%d) = %q, %v; want %q, %v", tt.status, e.Key, ok, tt.key, tt.ok)
		}
	}
	if Retryable("no_such_error") || !Retryable("rate_limited") || Retryable("stream_cut") {
		t.Error("Retryable disagrees with the table")
	}
}

func ExampleByStatus() {
	for _, s := range []int{429, 503, 400, 401} {
		e, _ := ByStatus(s)
		fmt.Println(s, e.Key, e.Decision)
	}
	// Output:
	// 429 rate_limited retry
	// 503 service_unavailable retry
	// 400 validation_error never
	// 401 authentication_error never
}
