// Package errclass classifies the errors of an LLM API call into retry, do
// not retry, and ask the user, as data: one table that the article prints
// and the dispatcher simulation follows.
//
// The classification turns on two questions. Is the error transient (a
// rate limit, an overloaded or failing provider, a network fault) or
// deterministic (the same request fails the same way every time)? And did
// the provider receive, and perhaps bill, the request? A connect timeout
// almost certainly never reached the provider; a read timeout before the
// headers is uncertain; a stream cut after the first token was almost
// certainly processed. Retrying an uncertain or processed call on another
// provider risks paying twice and showing two different answers.
package errclass

import "retrylab/core/standin"

// Decision is what a caller does with an error.
type Decision string

const (
	// Retry: retry, with backoff and jitter, within the retry budget.
	Retry Decision = "retry"
	// Never: do not retry; the same request would fail the same way, or
	// retrying would repeat a side effect.
	Never Decision = "never"
	// AskUser: do not retry transparently; show a recoverable error
	// ("The response was interrupted. Retry?") and let the user decide.
	AskUser Decision = "ask_user"
)

// Processed says whether the provider probably processed (and billed) the
// request when the error happened.
type Processed string

const (
	ProcessedNo      Processed = "no"      // refused or never received: nothing billed
	ProcessedUnknown Processed = "unknown" // may or may not have run
	ProcessedYes     Processed = "yes"     // almost certainly ran to completion or began producing output
)

// The fallback reasons, as the article's routing policy names them.
const (
	ReasonProvider5xx          = "provider_5xx"
	ReasonRateLimitAfterBudget = "rate_limit_after_retry_budget"
	ReasonContextLengthNeeded  = "context_length_needed"
	ReasonPrimaryUnavailable   = "primary_unavailable"
)

// Entry is one class of error.
type Entry struct {
	_ standin.NoEqual // not comparable
	// Key is stable: "errclass."+Key is the translation key of its name
	// and "errclass."+Key+".help" of its explanation.
	Key string
	// Status is the HTTP status that signals the error, 0 when there is
	// none (a network fault, a client decision, a judgement on the body).
	Status int
	// Decision is the choice for an interactive call (a user is waiting).
	Decision Decision
	// Batch is the choice for a background job, which can wait for a
	// reconciliation delay and retry on the same provider with the same
	// idempotency key.
	Batch Decision
	// Fallback reports whether the request may be sent to another
	// provider or model; FallbackWhen is the routing condition that
	// allows it (one of the Reason constants), empty when Fallback is
	// false.
	Fallback     bool
	FallbackWhen string
	// Processed says whether the provider probably processed the request.
	Processed Processed
	// Standard reports whether Status is a status code of the HTTP
	// standards (RFC 9110, RFC 6585's 429); false for a provider's own
	// code such as 529, and for entries without a status.
	Standard bool
	// Note is a one-line English explanation.
	Note string
}

// region Table

