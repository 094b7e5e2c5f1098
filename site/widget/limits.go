package widget

// limitsViews are the views of the limits calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views limits
func limitsViews() []viewDef {
	return []viewDef{{"utilization", typed(limitsUtilization), false, false}, {"play", typed(limitsPlay), false, true}}
}
