package widget

// The JSON encoder of results. It writes exactly the bytes encoding/json's
// Marshal writes (the API's bytes, and what data-value attributes hold), so
// that the WebAssembly playground does not link encoding/json (about 230 KB
// of code). It follows encode.go of the standard library: struct fields by
// json tags (name, omitempty, omitzero, string, "-"), embedded structs and
// their dominance rules, maps with sorted keys, floats in 'f' or 'e' form
// by the same cutoffs, strings with HTML-safe escapes, MarshalJSON and
// MarshalText called through interfaces (addressable values through their
// pointer, as encoding/json does), []byte as base64, nil as null, and the
// same errors for NaN, infinities, cycles and unsupported types.
// encode_test.go compares it with encoding/json on every calculator and on
// values made to reach each case.

import (
	"encoding"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"retrylab/core/canonjson"
)

// appendJSON appends the JSON encoding of v to dst: the bytes
// json.Marshal(v) returns. On an error dst is returned unchanged.
func appendJSON(dst []byte, v any) ([]byte, error) {
	if dst == nil {
		dst = make([]byte, 0, 512)
	}
	e := encoder{b: dst}
	if err := e.value(reflect.ValueOf(v), false); err != nil {
		return dst, err
	}
	return e.b, nil
}

type encoder struct {
	b        []byte
	ptrLevel uint
	ptrSeen  map[seenKey]struct{} // values being encoded, past startDetectingCycles levels
}

// seenKey identifies a pointer, map or slice being encoded.
type seenKey struct {
	ptr any // an unsafe.Pointer
	typ reflect.Type
	len int
}

// startDetectingCycles is encoding/json's depth of pointers, maps and
// slices beyond which it starts checking for cycles.
const startDetectingCycles = 1000

// jsonMarshaler is encoding/json's Marshaler.
type jsonMarshaler interface {
	MarshalJSON() ([]byte, error)
}

// isZeroer is what omitzero asks.
type isZeroer interface {
	IsZero() bool
}

var (
	marshalerType     = reflect.TypeFor[jsonMarshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	isZeroerType      = reflect.TypeFor[isZeroer]()
)

// typeInfo is what the encoder needs to know of a type, computed once.
type typeInfo struct {
	t                                      reflect.Type
	kind                                   reflect.Kind
	ptrMarshaler, marshaler, ptrText, text bool
	number                                 bool // encoding/json's Number
	byteSlice                              bool // base64
	fields                                 []*encField
	elem                                   lazyInfo // of the elements, the pointee
}

// lazyInfo is the typeInfo of a type, found on first use (a type may
// refer to itself).
type lazyInfo struct {
	p atomic.Pointer[typeInfo]
}

func (l *lazyInfo) get(t reflect.Type) *typeInfo {
	if ti := l.p.Load(); ti != nil {
		return ti
	}
	ti := infoOf(t)
	l.p.Store(ti)
	return ti
}

type encField struct {
	name      string // the JSON name
	key       string // `"name":`, HTML-escaped
	tag       bool
	index     []int
	typ       reflect.Type
	omitEmpty bool
	omitZero  bool
	declared  reflect.Type // the field's type
	info      lazyInfo     // of declared
	quoted    bool
}

// typeInfos caches typeInfo by reflect.Type (as encoding/json caches its
// encoders): a type's fields are read once per program, not once per result.
var typeInfos sync.Map // reflect.Type → *typeInfo

func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := &typeInfo{
		t:         t,
		kind:      t.Kind(),
		marshaler: t.Implements(marshalerType),
		text:      t.Implements(textMarshalerType),
		number:    t.Kind() == reflect.String && t.Name() == "Number" && t.PkgPath() == "encoding/json",
	}
	if t.Kind() != reflect.Pointer {
		pt := reflect.PointerTo(t)
		ti.ptrMarshaler = pt.Implements(marshalerType)
		ti.ptrText = pt.Implements(textMarshalerType)
	}
	switch t.Kind() {
	case reflect.Struct:
		ti.fields = structFields(t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			p := reflect.PointerTo(t.Elem())
			ti.byteSlice = !p.Implements(marshalerType) && !p.Implements(textMarshalerType)
		}
	}
	got, _ := typeInfos.LoadOrStore(t, ti)
	return got.(*typeInfo)
}