// table is the classification. Its order is the order the article lists
// the errors: first what to retry, then what never to retry, then the
// timeouts that need judgement.
var table = [...]Entry{
	{Key: "rate_limited", Status: 429, Decision: Retry, Batch: Retry, Fallback: true, FallbackWhen: ReasonRateLimitAfterBudget, Processed: ProcessedNo, Standard: true,
		Note: "rate limit: wait at least Retry-After; go to another provider only once the retry budget is spent"},
	{Key: "internal_error", Status: 500, Decision: Retry, Batch: Retry, Fallback: false, Processed: ProcessedUnknown, Standard: true,
		Note: "the provider failed, possibly after running the model: outcome unknown, so retry on the same provider with the same idempotency key"},
	{Key: "bad_gateway", Status: 502, Decision: Retry, Batch: Retry, Fallback: false, Processed: ProcessedUnknown, Standard: true,
		Note: "a proxy in front of the provider got no valid answer; the call behind it may have been processed"},
	{Key: "service_unavailable", Status: 503, Decision: Retry, Batch: Retry, Fallback: true, FallbackWhen: ReasonProvider5xx, Processed: ProcessedNo, Standard: true,
		Note: "provider temporarily unavailable"},
	{Key: "gateway_timeout", Status: 504, Decision: Retry, Batch: Retry, Fallback: true, FallbackWhen: ReasonProvider5xx, Processed: ProcessedUnknown, Standard: true,
		Note: "the gateway stopped waiting; the model may still have run, so send the same idempotency key"},
	{Key: "overloaded", Status: 529, Decision: Retry, Batch: Retry, Fallback: true, FallbackWhen: ReasonProvider5xx, Processed: ProcessedNo,
		Standard: false, Note: "overload, in a non-standard code that one provider (Anthropic, overloaded_error) uses instead of an HTTP status of RFC 9110; the request was not processed"},
	{Key: "connect_timeout", Status: 0, Decision: Retry, Batch: Retry, Fallback: true, FallbackWhen: ReasonPrimaryUnavailable, Processed: ProcessedNo,
		Note: "no connection was made: the request probably never reached the provider"},
	{Key: "connection_reset", Status: 0, Decision: Retry, Batch: Retry, Fallback: false, Processed: ProcessedUnknown,
		Note: "the connection was reset: retry on the same provider with the same idempotency key"},

	{Key: "validation_error", Status: 400, Decision: Never, Batch: Never, Processed: ProcessedNo, Standard: true,
		Note: "the request is malformed: it fails the same way every time"},
	{Key: "context_length_exceeded", Status: 400, Decision: Never, Batch: Never, Fallback: true, FallbackWhen: ReasonContextLengthNeeded, Processed: ProcessedNo, Standard: true,
		Note: "the prompt does not fit: retrying cannot help, only a model with a longer context window"},
	{Key: "authentication_error", Status: 401, Decision: Never, Batch: Never, Processed: ProcessedNo, Standard: true,
		Note: "bad or missing credentials"},
	{Key: "permission_denied", Status: 403, Decision: Never, Batch: Never, Processed: ProcessedNo, Standard: true,
		Note: "the key may not use this model or feature"},
	{Key: "safety_refusal", Status: 0, Decision: Never, Batch: Never, Processed: ProcessedYes,
		Note: "refused by a safety policy: do not shop the request around other models"},
	{Key: "deterministic_prompt_error", Status: 0, Decision: Never, Batch: Never, Processed: ProcessedYes,
		Note: "a bad prompt that fails the same way every time (say, output that never matches the schema)"},
	{Key: "non_idempotent_tool_call", Status: 0, Decision: Never, Batch: Never, Processed: ProcessedYes,
		Note: "a tool call with side effects may already have run: a retry would repeat them"},

	{Key: "read_timeout", Status: 0, Decision: AskUser, Batch: Retry, Fallback: false, Processed: ProcessedUnknown,
		Note: "timed out before the response headers: outcome unknown; batch retries after a reconciliation delay on the same provider with the same idempotency key"},
	{Key: "stream_cut", Status: 0, Decision: AskUser, Batch: Retry, Fallback: false, Processed: ProcessedYes,
		Note: "the stream broke after the first token: the provider almost certainly processed it; no transparent retry, never on another model"},
	{Key: "client_cancelled", Status: 0, Decision: Never, Batch: Never, Fallback: false, Processed: ProcessedUnknown,
		Note: "the client gave up: whether the provider stopped depends on whether the cancellation reached it"},
}

// endregion

// Table returns the classification, in the article's order (a copy).
func Table() []Entry { return append([]Entry(nil), table[:]...) }

// ByKey returns the entry with key k.
func ByKey(k string) (Entry, bool) {
	for _, e := range table {
		if e.Key == k {
			return e, true
		}
	}
	return Entry{}, false
}

// ByStatus returns the first entry for HTTP status s (for 400, the generic
// validation error: telling it from a context-length error needs the body).
// A status the table does not list is classified by its class: other 5xx
// as internal_error, other 4xx as validation_error.
func ByStatus(s int) (Entry, bool) {
	for _, e := range table {
		if e.Status == s && s != 0 {
			return e, true
		}
	}
	switch {
	case s >= 500 && s <= 599:
		return ByKey("internal_error")
	case s >= 400 && s <= 499:
		return ByKey("validation_error")
	}
	return Entry{}, false
}

// Retryable reports whether an interactive call retries on error k (false
// for an unknown key: when in doubt, do not retry).
func Retryable(k string) bool {
	e, ok := ByKey(k)
	return ok && e.Decision == Retry
}
