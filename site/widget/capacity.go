package widget

import "retrylab/core/calc"

// capacityViews are the views of the capacity calculator beside its
// table, in the order a widget shows them.
//
//retrylab:views capacity
func capacityViews() []viewDef {
	return []viewDef{{"limits", typed(capacityLimits), false, false}}
}

// capacityLimits: the requests a minute each limit allows, the tokens'
// (tpm_limit over the tokens reserved per request) and, when set, the
// requests' (rpm_limit), the one that binds marked, and the sustained
// rate, the lower of the two, as a rule.
func capacityLimits(o *outCtx, r *calc.CapacityResult) error {
	y := o.vt("limits", "y", "requests a minute")
	cats := []string{o.vt("limits", "tpm", "allowed by the tokens")}
	vals := []float64{r.TPMRequestsPerMin}
	mark := []bool{r.Binding != "rpm"}
	rpm, _ := argFloat(o.a, "rpm_limit")
	if rpm > 0 {
		cats = append(cats, o.vt("limits", "rpm", "allowed by the requests"))
		vals = append(vals, rpm)
		mark = append(mark, r.Binding != "tpm")
	}
	fewBars(o, "limits", o.vt("limits", "title", "Requests a minute: what each limit allows"),
		o.vt("limits", "desc", "Reserving {reserved} tokens a request, the token limit allows {tpm} requests a minute; the lower limit binds, and the client can sustain {rate}.",
			"reserved", o.loc.Int(int64(r.ReservedTokensPerRequest)), "tpm", o.loc.Number(r.TPMRequestsPerMin), "rate", o.loc.Number(r.RequestsPerMin)),
		y, cats, vals, mark, []rule{{Y: r.RequestsPerMin, Label: o.vt("limits", "rate", "sustained")}}, "tpm_requests_per_min")
	return nil
}