func (e *encoder) null() { e.b = append(e.b, "null"...) }

func unsupportedType(t reflect.Type) error {
	return errors.New("json: unsupported type: " + t.String())
}

func marshalerError(t reflect.Type, fn string, err error) error {
	return &marshalError{t, fn, err}
}

// marshalError is the error of a type's MarshalJSON or MarshalText (fn),
// worded as encoding/json's MarshalerError; it wraps that method's error.
type marshalError struct {
	typ reflect.Type
	fn  string
	err error
}

func (e *marshalError) Error() string {
	return "json: error calling " + e.fn + " for type " + e.typ.String() + ": " + e.err.Error()
}

func (e *marshalError) Unwrap() error { return e.err }

// value writes v; quoted is the ",string" option of the field holding it.
func (e *encoder) value(v reflect.Value, quoted bool) error {
	if !v.IsValid() {
		e.null()
		return nil
	}
	return e.typed(v, infoOf(v.Type()), quoted)
}

// typed writes v, of the type ti describes.
func (e *encoder) typed(v reflect.Value, ti *typeInfo, quoted bool) error {
	t := ti.t
	// the order of encoding/json's newTypeEncoder: a method on the pointer
	// is used only when the value is addressable
	allowAddr := true
	if ti.ptrMarshaler {
		if v.CanAddr() {
			return e.marshalJSON(v.Addr(), t)
		}
		allowAddr = false
	}
	if ti.marshaler {
		return e.marshalJSON(v, t)
	}
	if allowAddr && ti.ptrText && v.CanAddr() {
		return e.marshalText(v.Addr(), t)
	}
	if ti.text {
		return e.marshalText(v, t)
	}
	switch ti.kind {
	case reflect.Bool:
		e.quote(quoted)
		e.b = strconv.AppendBool(e.b, v.Bool())
		e.quote(quoted)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.quote(quoted)
		e.b = strconv.AppendInt(e.b, v.Int(), 10)
		e.quote(quoted)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.quote(quoted)
		e.b = strconv.AppendUint(e.b, v.Uint(), 10)
		e.quote(quoted)
	case reflect.Float32:
		return e.float(v.Float(), 32, quoted)
	case reflect.Float64:
		return e.float(v.Float(), 64, quoted)
	case reflect.String:
		return e.string(v.String(), ti.number, quoted)
	case reflect.Interface:
		if v.IsNil() {
			e.null()
			return nil
		}
		return e.value(v.Elem(), quoted)
	case reflect.Struct:
		return e.structValue(v, ti)
	case reflect.Map:
		return e.mapValue(v, ti)
	case reflect.Slice:
		if v.IsNil() {
			e.null()
			return nil
		}
		if ti.byteSlice {
			e.b = append(e.b, '"')
			e.b = appendBase64(e.b, v.Bytes())
			e.b = append(e.b, '"')
			return nil
		}
		key := seenKey{v.UnsafePointer(), t, v.Len()}
		if err := e.enter(key); err != nil {
			return err
		}
		err := e.array(v, ti)
		e.leave(key)
		return err
	case reflect.Array:
		return e.array(v, ti)
	case reflect.Pointer:
		if v.IsNil() {
			e.null()
			return nil
		}
		key := seenKey{v.UnsafePointer(), t, 0}
		if err := e.enter(key); err != nil {
			return err
		}
		err := e.typed(v.Elem(), ti.elem.get(t.Elem()), quoted) // encoding/json passes ,string on through a pointer
		e.leave(key)
		return err
	default:
		return unsupportedType(t)
	}
	return nil
}

// enter counts one more level of pointers, maps or slices and, past
// startDetectingCycles of them, refuses one already being encoded; leave
// undoes it.
func (e *encoder) enter(key seenKey) error {
	e.ptrLevel++
	if e.ptrLevel <= startDetectingCycles {
		return nil
	}
	if _, ok := e.ptrSeen[key]; ok {
		e.ptrLevel--
		return errors.New("json: unsupported value: encountered a cycle via " + key.typ.String())
	}
	if e.ptrSeen == nil {
		e.ptrSeen = map[seenKey]struct{}{}
	}
	e.ptrSeen[key] = struct{}{}
	return nil
}

