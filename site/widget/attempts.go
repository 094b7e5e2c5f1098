package widget

// attemptsViews are the views of the attempts calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views attempts
func attemptsViews() []viewDef {
	return []viewDef{{"curve", typed(attemptsCurve), false, false}}
}
