package widget

// backoffViews are the views of the backoff calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views backoff
func backoffViews() []viewDef {
	return []viewDef{{"arrivals", typed(backoffArrivals), false, false}, {"play", typed(backoffPlay), false, false}, {"flow", typed(backoffFlow), true, false}}
}