func (e *encoder) leave(key seenKey) {
	if e.ptrLevel > startDetectingCycles {
		delete(e.ptrSeen, key)
	}
	e.ptrLevel--
}

func (e *encoder) quote(quoted bool) {
	if quoted {
		e.b = append(e.b, '"')
	}
}

func (e *encoder) marshalJSON(v reflect.Value, t reflect.Type) error {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		e.null()
		return nil
	}
	m, ok := reflect.TypeAssert[jsonMarshaler](v)
	if !ok {
		e.null()
		return nil
	}
	b, err := m.MarshalJSON()
	if err == nil {
		e.b, err = appendCompact(e.b, b)
	}
	if err != nil {
		return marshalerError(t, "MarshalJSON", err)
	}
	return nil
}

func (e *encoder) marshalText(v reflect.Value, t reflect.Type) error {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		e.null()
		return nil
	}
	m, ok := reflect.TypeAssert[encoding.TextMarshaler](v)
	if !ok {
		e.null()
		return nil
	}
	b, err := m.MarshalText()
	if err != nil {
		return marshalerError(t, "MarshalText", err)
	}
	e.b = appendString(e.b, string(b), true)
	return nil
}

// float writes f as encoding/json does: the shortest digits that read
// back, in 'f' form unless |f| < 1e-6 or >= 1e21 ('e', with "e-07" cut to
// "e-7"); NaN and infinities are errors.
func (e *encoder) float(f float64, bits int, quoted bool) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return errors.New("json: unsupported value: " + strconv.FormatFloat(f, 'g', -1, bits))
	}
	e.quote(quoted)
	e.b = appendFloat(e.b, f, bits)
	e.quote(quoted)
	return nil
}

func appendFloat(b []byte, f float64, bits int) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

func (e *encoder) string(s string, number, quoted bool) error {
	if number {
		if s == "" {
			s = "0"
		}
		if !isValidNumber(s) {
			return errors.New("json: invalid number literal " + strconv.Quote(s))
		}
		e.quote(quoted)
		e.b = append(e.b, s...)
		e.quote(quoted)
		return nil
	}
	if quoted {
		e.b = appendString(e.b, string(appendString(nil, s, true)), false)
		return nil
	}
	e.b = appendString(e.b, s, true)
	return nil
}

