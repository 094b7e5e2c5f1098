package widget

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"retrylab/calc"
	"retrylab/core/bigint"
)

// sameAsJSON checks that appendJSON writes json.Marshal's bytes for v, or
// fails where it fails.
func sameAsJSON(t *testing.T, name string, v any) {
	t.Helper()
	want, werr := json.Marshal(v)
	got, gerr := appendJSON(nil, v)
	switch {
	case werr != nil && gerr == nil:
		t.Errorf("%s: encoding/json fails (%v), appendJSON writes %s", name, werr, got)
	case werr == nil && gerr != nil:
		t.Errorf("%s: appendJSON fails (%v), encoding/json writes %s", name, gerr, want)
	case werr == nil && !bytes.Equal(got, want):
		t.Errorf("%s:\n got %s\nwant %s", name, got, want)
	}
}

// calcQueries are accepted parameter sets beyond the defaults and the
// choices and booleans that TestEncodeCalculators walks by itself.
var calcQueries = map[string][]string{
	"attempts":      {"q=1&n=1000", "q=0&n=1", "q=0.9&n=3", "q=0.123456789&n=17"},
	"amplification": {"attempts=1", "attempts=1,1,3", "attempts=3,3,3,3", "attempts=100,100,100,100,100,100,100,100,100,100"},
	"budget":        {"tokens=0&order=depth", "processes=10", "requests=1000000&attempts=100", "requests=150"},
	"jitter":        {"width_ms=0.5&strategy=fixed", "waves=5&strategy=decorrelated", "clients=20000", "seed=12345678901234567890", "cap_ms=100"},
	"deadline":      {"attempts=1", "deadline_ms=1", "min_attempt_ms=100", "attempts=10"},
	"peak":          {"clients=1&bins=1&threshold=0", "clients=2000&bins=100&threshold=40", "threshold=14", "clients=100000&bins=7&threshold=20000"},
	"limits":        {"calls_per_min=0", "tokens_per_call=1"},
	"capacity":      {"rpm_limit=1", "prompt_tokens=0&max_output_tokens=1", "tpm_limit=1000000000000"},
	"concurrency":   {"max_concurrency=3", "rpm=0", "latency_s=0.001&rpm=1000000000"},
	"backoff":       {"jitter=false&retry_after_s=3", "workers=10000", "retry_after_s=0.1"},
	"idempotency-key": {`payload=[1,2]`, "payload=" + url.QueryEscape(`{"b":"<&>","a":[1.0,1e16,"é\u2028"]}`),
		"tenant=" + url.QueryEscape("a<b>&c") + "&task=" + url.QueryEscape("\u2029\x01\xff")},
	"dispatch": {"jobs=50", "samples=2000&jobs=200"},
}

// Every calculator's result, at its defaults, at each of its choices and
// booleans and at the queries above, encodes to json.Marshal's bytes.
func TestEncodeCalculators(t *testing.T) {
	for _, c := range calc.New().List() {
		queries := append([]string{""}, calcQueries[c.Name]...)
		for _, p := range c.Params {
			switch p.Kind {
			case calc.Choice:
				for _, ch := range p.Choices {
					queries = append(queries, p.Name+"="+url.QueryEscape(ch))
				}
			case calc.Bool:
				queries = append(queries, p.Name+"=true", p.Name+"=false")
			}
		}
		if _, ok := calcQueries[c.Name]; !ok {
			t.Errorf("%s: no queries in calcQueries", c.Name)
		}
		for _, query := range queries {
			q, err := url.ParseQuery(query)
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.Compute(q)
			if err != nil {
				t.Errorf("%s %q: %v", c.Name, query, err)
				continue
			}
			sameAsJSON(t, c.Name+" "+query, res)
		}
	}
}

type textKey string

func (k textKey) MarshalText() ([]byte, error) { return []byte("k:" + string(k)), nil }

type ptrText struct{ s string }

func (p *ptrText) MarshalText() ([]byte, error) { return []byte("<" + p.s + ">"), nil }

type valJSON struct{ n int }

func (v valJSON) MarshalJSON() ([]byte, error) {
	return []byte(" { \"n\" : [ " + strconv.Itoa(v.n) + " , \"<a&b>\u2028\" ] } "), nil
}

