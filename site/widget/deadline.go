package widget

// deadlineViews are the views of the deadline calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views deadline
func deadlineViews() []viewDef {
	return []viewDef{{"timeline", typed(deadlineTimeline), false, false}, {"play", typed(deadlinePlay), false, false}}
}
