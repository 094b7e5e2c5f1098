package widget

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/core/standin/bigint"
	"retrylab/site/widget/internal/enctest"
)

// encodeBytes runs the dispatcher enc on v: the bytes it writes, whether
// it knows v's type, and its error.
func encodeBytes(enc encoder, v any) ([]byte, bool, error) {
	e := &jsonEnc{}
	ok := enc(e, v)
	return e.b, ok, e.err
}

// sameAsJSON checks that encodeResult writes json.Marshal's bytes for v,
// or fails where it fails, and that the members it marks are the
// object's members: joined again they give the same bytes.
// typedListsMatch: the typed list jsonEnc hands the generic bars for a
// top-level field is the field's JSON, number for number, and every
// top-level list of numbers has one, but for lists of big integers
// (amplification's calls per level can pass 2^63: the tree draws them).
func typedListsMatch(t *testing.T, name string, r *result) {
	t.Helper()
	for i, f := range r.list {
		typed := r.nums[i].floats()
		parsed, isNums := numList(f.Raw)
		switch {
		case typed == nil && isNums && len(parsed) > 0 && f.Name != "calls_per_level":
			t.Errorf("%s: field %s is a list of numbers, %s, but the generic bars get no typed list", name, f.Name, short(f.Raw))
		case typed != nil && (!isNums || !slices.Equal(typed, parsed)):
			t.Errorf("%s: field %s: typed list %v, JSON %s", name, f.Name, typed, short(f.Raw))
		}
	}
}