type ptrJSON struct{ n int }

func (p *ptrJSON) MarshalJSON() ([]byte, error) { return []byte(strconv.Itoa(p.n * 10)), nil }

type badJSON struct{}

func (badJSON) MarshalJSON() ([]byte, error) { return []byte("{nope"), nil }

type errJSON struct{}

func (errJSON) MarshalJSON() ([]byte, error) { return nil, errors.New("refused") }

type errText struct{}

func (errText) MarshalText() ([]byte, error) { return nil, errors.New("refused") }

type zeroer struct{ v int }

func (z zeroer) IsZero() bool { return z.v == 42 }

type Inner struct {
	A int    `json:"a"`
	B string `json:"b,omitempty"`
	C int
}

type Other struct {
	O int `json:"o"`
	C int
	D bool
}

type inner struct {
	E int `json:"e"`
	f int
}

type Tagged struct {
	A int `json:"a"`
}

type embeds struct {
	Inner
	*Other
	inner
	X int `json:"C"` // dominates Inner.C: shallower
}

type conflict struct {
	Inner
	Other // both have an untagged C at depth 1: neither is written
}

type tagWins struct {
	Tagged
	Untagged struct{ A int }
}

type kinds struct {
	B    bool    `json:"b"`
	I    int     `json:"i"`
	I8   int8    `json:"i8"`
	I16  int16   `json:"i16"`
	I32  int32   `json:"i32"`
	I64  int64   `json:"i64"`
	U    uint    `json:"u"`
	U8   uint8   `json:"u8"`
	U16  uint16  `json:"u16"`
	U32  uint32  `json:"u32"`
	U64  uint64  `json:"u64"`
	Ptr  uintptr `json:"ptr"`
	F32  float32 `json:"f32"`
	F64  float64 `json:"f64"`
	S    string  `json:"s"`
	Skip int     `json:"-"`
	//lint:ignore SA5008 the name "-", as encoding/json reads it
	Dash int `json:"-,"`
	//lint:ignore SA5008 an invalid name: encoding/json uses the Go name
	Bad   int     `json:"a\"b"`
	Plain int     // Go name
	Q     int     `json:"q,string"`
	QF    float64 `json:"qf,string"`
	QB    bool    `json:"qb,string"`
	QS    string  `json:"qs,string"`
	QP    *int    `json:"qp,string"`
	//lint:ignore SA5008 ,string on a list: encoding/json ignores it
	QL    []int          `json:"ql,string"`
	Esc   int            `json:"<&>"`
	IF    any            `json:"if"`
	Arr   [3]int         `json:"arr"`
	BArr  [2]byte        `json:"barr"`
	Bytes []byte         `json:"bytes"`
	Map   map[string]int `json:"map"`
	IMap  map[int]string `json:"imap"`
	UMap  map[uint8]bool `json:"umap"`
	TMap  map[textKey]int
	Big   *big.Int   `json:"big"`
	Bigs  []*big.Int `json:"bigs"`
	Raw   json.RawMessage
	Num   json.Number
	Time  time.Time
	//lint:ignore U1000 an unexported field, which the encoders skip
	unexp int
}

type omits struct {
	B   bool              `json:"b,omitempty"`
	I   int               `json:"i,omitempty"`
	U   uint              `json:"u,omitempty"`
	F   float64           `json:"f,omitempty"`
	S   string            `json:"s,omitempty"`
	P   *int              `json:"p,omitempty"`
	IF  any               `json:"if,omitempty"`
	L   []int             `json:"l,omitempty"`
	A   [0]int            `json:"a,omitempty"`
	M   map[string]string `json:"m,omitempty"`
	St  struct{}          `json:"st,omitempty"`
	Z   zeroer            `json:"z,omitzero"`
	ZP  *zeroer           `json:"zp,omitzero"`
	ZT  time.Time         `json:"zt,omitzero"`
	ZS  struct{ A int }   `json:"zs,omitzero"`
	ZI  isZeroer          `json:"zi,omitzero"`
	ZL  []int             `json:"zl,omitzero"`
	Big *big.Int          `json:"big,omitempty"`
}

