package widget

// dispatchViews are the views of the dispatch calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views dispatch
func dispatchViews() []viewDef {
	return []viewDef{{"queue", typed(dispatchQueue), false, false}, {"flow", typed(dispatchFlow), false, true}, {"metrics", typed(dispatchMetrics), true, false}}
}
