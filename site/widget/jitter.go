package widget

// jitterViews are the views of the jitter calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views jitter
func jitterViews() []viewDef {
	return []viewDef{{"histogram", typed(jitterHistogram), false, false}, {"play", typed(jitterPlay), false, false}, {"flow", typed(jitterFlow), true, false}}
}