type methods struct {
	V   valJSON
	PV  *valJSON
	P   ptrJSON // addressable only through a pointer to methods
	PP  *ptrJSON
	T   textKey
	PT  ptrText
	PPT *ptrText
	L   []ptrJSON // slice elements are addressable
	A   [2]ptrJSON
}

type node struct {
	Name string `json:"name"`
	Next *node  `json:"next"`
}

func TestEncodeValues(t *testing.T) {
	one := 1
	k := kinds{
		B: true, I: -1 << 62, I8: math.MinInt8, I16: math.MaxInt16, I32: math.MinInt32, I64: math.MinInt64,
		U: 1<<64 - 1, U8: 255, U16: 65535, U32: math.MaxUint32, U64: math.MaxUint64, Ptr: 7,
		F32: 3.4e38, F64: -0.000001, S: "é\u2028\u2029<a href=\"x\">&\\\x00\x1f\x7f\xff\t\n\r\b\f💩",
		Skip: 1, Dash: 2, Bad: 3, Plain: 4, Q: 5, QF: 1e-7, QB: true, QS: "a\"<b>", QP: &one, QL: []int{1},
		Esc: 6, IF: map[string]any{"z": 1, "a": []any{nil, "x", 2.5}}, Arr: [3]int{1, 2, 3}, BArr: [2]byte{1, 2},
		Bytes: []byte("hello, world\xff"), Map: map[string]int{"b": 2, "a": 1, "é": 3, "<": 4, "": 5},
		IMap: map[int]string{10: "x", -1: "y", 2: "z"}, UMap: map[uint8]bool{3: true, 20: false},
		TMap: map[textKey]int{"b": 1, "a": 2},
		Big:  new(big.Int).Lsh(big.NewInt(-3), 200), Bigs: []*big.Int{big.NewInt(0), nil, big.NewInt(1e18)},
		Raw: json.RawMessage(` [ 1 , {"a" : "<b>"} ] `), Num: "-12.5e+3", Time: time.Date(2026, 11, 30, 13, 0, 0, 5, time.UTC),
	}
	z42 := zeroer{42}
	var nilZ *zeroer
	huge, _ := bigint.Parse("-340282366920938463463374607431768211456")
	cases := []struct {
		name string
		v    any
	}{
		{"nil", nil},
		{"kinds", k},
		{"kinds pointer", &k},
		{"zero kinds", kinds{}},
		{"omit empty", omits{}},
		{"omit empty zeroers", omits{Z: z42, ZP: &z42, ZI: nilZ, ZL: []int{}}},
		{"omit filled", omits{B: true, I: 1, U: 1, F: -0.5, S: "s", P: &one, IF: 0, L: []int{0}, M: map[string]string{"": ""},
			Z: zeroer{1}, ZP: &zeroer{1}, ZT: time.Unix(1, 0).UTC(), ZS: struct{ A int }{1}, ZI: zeroer{1}, ZL: []int{}, Big: big.NewInt(0)}},
		{"embeds", embeds{Inner: Inner{1, "x", 2}, Other: &Other{3, 7, true}, inner: inner{4, 5}, X: 6}},
		{"embeds nil pointer", embeds{Inner: Inner{A: 1}}},
		{"conflict", conflict{Inner{1, "", 2}, Other{3, 4, true}}},
		{"tag wins", tagWins{Tagged{1}, struct{ A int }{2}}},
		{"methods value", methods{V: valJSON{1}, PV: &valJSON{2}, P: ptrJSON{3}, PP: &ptrJSON{4}, T: "t", PT: ptrText{"x"},
			PPT: &ptrText{"y"}, L: []ptrJSON{{5}, {6}}, A: [2]ptrJSON{{7}, {8}}}},
		{"methods pointer", &methods{V: valJSON{1}, P: ptrJSON{3}, PT: ptrText{"x"}, L: []ptrJSON{}, A: [2]ptrJSON{{7}, {8}}}},
		{"map of marshalers", map[string]ptrJSON{"a": {1}}},
		{"map of pointer marshalers", map[string]*ptrJSON{"a": {1}, "b": nil}},
		{"nil map", map[string]int(nil)},
		{"empty map", map[string]int{}},
		{"nil slice", []int(nil)},
		{"empty slice", []float64{}},
		{"nil bytes", []byte(nil)},
		{"bytes 0-5", [][]byte{{}, {1}, {1, 2}, {1, 2, 3}, {1, 2, 3, 4}, {0xff, 0xfe, 0xfd, 0xfc, 0xfb}}},
		{"named float slice", []time.Duration{1, 2}},
		{"float32s", []float32{0, 1e-6, 9.99999e-7, 1e21, 1e20, 3.4028235e38, 1.4e-45, -0.1, 16777216}},
		{"float64s", []float64{0, math.Copysign(0, -1), 1e-6, 9.999999999999999e-7, 1e21, 999999999999999999999, 1e20,
			math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1, 1.0 / 3, 123456789, 1e-300, -2.5e-10, 100}},
		{"ints", []int64{math.MinInt64, -1, 0, math.MaxInt64}},
		{"interface list", []any{1, "a", nil, 2.5, true, []int{1}, map[string]any{}, &one, big.NewInt(7)}},
		{"json.RawMessage nil", json.RawMessage(nil)},
		{"json.Number empty", json.Number("")},
		{"nil big", (*big.Int)(nil)},
		{"core/bigint", struct {
			A bigint.Int   `json:"a"`
			L []bigint.Int `json:"l"`
			P *bigint.Int  `json:"p"`
			N *bigint.Int  `json:"n"`
			I any
		}{A: huge, L: []bigint.Int{{}, bigint.FromInt64(-27)}, P: &huge, I: bigint.FromInt64(7)}},
		{"pointer chain", &node{"a", &node{"b", nil}}},
		{"error NaN", math.NaN()},
		{"error +Inf", []float64{1, math.Inf(1)}},
		{"error -Inf float32", float32(math.Inf(-1))},
		{"error chan", make(chan int)},
		{"error func", struct{ F func() }{}},
		{"error complex", complex(1, 2)},
		{"error map key", map[[2]int]int{{1, 2}: 3}},
		{"error nil map key", map[[2]int]int(nil)},
		{"nil slice of chans", []chan int(nil)},
		{"error bad MarshalJSON", badJSON{}},
		{"error MarshalJSON", []errJSON{{}}},
		{"error MarshalText", errText{}},
		{"error MarshalText key", map[errTextKey]int{{a: [1]int{1}}: 1}},
		{"error json.Number", json.Number("1.")},
		{"error invalid RawMessage", json.RawMessage(`{"a":`)},
	}
	for _, tc := range cases {
		sameAsJSON(t, tc.name, tc.v)
	}
	// a cycle is an error, not a stack overflow
	n := &node{Name: "loop"}
	n.Next = n
	sl := make([]any, 1)
	sl[0] = sl
	m := map[string]any{}
	m["m"] = m
	for _, v := range []any{n, sl, m} {
		if _, err := appendJSON(nil, v); err == nil || !strings.Contains(err.Error(), "cycle") {
			t.Errorf("cycle through %T: %v", v, err)
		}
	}
	// errors read as encoding/json's
	for _, v := range []any{math.NaN(), make(chan int), []float64{math.Inf(-1)}} {
		_, gerr := appendJSON(nil, v)
		_, werr := json.Marshal(v)
		if gerr == nil || werr == nil || gerr.Error() != werr.Error() {
			t.Errorf("%T: error %v, encoding/json's %v", v, gerr, werr)
		}
	}
}