// isValidNumber reports whether s is a JSON number literal.
func isValidNumber(s string) bool {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	digits := func() {
		for s != "" && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	switch {
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		digits()
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && '0' <= s[1] && s[1] <= '9' {
		s = s[2:]
		digits()
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
			if s == "" {
				return false
			}
		}
		digits()
	}
	return s == ""
}

func (e *encoder) array(v reflect.Value, ti *typeInfo) error {
	n := v.Len()
	e.b = append(e.b, '[')
	// the long lists of the results (100000 histogram bins) skip
	// reflection per element; named types may have methods, so only
	// these exact types (each reflect.TypeAssert instantiation costs
	// 2 KB of wasm: other lists take the general way)
	if ti.kind == reflect.Slice {
		if xs, ok := reflect.TypeAssert[[]float64](v); ok {
			e.grow(len(xs) * 8)
			for i, x := range xs {
				if i > 0 {
					e.b = append(e.b, ',')
				}
				if err := e.float(x, 64, false); err != nil {
					return err
				}
			}
			e.b = append(e.b, ']')
			return nil
		}
		if xs, ok := reflect.TypeAssert[[]int](v); ok {
			e.grow(len(xs) * 4)
			for i, x := range xs {
				if i > 0 {
					e.b = append(e.b, ',')
				}
				e.b = strconv.AppendInt(e.b, int64(x), 10)
			}
			e.b = append(e.b, ']')
			return nil
		}
	}
	elem := ti.elem.get(ti.t.Elem())
	for i := range n {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		if err := e.typed(v.Index(i), elem, false); err != nil {
			return err
		}
	}
	e.b = append(e.b, ']')
	return nil
}

// grow makes room for about n more bytes at once, so that a long list
// does not grow the buffer step by step.
func (e *encoder) grow(n int) {
	if cap(e.b)-len(e.b) < n {
		b := make([]byte, len(e.b), 2*cap(e.b)+n)
		copy(b, e.b)
		e.b = b
	}
}

func (e *encoder) mapValue(v reflect.Value, ti *typeInfo) error {
	t := ti.t
	switch t.Key().Kind() {
	case reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		if !t.Key().Implements(textMarshalerType) {
			return unsupportedType(t)
		}
	}
	if v.IsNil() {
		e.null()
		return nil
	}
	key := seenKey{v.UnsafePointer(), t, 0}
	if err := e.enter(key); err != nil {
		return err
	}
	defer e.leave(key)
	type entry struct {
		key string
		val reflect.Value
	}
	entries := make([]entry, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		k, err := keyName(it.Key())
		if err != nil {
			return errors.New("json: encoding error for type " + strconv.Quote(t.String()) + ": " + strconv.Quote(err.Error()))
		}
		entries = append(entries, entry{k, it.Value()})
	}
	heapSort(len(entries), func(i, j int) bool { return entries[i].key < entries[j].key },
		func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
	elem := ti.elem.get(t.Elem())
	e.b = append(e.b, '{')
	for i, en := range entries {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = appendString(e.b, en.key, true)
		e.b = append(e.b, ':')
		if err := e.typed(en.val, elem, false); err != nil {
			return err
		}
	}
	e.b = append(e.b, '}')
	return nil
}

// keyName is encoding/json's resolveKeyName.
func keyName(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if tm, ok := reflect.TypeAssert[encoding.TextMarshaler](k); ok {
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		buf, err := tm.MarshalText()
		return string(buf), err
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	}
	return strconv.FormatUint(k.Uint(), 10), nil
}

func (e *encoder) structValue(v reflect.Value, ti *typeInfo) error {
	next := byte('{')
fields:
	for _, f := range ti.fields {
		fv := v
		for _, j := range f.index {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue fields
				}
				fv = fv.Elem()
			}
			fv = fv.Field(j)
		}
		if f.omitEmpty && isEmptyValue(fv) || f.omitZero && omitZero(f.declared, fv) {
			continue
		}
		e.b = append(e.b, next)
		next = ','
		e.b = append(e.b, f.key...)
		if err := e.typed(fv, f.info.get(f.declared), f.quoted); err != nil {
			return err
		}
	}
	if next == '{' {
		e.b = append(e.b, "{}"...)
	} else {
		e.b = append(e.b, '}')
	}
	return nil
}

