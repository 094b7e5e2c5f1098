package calc

// article2 returns the calculators of article 2 (rate limits in LLM APIs),
// in the order the article introduces them.
func article2() []*Calculator {
	return inArticle(2,
		limitsCalc(),
		capacityCalc(),
		concurrencyCalc(),
		backoffCalc(),
		idempotencyCalc(),
		dispatchCalc(),
		errorsCalc(),
		timeoutsCalc(),
		estimateCalc(),
	)
}