type errTextKey struct{ a [1]int } // an array: not a key kind json takes without MarshalText

func (errTextKey) MarshalText() ([]byte, error) { return nil, errors.New("refused") }

// floatsAndStrings holds the fuzzer's values in every position where the
// encoder treats them differently.
type floatsAndStrings struct {
	F   float64            `json:"f"`
	F32 float32            `json:"f32"`
	QF  float64            `json:"qf,string"`
	S   string             `json:"s"`
	QS  string             `json:"qs,string"`
	M   map[string]float64 `json:"m"`
	L   []float64          `json:"l"`
	B   []byte             `json:"b"`
	R   json.RawMessage    `json:"r,omitempty"`
}

// FuzzEncode: appendJSON and json.Marshal agree on any float and string
// (and on any bytes given as a RawMessage).
func FuzzEncode(f *testing.F) {
	f.Add(uint64(0), "", []byte(nil))
	f.Add(math.Float64bits(1e21), "<&>\u2028\u2029", []byte(`{"a" : [1, 2]}`))
	f.Add(math.Float64bits(9.999999e-7), "\xff\x00é", []byte(`"\ud800"`))
	f.Add(math.Float64bits(math.NaN()), "a\"b\\c", []byte(`nul`))
	f.Add(math.Float64bits(math.Copysign(0, -1)), "💩\x7f", []byte(" 1e400 "))
	f.Fuzz(func(t *testing.T, bits uint64, s string, raw []byte) {
		x := math.Float64frombits(bits)
		v := floatsAndStrings{F: x, F32: float32(x), QF: x, S: s, QS: s,
			M: map[string]float64{s: x, s + "!": -x}, L: []float64{x, float64(float32(x))}, B: []byte(s), R: raw}
		if len(raw) == 0 {
			v.R = nil
		}
		sameAsJSON(t, "fuzz", v)
		sameAsJSON(t, "fuzz float", x)
		sameAsJSON(t, "fuzz string", s)
	})
}

