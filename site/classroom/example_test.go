package classroom_test

import (
	"fmt"

	"retrylab/site/classroom"
	"retrylab/site/locale"
)

// A student's variant depends only on the class code and the student, as
// written after Normalize; its answers come from the calculators.
func ExampleNewVariant() {
	a, _ := classroom.NewVariant(nil, "3B", "Anna Rossi")
	b, _ := classroom.NewVariant(nil, " 3b ", "ANNA  ROSSI")
	fmt.Println(a.Seed == b.Seed, len(a.Items))
	it := a.Items[0]
	fmt.Println(it.Exercise.ID, it.Params.Encode())
	ans := it.Answers[0]
	fmt.Println(ans.Field, classroom.AnswerText(locale.Locale{Lang: "en"}, ans))
	fmt.Println(ans.Check("1.42", "."), ans.Check("1,419", ","), ans.Check("1.5", "."), ans.Check("1,4", ","), ans.Check("uno", ","))
	// Output:
	// true 16
	// attempts n=4&q=0.3
	// expected_attempts 1.42
	// right right high low syntax
}
