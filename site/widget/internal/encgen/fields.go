package main

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// field is one JSON field of a struct type.
type field struct {
	name      string // the JSON name
	tag       bool   // named by its tag
	index     []int  // the path through embedded structs
	typ       reflect.Type
	declared  reflect.Type // the field's type
	omitEmpty bool
	quoted    bool // the ",string" option, on a type it applies to
}

// structFields lists the JSON fields of struct type t in encoding/json's
// order (its typeFields: breadth first through embedded structs, the
// dominant field of each name, by index). omitzero is refused.
func structFields(t reflect.Type) ([]*field, error) {
	var current []*field
	next := []*field{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []*field
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
				if hasOption(opts, "omitzero") {
					return nil, fmt.Errorf("field %s: omitzero is not supported", sf.Name)
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
					fld := &field{name: name, tag: tagged, index: index, typ: ft, declared: sf.Type,
						omitEmpty: hasOption(opts, "omitempty"), quoted: quoted}
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
					next = append(next, &field{name: ft.Name(), index: index, typ: ft})
				}
			}
		}
	}
	sort.SliceStable(fields, func(i, j int) bool {
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
	})
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
	sort.SliceStable(out, func(i, j int) bool { return slices.Compare(out[i].index, out[j].index) < 0 })
	return out, nil
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
