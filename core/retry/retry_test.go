package retry

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
)

func TestExpectedAttemptsArticle(t *testing.T) {
	for _, c := range []struct{ q, e, s float64 }{{0.1, 1.11, 0.999}, {0.5, 1.75, 0.875}, {0.9, 2.71, 0.271}} {
		e, s := ExpectedAttempts(c.q, 3)
		if math.Abs(e-c.e) > 1e-12 || math.Abs(s-c.s) > 1e-12 {
			t.Errorf("q=%v: %v, %v; want %v, %v", c.q, e, s, c.e, c.s)
		}
	}
}

func TestAmplifyArticle(t *testing.T) {
	for _, c := range []struct {
		attempts []int
		levels   []int64
	}{
		{[]int{3, 3, 3}, []int64{3, 9, 27}},
		{[]int{1, 1, 3}, []int64{1, 1, 3}},
		{[]int{5}, []int64{5}},
		{[]int{2, 1, 4, 1}, []int64{2, 2, 8, 8}},
	} {
		a, err := Amplify(c.attempts)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range c.levels {
			if got, ok := a.CallsPerLevel[i].Int64(); !ok || got != want {
				t.Errorf("%v: level %d = %v, want %d", c.attempts, i, a.CallsPerLevel[i], want)
			}
		}
		if got, ok := a.FinalCalls().Int64(); !ok || got != c.levels[len(c.levels)-1] {
			t.Errorf("%v: final %v", c.attempts, a.FinalCalls())
		}
	}
}

func TestAmplifyHuge(t *testing.T) {
	at := make([]int, 10)
	for i := range at {
		at[i] = 100
	}
	a, err := Amplify(at)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.FinalCalls().String(); got != "100000000000000000000" {
		t.Fatalf("100^10 = %s", got)
	}
	if _, err := a.Tree(400); !errors.Is(err, ErrTreeTooLarge) {
		t.Fatalf("Tree: %v, want ErrTreeTooLarge", err)
	}
}

func TestAmplifyBad(t *testing.T) {
	for _, at := range [][]int{nil, {}, {3, 0}, {-1}} {
		if _, err := Amplify(at); err == nil {
			t.Errorf("Amplify(%v) accepted", at)
		}
	}
}

func TestTree(t *testing.T) {
	a, _ := Amplify([]int{3, 3, 3})
	nodes, err := a.Tree(400)
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 40 {
		t.Fatalf("%d nodes, want 1+3+9+27", len(nodes))
	}
	perLevel := make([]int, 4)
	for i, n := range nodes {
		if n.Index != perLevel[n.Level] {
			t.Fatalf("node %d: index %d, want %d", i, n.Index, perLevel[n.Level])
		}
		perLevel[n.Level]++
		if i == 0 {
			if n.Parent != -1 || n.Level != 0 {
				t.Fatalf("root %+v", n)
			}
			continue
		}
		if n.Parent >= i || nodes[n.Parent].Level != n.Level-1 {
			t.Fatalf("node %d %+v: bad parent", i, n)
		}
		if n.Attempt < 1 || n.Attempt > 3 {
			t.Fatalf("node %d attempt %d", i, n.Attempt)
		}
	}
	if !reflect.DeepEqual(perLevel, []int{1, 3, 9, 27}) {
		t.Fatalf("per level %v", perLevel)
	}
	// Time order: the second node is the first outer attempt, the third its
	// first middle attempt, the fourth the first final call.
	if nodes[3].Level != 3 || nodes[4].Level != 3 || nodes[5].Attempt != 3 || nodes[6].Level != 2 {
		t.Fatalf("not depth first: %+v", nodes[:7])
	}
	if _, err := a.Tree(39); !errors.Is(err, ErrTreeTooLarge) {
		t.Fatalf("Tree(39) = %v", err)
	}
}

// simulate is a literal, request-by-request model of Budget: the
// reference the closed form is checked against.
func simulate(b Budget) []int {
	procs := max(b.Processes, 1)
	tokens := make([]int64, procs)
	for i := range tokens {
		tokens[i] = b.Tokens
	}
	made := make([]int, b.Requests)
	for i := range made {
		made[i] = 1
	}
	take := func(i int) bool {
		p := i % procs
		if tokens[p] == 0 {
			return false
		}
		tokens[p]--
		made[i]++
		return true
	}
	if b.Order == Depth {
		for i := range made {
			for made[i] < b.Attempts && take(i) {
			}
		}
		return made
	}
	alive := make([]bool, b.Requests)
	for i := range alive {
		alive[i] = true
	}
	for round := 1; round < b.Attempts; round++ {
		for i := range made {
			if alive[i] && !take(i) {
				alive[i] = false
			}
		}
	}
	return made
}