// splitList reads what json.Unmarshal into a []json.RawMessage reads.
func FuzzSplitList(f *testing.F) {
	for _, s := range []string{`[1, "a", [2, 3], {"b": [4]}, null ]`, `[]`, `[ ]`, `[" ] , \" "]`, `"a"`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		var want []json.RawMessage
		werr := json.Unmarshal(b, &want)
		got, ok := splitList(b)
		if (werr == nil) != ok || len(got) != len(want) {
			t.Fatalf("splitList(%q) = %q %v, json.Unmarshal: %q %v", b, got, ok, want, werr)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("splitList(%q)[%d] = %q, json.Unmarshal: %q", b, i, got[i], want[i])
			}
		}
	})
}

// BenchmarkEncode compares appendJSON with json.Marshal on each
// calculator's result at its defaults and on the largest histogram.
func BenchmarkEncode(b *testing.B) {
	reg := calc.New()
	type named struct {
		name string
		res  any
	}
	var all []named
	for _, c := range reg.List() {
		res, err := c.Compute(nil)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, named{c.Name, res})
	}
	c, _ := reg.Lookup("jitter")
	big, err := c.Compute(url.Values{"width_ms": {"0.001"}})
	if err != nil {
		b.Fatal(err)
	}
	all = append(all, named{"jitter-100000-bins", big})
	for _, n := range all {
		b.Run(n.name+"/appendJSON", func(b *testing.B) {
			for b.Loop() {
				if _, err := appendJSON(nil, n.res); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(n.name+"/json.Marshal", func(b *testing.B) {
			for b.Loop() {
				if _, err := json.Marshal(n.res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// decodeNodes reads a call tree as json.Unmarshal into []treeNode does.
func FuzzDecodeNodes(f *testing.F) {
	for _, s := range []string{
		`[{"level":0,"index":0,"parent":-1,"attempt":0},{"level":1,"index":0,"parent":0,"attempt":1}]`,
		`[{"LEVEL":2,"Index":-0,"parent":null,"x":{"level":9}},null]`, `[{"level":1,"level":2}]`, `[{"le\u0076el":3}]`,
		`[{"level":1.0}]`, `[{"level":1e2}]`, `[{"level":"1"}]`, `[{"level":true}]`, `[{"level":[1]}]`, `[5]`, `["x"]`, `[[]]`,
		`[{"level":99999999999999999999}]`, `[{"level":-9223372036854775808}]`, `[{"level":9223372036854775807}]`, `[]`, `{}`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) || len(bytes.TrimSpace(b)) == 0 || bytes.TrimSpace(b)[0] != '[' {
			return // decodeNodes reads a list of a valid result
		}
		var want []treeNode
		werr := json.Unmarshal(b, &want)
		got, ok := decodeNodes(b)
		if (werr == nil) != ok || ok && !slices.Equal(got, want) {
			t.Fatalf("decodeNodes(%q) = %v %v; json.Unmarshal: %v %v", b, got, ok, want, werr)
		}
	})
}