func sameAsJSON(t *testing.T, name string, v any) {
	t.Helper()
	want, werr := json.Marshal(v)
	got, ok, gerr := encodeBytes(encodeResult, v)
	if ok && werr == nil && gerr == nil {
		r, err := encodeAll(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		joined := []byte{'{'}
		for i, f := range r.list {
			if i > 0 {
				joined = append(joined, ',')
			}
			k, _ := json.Marshal(f.Name)
			joined = append(append(append(joined, k...), ':'), f.Raw...)
		}
		joined = append(joined, '}')
		if !bytes.Equal(joined, want) {
			t.Errorf("%s: the marked members do not make the object:\n got %s\nwant %s", name, joined, want)
		}
		typedListsMatch(t, name, r)
	}
	switch {
	case !ok:
		t.Errorf("%s: no generated encoder for %T (go generate ./site/widget)", name, v)
	case werr != nil && gerr == nil:
		t.Errorf("%s: encoding/json fails (%v), encodeResult writes %s", name, werr, got)
	case werr == nil && gerr != nil:
		t.Errorf("%s: encodeResult fails (%v), encoding/json writes %s", name, gerr, want)
	case werr != nil && gerr.Error() != werr.Error():
		t.Errorf("%s: encodeResult fails with %q, encoding/json with %q", name, gerr, werr)
	case werr == nil && !bytes.Equal(got, want):
		t.Errorf("%s:\n got %s\nwant %s", name, got, want)
	}
}

// Every calculator's result, at its defaults, at each of its choices and
// booleans and at its Examples, has a generated encoder that writes
// json.Marshal's bytes: a calculator whose result type has none fails
// here.
func TestEncodeCalculators(t *testing.T) {
	for _, c := range calc.New().List() {
		queries := append([]string{""}, c.Examples...)
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

// resultTypes returns the result type of each calculator, by name.
func resultTypes(tb testing.TB) map[string]reflect.Type {
	types := map[string]reflect.Type{}
	for _, c := range calc.New().List() {
		res, err := c.Compute(nil)
		if err != nil {
			tb.Fatalf("%s: %v", c.Name, err)
		}
		types[c.Name] = reflect.TypeOf(res)
	}
	return types
}

// Every golden result of core/calc/testdata/golden, read back into its type,
// encodes to the golden file's bytes (compacted) and to json.Marshal's.
func TestEncodeCalcGoldens(t *testing.T) {
	types := resultTypes(t)
	files, err := filepath.Glob("../../core/calc/testdata/golden/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		base := strings.TrimSuffix(filepath.Base(file), ".json")
		var typ reflect.Type
		for name, rt := range types { // the longest calculator name the file starts with
			if (base == name || strings.HasPrefix(base, name+"-")) && (typ == nil || len(name) > len(typ.Name())) {
				typ = rt
			}
		}
		if typ == nil {
			t.Errorf("%s: no calculator", file)
			continue
		}
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var tree any
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		p := reflect.New(typ)
		if err := fromJSON(p.Elem(), tree); err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		var want bytes.Buffer
		if err := json.Compact(&want, raw); err != nil {
			t.Fatal(err)
		}
		got, ok, err := encodeBytes(encodeResult, p.Elem().Interface())
		if !ok || err != nil || !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: encodeResult %v %v:\n got %s\nwant %s", file, ok, err, got, want.Bytes())
		}
		sameAsJSON(t, file, p.Elem().Interface())
	}
}

// fromJSON sets v from x, a value json.Decoder with UseNumber read, as
// json.Unmarshal would (which cannot: bigint.Int has no UnmarshalJSON).
func fromJSON(v reflect.Value, x any) error {
	if x == nil {
		v.SetZero()
		return nil
	}
	if v.Type() == reflect.TypeFor[bigint.Int]() {
		n, ok := bigint.Parse(string(x.(json.Number)))
		if !ok {
			return errors.New("not an integer: " + string(x.(json.Number)))
		}
		v.Set(reflect.ValueOf(n))
		return nil
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(x.(bool))
	case reflect.Int, reflect.Int64:
		n, err := x.(json.Number).Int64()
		v.SetInt(n)
		return err
	case reflect.Float64:
		f, err := x.(json.Number).Float64()
		v.SetFloat(f)
		return err
	case reflect.String:
		v.SetString(x.(string))
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		if err := fromJSON(p.Elem(), x); err != nil {
			return err
		}
		v.Set(p)
	case reflect.Slice:
		list := x.([]any)
		s := reflect.MakeSlice(v.Type(), len(list), len(list))
		for i, e := range list {
			if err := fromJSON(s.Index(i), e); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for k, e := range x.(map[string]any) {
			ev := reflect.New(v.Type().Elem()).Elem()
			if err := fromJSON(ev, e); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), ev)
		}
		v.Set(m)
	case reflect.Struct:
		obj := x.(map[string]any)
		seen := 0
		for i := range v.NumField() {
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			if e, ok := obj[name]; ok {
				seen++
				if err := fromJSON(v.Field(i), e); err != nil {
					return errors.New(name + ": " + err.Error())
				}
			}
		}
		if seen != len(obj) {
			return errors.New("fields the type does not have")
		}
	default:
		return errors.New("fromJSON: no " + v.Type().String())
	}
	return nil
}

// filler makes random values of any type encgen encodes, in every case
// the encoder treats differently: nil and empty lists and maps, nil
// pointers, zero values against omitempty, floats in 'f' and 'e' form
// (now and then NaN or an infinity), strings with characters to escape.
type filler struct {
	r    *rand.Rand
	strs []string
	fs   []float64
}

func newFiller(seed uint64, s string, x float64) *filler {
	return &filler{r: rand.New(rand.NewPCG(seed, 1)),
		strs: []string{"", "a", s, "<&>", "\u2028\u2029", "\x00\x1f\"\\", "\xff\xfe", "é💩", "k" + s},
		fs: []float64{0, math.Copysign(0, -1), 1, -1.5, 1e21, 9.999999e-7, 1e-6, 1e20, 123456789.125, math.MaxFloat64,
			math.SmallestNonzeroFloat64, 1.0 / 3, x, -x}}
}

func (f *filler) fill(v reflect.Value) {
	r := f.r
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch r.IntN(4) {
		case 0:
			v.SetInt(0)
		case 1:
			v.SetInt(int64(r.Uint64()))
		default:
			v.SetInt(r.Int64N(2000) - 1000)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(r.Uint64() >> r.UintN(64))
	case reflect.Float32, reflect.Float64:
		var x float64
		switch r.IntN(8) {
		case 0:
			x = f.fs[r.IntN(len(f.fs))]
		case 1:
			x = math.Float64frombits(r.Uint64())
		case 2:
			x = float64(r.Int64N(1000))
		default:
			x = (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(50)-25))
		}
		if r.IntN(200) == 0 {
			x = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[r.IntN(3)]
		}
		v.SetFloat(x)
	case reflect.String:
		v.SetString(f.strs[r.IntN(len(f.strs))])
	case reflect.Pointer:
		if r.IntN(3) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem())
		v.Set(p)
	case reflect.Slice:
		switch r.IntN(4) {
		case 0:
			v.SetZero()
			return
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		s := reflect.MakeSlice(v.Type(), r.IntN(5)+1, 5)
		for i := range s.Len() {
			f.fill(s.Index(i))
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			f.fill(v.Index(i))
		}
	case reflect.Map:
		switch r.IntN(4) {
		case 0:
			v.SetZero()
			return
		case 1:
			v.Set(reflect.MakeMap(v.Type()))
			return
		}
		m := reflect.MakeMap(v.Type())
		for range r.IntN(6) + 1 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			f.fill(k)
			f.fill(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		if v.Type().PkgPath() == "retrylab/core/standin/bigint" {
			// bigint.Int: its digits through its JSON
			digits := strings.TrimLeft(strconvDigits(r), "0")
			if digits == "" {
				digits = "0"
			} else if r.IntN(2) == 0 {
				digits = "-" + digits
			}
			x, ok := bigint.Parse(digits)
			if !ok {
				panic("bigint.Parse(" + digits + ")")
			}
			v.Set(reflect.ValueOf(x))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i))
			}
		}
	default:
		panic("filler: no values of " + v.Type().String())
	}
}

