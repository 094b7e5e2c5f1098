package calc

import (
	"errors"
	"strconv"

	"retrylab/core/retry"
	"retrylab/core/standin/bigint"
)

// maxTreeNodes bounds the call tree returned for drawing.
const maxTreeNodes = 400

// AmplificationResult is the result of the amplification calculator.
// Call counts are exact integers of any size (100^10 for ten layers of
// 100 attempts), written as JSON numbers.
type AmplificationResult struct {
	Attempts      []int        `json:"attempts"`
	Levels        int          `json:"levels"`
	CallsPerLevel []bigint.Int `json:"calls_per_level"`
	FinalCalls    bigint.Int   `json:"final_calls"`
	// Tree is the call tree in time order (the request, then every call,
	// depth first) when it has at most 400 nodes; TreeNote says why it is
	// absent otherwise.
	Tree     []retry.Node `json:"tree,omitempty"`
	TreeNote string       `json:"tree_note,omitempty"`
}

// amplificationCalc declares the amplification calculator.
//
//retrylab:calculator article=1 order=20
func amplificationCalc() *Calculator {
	const name = "amplification"
	return &Calculator{
		Name:     name,
		Examples: []string{"attempts=1", "attempts=1,1,3", "attempts=3,3,3,3", "attempts=100,100,100,100,100,100,100,100,100,100"},
		Help:     "calls multiplied through nested layers that all retry (every final call fails)",
		Work:     amplificationWork, ServerWork: microWork * itemWork * (2*10 + maxTreeNodes), WorkParam: "attempts",
		Params: []Param{
			{Name: "attempts", Kind: IntList, Default: "3,3,3", Min: Incl(1), Max: Incl(100), MinLen: 1, MaxLen: 10,
				Step: 1, SliderMax: 10,
				Help: "attempts made by each layer, outermost first (1 = the layer does not retry)"},
		},
		Run: func(a Args) (any, error) {
			at := a.Ints("attempts")
			amp, err := retry.Amplify(at)
			if err != nil { // the declared range makes this unreachable
				return nil, Refuse(name, "attempts", CodeConstraint, "detail.amplification.attempts", "{reason}", "reason", err.Error())
			}
			res := AmplificationResult{
				Attempts:      at,
				Levels:        len(at),
				CallsPerLevel: amp.CallsPerLevel,
				FinalCalls:    amp.FinalCalls(),
			}
			tree, err := amp.Tree(maxTreeNodes)
			switch {
			case errors.Is(err, retry.ErrTreeTooLarge):
				res.TreeNote = "the call tree has " + amp.Nodes().String() + " nodes, more than the " + strconv.Itoa(maxTreeNodes) + " that can be drawn"
			case err != nil:
				return nil, err
			default:
				res.Tree = tree
			}
			return res, nil
		},
	}
}