func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// structFields lists the JSON fields of struct type t in encoding/json's
// order: its typeFields (breadth first through embedded structs, the
// dominant field of each name, by index).
func structFields(t reflect.Type) []*encField {
	var current []*encField
	next := []*encField{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []*encField
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					t := sf.Type
					if t.Kind() == reflect.Pointer {
						t = t.Elem()
					}
					if !sf.IsExported() && t.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !isValidTag(name) {
					name = ""
				}
				index := make([]int, len(f.index)+1)
				copy(index, f.index)
				index[len(f.index)] = i
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				quoted := false
				if hasOption(opts, "string") {
					switch ft.Kind() {
					case reflect.Bool,
						reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64,
						reflect.String:
						quoted = true
					}
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fld := &encField{
						name:      name,
						key:       string(append(appendString(nil, name, true), ':')), // a valid tag needs no other escape than <>&
						tag:       tagged,
						index:     index,
						typ:       ft,
						omitEmpty: hasOption(opts, "omitempty"),
						omitZero:  hasOption(opts, "omitzero"),
						declared:  sf.Type,
						quoted:    quoted,
					}
					fields = append(fields, fld)
					if count[f.typ] > 1 {
						// two embedded structs of the same type at this
						// depth: the name is annihilated below
						fields = append(fields, fld)
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, &encField{name: ft.Name(), index: index, typ: ft})
				}
			}
		}
	}
	heapSort(len(fields), func(i, j int) bool {
		a, b := fields[i], fields[j]
		if a.name != b.name {
			return a.name < b.name
		}
		if len(a.index) != len(b.index) {
			return len(a.index) < len(b.index)
		}
		if a.tag != b.tag {
			return a.tag
		}
		return slices.Compare(a.index, b.index) < 0
	}, func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		fi := fields[i]
		for advance = 1; i+advance < len(fields) && fields[i+advance].name == fi.name; advance++ {
		}
		if advance == 1 {
			out = append(out, fi)
			continue
		}
		// the dominant field: the shallowest, tagged over untagged; a tie
		// hides them all
		if len(fields[i].index) == len(fields[i+1].index) && fields[i].tag == fields[i+1].tag {
			continue
		}
		out = append(out, fi)
	}
	heapSort(len(out), func(i, j int) bool { return slices.Compare(out[i].index, out[j].index) < 0 },
		func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// heapSort sorts n elements with less and swap. encoding/json sorts with
// slices.SortFunc, whose instantiations for map entries and struct fields
// would add some 35 KB to the wasm module. The orders sorted here are
// total (field indexes and string or integer map keys are distinct), so
// any sort gives json's order; only map keys whose MarshalText writes the
// same text twice may come out in another order.
func heapSort(n int, less func(i, j int) bool, swap func(i, j int)) {
	down := func(root, end int) {
		for {
			child := 2*root + 1
			if child >= end {
				return
			}
			if child+1 < end && less(child, child+1) {
				child++
			}
			if !less(root, child) {
				return
			}
			swap(root, child)
			root = child
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		down(i, n)
	}
	for i := n - 1; i > 0; i-- {
		swap(0, i)
		down(0, i)
	}
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// omitZero is omitzero's test of a field's value v, of the field's
// declared type t: its IsZero method when it has one (through its address
// when only the pointer has it), else reflect's IsZero.
func omitZero(t reflect.Type, v reflect.Value) bool {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return v.IsNil() ||
			(v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil()) ||
			v.Interface().(isZeroer).IsZero()
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return v.IsNil() || v.Interface().(isZeroer).IsZero()
	case t.Implements(isZeroerType):
		return v.Interface().(isZeroer).IsZero()
	case reflect.PointerTo(t).Implements(isZeroerType):
		if !v.CanAddr() {
			v2 := reflect.New(v.Type()).Elem()
			v2.Set(v)
			v = v2
		}
		return v.Addr().Interface().(isZeroer).IsZero()
	}
	return v.IsZero()
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string: '"', '\\' and controls escaped
// (\b \f \n \r \t, else \u00XX), with html also '<', '>' and '&'; invalid
// UTF-8 becomes \ufffd; U+2028 and U+2029 are escaped.
func appendString(dst []byte, s string, html bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && (!html || b != '<' && b != '>' && b != '&') {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendCompact appends the JSON document src without the whitespace
// between tokens and with '<', '>', '&', U+2028 and U+2029 escaped, as
// encoding/json writes the output of a MarshalJSON method; src must be
// valid JSON.
func appendCompact(dst, src []byte) ([]byte, error) {
	if !canonjson.Valid(src) {
		return dst, errors.New("invalid JSON")
	}
	inString, escaped := false, false
	start := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '<' || c == '>' || c == '&' {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			start = i + 1
		}
		if c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8 {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xF])
			start = i + 3
			i += 2
			continue
		}
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			dst = append(dst, src[start:i]...)
			start = i + 1
		}
	}
	return append(dst, src[start:]...), nil
}

// appendBase64 writes b in standard base64 with padding (encoding/json's
// form of a []byte).
func appendBase64(dst, b []byte) []byte {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for len(b) >= 3 {
		n := uint(b[0])<<16 | uint(b[1])<<8 | uint(b[2])
		dst = append(dst, alphabet[n>>18&63], alphabet[n>>12&63], alphabet[n>>6&63], alphabet[n&63])
		b = b[3:]
	}
	switch len(b) {
	case 1:
		n := uint(b[0]) << 16
		dst = append(dst, alphabet[n>>18&63], alphabet[n>>12&63], '=', '=')
	case 2:
		n := uint(b[0])<<16 | uint(b[1])<<8
		dst = append(dst, alphabet[n>>18&63], alphabet[n>>12&63], alphabet[n>>6&63], '=')
	}
	return dst
}
