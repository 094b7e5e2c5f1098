package retry

import (
	"errors"
	"strconv"

	"retrylab/core/standin/bigint"
	"retrylab/core/standin/errwrap"
)

// Amplification is the count of calls through nested retrying layers when
// every final call fails, each layer learns of a failure only after the
// layer below has used all its attempts, and nothing is cancelled.
type Amplification struct {
	// Attempts are the attempts of each layer, outermost first (each >= 1).
	Attempts []int
	// CallsPerLevel[l] is the number of calls that layer l makes in total:
	// the product Attempts[0]·…·Attempts[l]. Exact at any size.
	CallsPerLevel []bigint.Int
}

// Amplify returns the calls made at each level by layers with the given
// attempts (outermost first). attempts must be non-empty with every
// element >= 1, else an error says which element is wrong.
func Amplify(attempts []int) (Amplification, error) {
	if len(attempts) == 0 {
		return Amplification{}, errors.New("retry: no layers")
	}
	a := Amplification{Attempts: append([]int(nil), attempts...)}
	prod := bigint.FromInt64(1)
	for i, n := range attempts {
		if n < 1 {
			return Amplification{}, errors.New("retry: layer " + strconv.Itoa(i) + " makes " + strconv.Itoa(n) + " attempts, want >= 1")
		}
		prod = prod.Mul(bigint.FromInt64(int64(n)))
		a.CallsPerLevel = append(a.CallsPerLevel, prod)
	}
	return a, nil
}

// FinalCalls returns the calls that reach the innermost layer's target:
// the product of all attempts (27 for 3,3,3).
func (a Amplification) FinalCalls() bigint.Int {
	if len(a.CallsPerLevel) == 0 {
		return bigint.Int{}
	}
	return a.CallsPerLevel[len(a.CallsPerLevel)-1]
}

// Nodes returns the number of nodes of the call tree: the original
// request and every call of every layer, 1 + Σ CallsPerLevel.
func (a Amplification) Nodes() bigint.Int {
	total := bigint.FromInt64(1)
	for _, c := range a.CallsPerLevel {
		total = total.Add(c)
	}
	return total
}

// Node is one vertex of a call tree. The root (Level 0) is the original
// request; a node of level l >= 1 is one call made by layer l-1 (layer 0
// being the outermost).
type Node struct {
	Level   int `json:"level"`   // 0 for the request, l for calls of layer l-1
	Index   int `json:"index"`   // position within its level, left to right, from 0
	Parent  int `json:"parent"`  // position of the parent in the node list; -1 for the root
	Attempt int `json:"attempt"` // 1-based attempt number among its siblings; 0 for the root
}

// ErrTreeTooLarge is wrapped by Tree when the tree has more nodes than the
// bound allows.
var ErrTreeTooLarge = errors.New("retry: call tree too large to draw")

// Tree enumerates the call tree of a in time order (depth first: a call
// precedes the calls it causes, and a layer's attempt k+1 follows every
// call caused by attempt k). It has 1 + Σ CallsPerLevel nodes; when that
// exceeds maxNodes, Tree returns nil and an error wrapping
// ErrTreeTooLarge that gives the count.
func (a Amplification) Tree(maxNodes int) ([]Node, error) {
	total := a.Nodes()
	count, ok := total.Int64()
	if !ok || count > int64(maxNodes) {
		return nil, errwrap.Detail(ErrTreeTooLarge, total.String()+" nodes, at most "+strconv.Itoa(maxNodes))
	}
	nodes := make([]Node, 0, count)
	next := make([]int, len(a.Attempts)+1) // next index in each level
	var walk func(level, parent, attempt int)
	walk = func(level, parent, attempt int) {
		self := len(nodes)
		nodes = append(nodes, Node{Level: level, Index: next[level], Parent: parent, Attempt: attempt})
		next[level]++
		if level == len(a.Attempts) {
			return
		}
		for k := 1; k <= a.Attempts[level]; k++ {
			walk(level+1, self, k)
		}
	}
	walk(0, -1, 0)
	return nodes, nil
}
