package calc

// article1 returns the calculators of article 1 (retries), in the order the
// article introduces them.
func article1() []*Calculator {
	return inArticle(1,
		attemptsCalc(),
		amplificationCalc(),
		budgetCalc(),
		jitterCalc(),
		deadlineCalc(),
		peakCalc(),
	)
}
