package calc

import (
	"errors"
	"retrylab/core/standin"
	"strconv"

	"retrylab/core/canonjson"
)

// IdempotencyResult is the result of the idempotency-key calculator.
type IdempotencyResult struct {
	_         standin.NoEqual // not comparable
	Tenant    string          `json:"tenant"`
	Task      string          `json:"task"`
	Canonical string          `json:"canonical"` // CPython's json.dumps(payload, sort_keys=True, separators=(",", ":"))
	SHA256    string          `json:"sha256"`    // hex SHA-256 of canonical (UTF-8, which is ASCII here)
	Key       string          `json:"key"`       // tenant:task:sha256
	Bytes     int             `json:"bytes"`     // length of canonical in bytes
}

// idempotencyCalc declares the idempotency calculator.
//
//retrylab:calculator article=2 order=50
func idempotencyCalc() *Calculator {
	return &Calculator{
		Name:     "idempotency-key",
		Examples: []string{`payload=[1,2]`, "payload=%7B%22b%22%3A%22%3C%26%3E%22%2C%22a%22%3A%5B1.0%2C1e16%2C%22%C3%A9%5Cu2028%22%5D%7D", "tenant=a%3Cb%3E%26c&task=%E2%80%A9%01%EF%BF%BD"},
		Help:     "the idempotency key of one logical operation: tenant:task:sha256 of CPython's canonical JSON",
		Work:     idempotencyWork, ServerWork: idempotencyServerWork, WorkParam: "payload",
		Params: []Param{
			{Name: "tenant", Kind: Text, Default: "acme", MaxLen: 200, Help: "the tenant that owns the operation"},
			{Name: "task", Kind: Text, Default: "summarize", MaxLen: 200, Help: "the logical task"},
			{Name: "payload", Kind: JSON, Default: `{"document_id":"doc-42","max_output_tokens":1000}`, MaxLen: 16384,
				Help: "the operation's input, as JSON (key order and spacing do not change the key)"},
		},
		Run: func(a Args) (any, error) {
			tenant, task := a.String("tenant"), a.String("task")
			key, canonical, err := canonjson.Key(tenant, task, []byte(a.String("payload")))
			if e, ok := errors.AsType[*canonjson.SeparatorError](err); ok {
				// tenant a:b with task c and tenant a with task b:c would
				// share a key: two different operations, one key
				return nil, Refuse("idempotency-key", e.Field, CodeConstraint, "detail.idempotency.separator",
					"must not contain {sep}, which separates the key's parts (tenant a:b with task c and tenant a with task b:c would share one key)",
					"sep", strconv.Quote(canonjson.Separator))
			}
			if err != nil {
				detail := err.Error()
				if e, ok := errors.AsType[*canonjson.Error](err); ok {
					detail = e.Msg + " (byte " + strconv.Itoa(e.Offset) + ")"
				}
				r := Refuse("idempotency-key", "payload", CodeJSON, "detail.idempotency.payload", "{reason}", "reason", detail)
				jsonVars(err, r.Vars) // translated as detail.json.CODE when canonjson names the problem
				return nil, r
			}
			return IdempotencyResult{Tenant: tenant, Task: task, Canonical: canonical,
				SHA256: key[len(tenant)+len(task)+2:], Key: key, Bytes: len(canonical)}, nil
		},
	}
}
