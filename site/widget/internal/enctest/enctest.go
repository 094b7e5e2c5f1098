// Package enctest holds types that reach every rule of encgen's encoders
// that the calculators' results do not (embedded structs, ",string",
// "-", arrays, []byte, integer and TextMarshaler map keys, MarshalJSON
// and MarshalText on values and pointers). encgen writes their encoders
// into site/widget's encode_gen_test.go, and the tests there compare them
// with encoding/json on random values.
package enctest

import (
	"errors"
	"strconv"
)

// Types returns a zero value of each type the tests encode.
func Types() []any {
	return []any{Kinds{}, Embeds{}, Conflict{}, Methods{}, Omits{}, []Methods(nil), map[int8]Inner(nil), [2]PtrJSON{}}
}

// Kinds has a field of each kind.
type Kinds struct {
	B     bool
	I     int `json:"i"`
	I8    int8
	I16   int16 `json:",omitempty"`
	I32   int32
	I64   int64 `json:"i64,string"`
	U     uint
	U8    uint8 `json:"u8,string"`
	U16   uint16
	U32   uint32
	U64   uint64
	UP    uintptr
	F32   float32
	F64   float64 `json:"f64,string"`
	S     string  `json:"s,string"`
	QB    bool    `json:"qb,string"`
	PS    *string `json:"ps,string"`
	PPF   **float64
	Bytes []byte `json:"bytes"`
	Arr   [3]int `json:"arr"`
	Empty [0]int `json:"empty,omitempty"`
	M     map[string][]float32
	MI    map[int64]string
	MU    map[uint16]*int
	MT    map[TextKey]int
	Named Floats
	Skip  int `json:"-"`
	//lint:ignore SA5008 encoding/json names this field "-"
	Dash int `json:"-,"`
	//lint:ignore SA5008 an invalid name: the field is named Bad
	Bad  int `json:"a\"b"`
	HTML int `json:"<&>"`
	hide int // unexported: not encoded
}

// Hide returns the unexported field.
func (k Kinds) Hide() int { return k.hide }

// Floats is a named list.
type Floats []float64

// TextKey is a map key with MarshalText.
type TextKey string

func (k TextKey) MarshalText() ([]byte, error) { return []byte("k:" + string(k)), nil }

// Inner is embedded.
type Inner struct {
	A int    `json:"a"`
	B string `json:"b,omitempty"`
	C []int
}

// Other is embedded by pointer.
type Other struct {
	A int    // "A": not the same name as Inner's "a"
	D string `json:"d"`
	E *Inner
}

// Embeds embeds by value and by pointer.
type Embeds struct {
	Inner
	*Other
	D     int `json:"d"` // shallower than Other.D: wins
	Named Inner
}

// Conflict has two fields of the same name at the same depth: both are
// dropped; and a tagged field that wins over an untagged one.
type Conflict struct {
	Left
	Right
	X int
}

// Left and Right are embedded side by side.
type Left struct {
	Same int
	T    int `json:"t"`
}

type Right struct {
	Same int
	T    int
}

// ValJSON has MarshalJSON on its value.
type ValJSON struct{ N int }

func (v ValJSON) MarshalJSON() ([]byte, error) {
	if v.N < 0 {
		return []byte(` { "n" : [` + strconv.Itoa(v.N) + `, "<\u2028>"] } `), nil
	}
	return []byte(strconv.Itoa(v.N)), nil
}

// PtrJSON has MarshalJSON on its pointer: used when addressable.
type PtrJSON struct{ N int }

func (p *PtrJSON) MarshalJSON() ([]byte, error) { return []byte(strconv.Itoa(p.N * 10)), nil }

// PtrText has MarshalText on its pointer.
type PtrText struct{ S string }

func (p *PtrText) MarshalText() ([]byte, error) { return []byte("<" + p.S + ">"), nil }

// ErrJSON's MarshalJSON fails on a negative N.
type ErrJSON struct{ N int }

func (e ErrJSON) MarshalJSON() ([]byte, error) {
	if e.N < 0 {
		return nil, errors.New("refused")
	}
	if e.N > 100 {
		return []byte("{nope"), nil
	}
	return []byte(`"ok"`), nil
}

// Methods holds the types with methods in each position.
type Methods struct {
	V    ValJSON
	PV   *ValJSON
	P    PtrJSON
	PP   *PtrJSON
	LP   []PtrJSON
	T    PtrText
	LT   []PtrText
	E    ErrJSON
	MK   map[TextKey]ValJSON
	MV   map[string]PtrJSON
	Ar   [1]PtrJSON
	Text *TextKey `json:",omitempty"`
}

// Omits has omitempty on every kind.
type Omits struct {
	B  bool            `json:"b,omitempty"`
	I  int             `json:"i,omitempty"`
	U  uint8           `json:"u,omitempty"`
	F  float64         `json:"f,omitempty"`
	S  string          `json:"s,omitempty"`
	P  *int            `json:"p,omitempty"`
	L  []int           `json:"l,omitempty"`
	M  map[string]bool `json:"m,omitempty"`
	A  [0]bool         `json:"a,omitempty"`
	St Inner           `json:"st,omitempty"` // a struct is never empty
}