func strconvDigits(r *rand.Rand) string {
	b := make([]byte, r.IntN(60)+1)
	for i := range b {
		b[i] = byte('0' + r.IntN(10))
	}
	return string(b)
}

// Random values of every result type encode to json.Marshal's bytes.
func TestEncodeRandom(t *testing.T) {
	types := resultTypes(t)
	names := make([]string, 0, len(types))
	for n := range types {
		names = append(names, n)
	}
	slices.Sort(names)
	f := newFiller(1, "s", 0.1)
	for _, n := range names {
		for i := range 300 {
			v := reflect.New(types[n]).Elem()
			f.fill(v)
			sameAsJSON(t, n+" "+string(rune('0'+i%10)), v.Interface())
		}
	}
}

// FuzzEncode: random values of every result type, drawn from the seed
// with the fuzzer's string and float among them, encode to json.Marshal's
// bytes.
func FuzzEncode(f *testing.F) {
	f.Add(uint64(0), "", uint64(0))
	f.Add(uint64(1), "<&>\u2028\u2029", math.Float64bits(1e21))
	f.Add(uint64(2), "\xff\x00é", math.Float64bits(9.999999e-7))
	f.Add(uint64(3), "a\"b\\c", math.Float64bits(math.NaN()))
	f.Add(uint64(4), "💩\x7f", math.Float64bits(math.Copysign(0, -1)))
	types := resultTypes(f)
	f.Fuzz(func(t *testing.T, seed uint64, s string, bits uint64) {
		fl := newFiller(seed, s, math.Float64frombits(bits))
		for n, typ := range types {
			v := reflect.New(typ).Elem()
			fl.fill(v)
			sameAsJSON(t, n, v.Interface())
		}
	})
}

// A value of a type no calculator returns (JSON text included) is a clear
// error, not a panic.
func TestDecodeUnknownType(t *testing.T) {
	for _, v := range []any{nil, make(chan int), []int{1}, struct{ A int }{1}, &calc.AttemptsResult{}, citeResult{}, json.RawMessage(`{"a":1}`)} {
		_, err := encodeAll(v)
		if err == nil || !strings.Contains(err.Error(), "go generate ./site/widget") {
			t.Errorf("%T: %v", v, err)
		}
	}
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

// BenchmarkEncode compares encodeResult with json.Marshal on each
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
		b.Run(n.name+"/encodeResult", func(b *testing.B) {
			for b.Loop() {
				if _, _, err := encodeBytes(encodeResult, n.res); err != nil {
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

// encgen's encoders follow encoding/json on the types of package enctest,
// which reach the rules no result type reaches yet (embedded structs,
// ",string", arrays, []byte, integer and TextMarshaler map keys, methods
// on values and on pointers): random values of each encode alike.
func TestEncodeFeatures(t *testing.T) {
	f := newFiller(7, "<s>", 1e300)
	for _, zero := range enctest.Types() {
		for i := range 500 {
			v := reflect.New(reflect.TypeOf(zero)).Elem()
			f.fill(v)
			want, werr := json.Marshal(v.Interface())
			got, ok, gerr := encodeBytes(encodeTestValue, v.Interface())
			switch {
			case !ok:
				t.Fatalf("%T: no encoder in encode_gen_test.go (go generate ./site/widget)", zero)
			case (werr == nil) != (gerr == nil):
				t.Errorf("%T #%d: error %v, encoding/json's %v", zero, i, gerr, werr)
			case werr != nil && !strings.Contains(werr.Error(), "invalid character") && gerr.Error() != werr.Error():
				// (a MarshalJSON that writes invalid JSON: only
				// encoding/json's message says where)
				t.Errorf("%T #%d: error %q, encoding/json's %q", zero, i, gerr, werr)
			case werr == nil && !bytes.Equal(got, want):
				t.Errorf("%T #%d:\n got %s\nwant %s", zero, i, got, want)
			}
		}
	}
}
