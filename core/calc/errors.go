package calc

import (
	"retrylab/core/standin"
	"strconv"

	"retrylab/core/dispatch"
	"retrylab/core/errclass"
)

// ErrorsResult is the result of the errors calculator: one class of the
// classification (core/errclass) and what the dispatcher does with it.
type ErrorsResult struct {
	_     standin.NoEqual // not comparable
	Class string          `json:"class"` // the class's key
	// Status is the HTTP status that signals it, 0 when none does (a
	// network fault, a judgement on the body).
	Status int `json:"status"`
	// ByStatusClass is true when status was given and the table does not
	// list it: it is classified by its class (other 5xx as internal_error,
	// other 4xx as validation_error).
	ByStatusClass bool `json:"by_status_class"`
	// StandardStatus is true when status is the table's own and a code of
	// the HTTP standards (RFC 9110, RFC 6585); false for a provider's own
	// code such as 529, for a class without status, and for a status the
	// table does not list.
	StandardStatus bool `json:"standard_status"`
	// Decision is the choice for an interactive call (retry, never,
	// ask_user); BatchDecision for a background job.
	Decision      string `json:"decision"`
	BatchDecision string `json:"batch_decision"`
	// Processed says whether the provider probably processed (and billed)
	// the call: no, unknown, yes; MayBeBilled is Processed != no.
	Processed   string `json:"processed"`
	MayBeBilled bool   `json:"may_be_billed"`
	// Fallback reports whether the call may go to another provider,
	// FallbackWhen on which condition ("never" when it never does).
	Fallback     bool   `json:"fallback"`
	FallbackWhen string `json:"fallback_when"`
	// Dispatcher is the dispatcher's step (retry, replay, fallback,
	// dead_letter) with retry budget left; DispatcherAfterBudget once it
	// is spent (dispatch.Decide).
	Dispatcher            string `json:"dispatcher"`
	DispatcherAfterBudget string `json:"dispatcher_after_budget"`
	// RetryClasses, NeverClasses and AskUserClasses count the table's
	// classes by interactive decision; MayBeBilledClasses those after
	// which the call may have been billed.
	RetryClasses       int    `json:"retry_classes"`
	NeverClasses       int    `json:"never_classes"`
	AskUserClasses     int    `json:"ask_user_classes"`
	MayBeBilledClasses int    `json:"may_be_billed_classes"`
	Note               string `json:"note"` // one line, English
}

// errorsCalc declares the errors calculator.
//
//retrylab:calculator article=2 order=70
func errorsCalc() *Calculator {
	const name = "errors"
	table := errclass.Table()
	keys := make([]string, len(table))
	for i, e := range table {
		keys[i] = e.Key
	}
	return &Calculator{
		Name:     name,
		Examples: []string{"status=599", "status=418", "class=stream_cut&idempotency=false"},
		Help:     "the classification of errors the dispatcher follows: retry, never retry or ask the user, whether the call may have been billed, and what the dispatcher does",
		Work:     fixedWork, ServerWork: microWork * fixedWorkBound,
		Params: []Param{
			{Name: "class", Kind: Choice, Default: "rate_limited", Choices: keys,
				Help: "the class of error (core/errclass)"},
			{Name: "status", Kind: Int, Optional: true, Min: Incl(400), Max: Incl(599), DefaultNote: "the error's",
				Help: "an HTTP status, which takes the place of class when set: the first class with that status, else its class (5xx: internal_error, 4xx: validation_error)"},
			{Name: "fallback", Kind: Bool, Default: "true",
				Help: "the dispatcher may move a job to a second provider"},
			{Name: "idempotency", Kind: Bool, Default: "true",
				Help: "the dispatcher keeps an operation table keyed by idempotency key"},
		},
		Run: func(a Args) (any, error) {
			e, _ := errclass.ByKey(a.String("class"))
			out := ErrorsResult{}
			if a.Has("status") { // it takes the place of error
				s := a.Int("status")
				e, _ = errclass.ByStatus(s)
				out.ByStatusClass = e.Status != s
				out.Status = s
			} else {
				out.Status = e.Status
			}
			out.Class = e.Key
			out.StandardStatus = e.Standard && !out.ByStatusClass
			out.Decision, out.BatchDecision = string(e.Decision), string(e.Batch)
			out.Processed, out.MayBeBilled = string(e.Processed), e.Processed != errclass.ProcessedNo
			out.Fallback, out.FallbackWhen = e.Fallback, string(e.FallbackWhen)
			if !e.Fallback {
				out.FallbackWhen = "never"
			}
			fb, id := a.Bool("fallback"), a.Bool("idempotency")
			out.Dispatcher = string(dispatch.Decide(e, fb, id, true))
			out.DispatcherAfterBudget = string(dispatch.Decide(e, fb, id, false))
			out.Note = e.Note
			if out.ByStatusClass {
				out.Note = "status " + strconv.Itoa(out.Status) + " is not in the table: classified as " + e.Key + ". " + e.Note
			}
			for _, t := range table {
				switch t.Decision {
				case errclass.Retry:
					out.RetryClasses++
				case errclass.Never:
					out.NeverClasses++
				case errclass.AskUser:
					out.AskUserClasses++
				}
				if t.Processed != errclass.ProcessedNo {
					out.MayBeBilledClasses++
				}
			}
			return out, nil
		},
	}
}
