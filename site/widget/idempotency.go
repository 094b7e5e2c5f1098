package widget

import "retrylab/core/calc"

// idempotencyViews are the views of the idempotency-key calculator beside
// its table, in the order a widget shows them.
//
//retrylab:views idempotency-key
func idempotencyViews() []viewDef {
	return []viewDef{{"parts", typed(idempotencyParts), false, false}}
}

// idempotencyParts: the key taken apart, each part above what it is
// (the tenant, the task, the SHA-256 of the payload's canonical form), so
// that the reader sees which change makes a new key. Text, not a chart:
// the key is the picture.
func idempotencyParts(o *outCtx, r *calc.IdempotencyResult) error {
	b := o.b
	writef(b, `<figure class="widget-chart widget-key" data-view="parts"><figcaption>%s</figcaption><p class="widget-key-parts">`,
		esc(o.vt("parts", "title", "The key, part by part")))
	part := func(text, label string) {
		writef(b, `<span class="widget-key-part"><code>%s</code><span class="widget-key-label">%s</span></span>`, esc(text), esc(label))
	}
	part(r.Tenant, o.vt("parts", "tenant", "tenant"))
	b.WriteString(`<span class="widget-key-sep" aria-hidden="true">:</span>`)
	part(r.Task, o.vt("parts", "task", "task"))
	b.WriteString(`<span class="widget-key-sep" aria-hidden="true">:</span>`)
	part(r.SHA256, o.vt("parts", "hash", "SHA-256 of the canonical payload ({bytes} bytes)", "bytes", o.loc.Int(int64(r.Bytes))))
	writef(b, `</p><p class="widget-note">%s</p></figure>`+"\n", esc(o.vt("parts", "note", "The same operation, retried, gives the same key; change the tenant, the task or any value of the payload and the key changes.")))
	return nil
}
