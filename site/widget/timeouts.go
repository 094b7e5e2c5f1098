package widget

// timeoutsViews are the views of the timeouts calculator beside its table, in the
// order a widget shows them (a view marked offered is drawn only when a
// block names it).
//
//retrylab:views timeouts
func timeoutsViews() []viewDef {
	return []viewDef{{"cuts", typed(timeoutsCuts), false, false}, {"first_token", typed(timeoutsFirstToken), false, false}}
}