func TestBudgetArticle(t *testing.T) {
	r, err := Budget{Requests: 100, Attempts: 3, Tokens: 20}.Run()
	if err != nil {
		t.Fatal(err)
	}
	if r.TotalAttempts != 120 || r.Unbudgeted != 300 || r.Retries != 20 || !reflect.DeepEqual(r.Histogram, []int64{80, 20, 0}) {
		t.Fatalf("%+v", r)
	}
	r, _ = Budget{Requests: 100, Attempts: 3, Tokens: 20, Processes: 10}.Run()
	if r.Retries != 200 || r.TotalAttempts != 300 {
		t.Fatalf("ten processes: %+v", r)
	}
	r, _ = Budget{Requests: 100, Attempts: 3, Tokens: 20, Order: Depth}.Run()
	if r.TotalAttempts != 120 || !reflect.DeepEqual(r.Histogram, []int64{90, 0, 10}) {
		t.Fatalf("depth: %+v", r)
	}
}

func TestBudgetAgainstSimulation(t *testing.T) {
	for _, order := range []Order{Rounds, Depth} {
		for req := 0; req <= 23; req += 1 {
			for att := 1; att <= 5; att++ {
				for tok := int64(0); tok <= 30; tok += 3 {
					for _, procs := range []int{1, 2, 3, 7, 30} {
						b := Budget{Requests: req, Attempts: att, Tokens: tok, Processes: procs, Order: order}
						made := simulate(b)
						r, err := b.Run()
						if err != nil {
							t.Fatal(err)
						}
						hist := make([]int64, att)
						var total int64
						for i, m := range made {
							hist[m-1]++
							total += int64(m)
							if got := b.AttemptsOf(i); got != m {
								t.Fatalf("%+v: AttemptsOf(%d) = %d, simulation %d", b, i, got, m)
							}
						}
						if !reflect.DeepEqual(hist, r.Histogram) || total != r.TotalAttempts {
							t.Fatalf("%+v: %+v, simulation %v total %d", b, r, hist, total)
						}
						used := r.Retries
						if used+r.TokensLeft != tok*int64(procs) {
							t.Fatalf("%+v: tokens used %d + left %d != %d", b, used, r.TokensLeft, tok*int64(procs))
						}
					}
				}
			}
		}
	}
}

func TestBudgetBad(t *testing.T) {
	for _, b := range []Budget{{Requests: -1, Attempts: 1}, {Requests: 1}, {Requests: 1, Attempts: 1, Tokens: -1}, {Requests: 1, Attempts: 2, Order: 9}} {
		if _, err := b.Run(); err == nil {
			t.Errorf("%+v accepted", b)
		}
	}
}

func TestDeadline(t *testing.T) {
	for _, c := range []struct {
		d        Deadline
		worst    float64
		fits     bool
		rem, bud []float64
		admitted int
	}{
		{Deadline{3, 200, []float64{50, 100}, 600, 0}, 750, false, []float64{600, 350, 50}, []float64{200, 200, 50}, 3},
		{Deadline{3, 200, []float64{50, 100}, 600, 60}, 750, false, []float64{600, 350, 50}, []float64{200, 200, 50}, 2},
		{Deadline{3, 200, []float64{50, 100}, 1000, 0}, 750, true, []float64{1000, 750, 450}, []float64{200, 200, 200}, 3},
		{Deadline{1, 200, nil, 100, 0}, 200, false, []float64{100}, []float64{100}, 1},
		{Deadline{3, 100, []float64{500, 10}, 300, 0}, 810, false, []float64{300, 0, 0}, []float64{100, 0, 0}, 1},
		{Deadline{2, 100, []float64{0}, 200, 0}, 200, true, []float64{200, 100}, []float64{100, 100}, 2},
	} {
		r, err := c.d.Run()
		if err != nil {
			t.Fatal(err)
		}
		if r.WorstCaseMS != c.worst || r.Fits != c.fits || !reflect.DeepEqual(r.RemainingBeforeAttemptMS, c.rem) ||
			!reflect.DeepEqual(r.AttemptBudgetMS, c.bud) || r.AttemptsAdmitted != c.admitted {
			t.Errorf("%+v: %+v", c.d, r)
		}
	}
}

func TestDeadlineBad(t *testing.T) {
	for _, d := range []Deadline{
		{0, 200, nil, 600, 0},
		{3, 200, []float64{50}, 600, 0},
		{2, 0, []float64{50}, 600, 0},
		{2, 200, []float64{math.NaN()}, 600, 0},
		{2, 200, []float64{1}, math.Inf(1), 0},
		{2, 200, []float64{1}, 600, -1},
	} {
		if _, err := d.Run(); err == nil {
			t.Errorf("%+v accepted", d)
		}
	}
}

func ExampleAmplify() {
	a, _ := Amplify([]int{3, 3, 3})
	fmt.Println(a.CallsPerLevel, a.FinalCalls())
	// Output: [3 9 27] 27
}

func ExampleBudget() {
	r, _ := Budget{Requests: 100, Attempts: 3, Tokens: 20}.Run()
	fmt.Println(r.TotalAttempts, r.Histogram, r.Unbudgeted)
	// Output: 120 [80 20 0] 300
}

func ExampleDeadline() {
	r, _ := Deadline{Attempts: 3, TimeoutMS: 200, WaitsMS: []float64{50, 100}, DeadlineMS: 600}.Run()
	fmt.Println(r.WorstCaseMS, r.RemainingBeforeAttemptMS, r.AttemptBudgetMS)
	// Output: 750 [600 350 50] [200 200 50]
}
