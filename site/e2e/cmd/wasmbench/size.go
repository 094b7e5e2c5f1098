package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// pkgSize is the code of one Go package in a WebAssembly module.
type pkgSize struct {
	Pkg   string
	Bytes int // function bodies
	Funcs int
}

// codeByPackage attributes every function body of a wasm module built
// without -s (so that it has a "name" section) to its Go package, from the
// function's symbol name, in which the linker wrote '/' as '_' and
// "(*T)" as "__T_" ("retrylab_core_calc.__Param_.parse" → retrylab/core/calc).
// pkgs are the import paths the module links (go list -deps). It returns
// the packages by size, largest first, and the total size of the code
// section and of the data section.
func codeByPackage(mod []byte, deps []string) (pkgs []pkgSize, code, data int, err error) {
	mangled := map[string]string{}
	for _, d := range deps {
		mangled[strings.ReplaceAll(d, "/", "_")] = d
	}
	if len(mod) < 8 || !bytes.Equal(mod[:4], []byte("\x00asm")) {
		return nil, 0, 0, errors.New("not a WebAssembly module")
	}
	r := &reader{b: mod[8:]}
	var imported int
	var bodies []int
	names := map[int]string{}
	for !r.done() {
		id := r.byte()
		size := int(r.uleb())
		sec := &reader{b: r.take(size)}
		switch id {
		case 2: // imports
			for n := r2(sec); n > 0; n-- {
				sec.name()
				sec.name()
				switch kind := sec.byte(); kind {
				case 0:
					sec.uleb()
					imported++
				case 1:
					sec.byte()
					limits(sec)
				case 2:
					limits(sec)
				case 3:
					sec.byte()
					sec.byte()
				}
			}
		case 10: // code
			code = size
			for n := r2(sec); n > 0; n-- {
				s := int(sec.uleb())
				sec.take(s)
				bodies = append(bodies, s)
			}
		case 11:
			data = size
		case 0: // custom
			if sec.name() != "name" {
				continue
			}
			for !sec.done() {
				sub := sec.byte()
				ss := &reader{b: sec.take(int(sec.uleb()))}
				if sub != 1 {
					continue
				}
				for n := r2(ss); n > 0; n-- {
					idx := int(ss.uleb())
					names[idx] = ss.name()
				}
			}
		}
		if sec.err != nil {
			return nil, 0, 0, sec.err
		}
	}
	if r.err != nil {
		return nil, 0, 0, r.err
	}
	if len(names) == 0 {
		return nil, code, data, errors.New("the module has no name section (built with -ldflags=-s?)")
	}
	by := map[string]*pkgSize{}
	for i, s := range bodies {
		p := symbolPackage(names[imported+i], mangled)
		ps := by[p]
		if ps == nil {
			ps = &pkgSize{Pkg: p}
			by[p] = ps
		}
		ps.Bytes += s
		ps.Funcs++
	}
	for _, ps := range by {
		pkgs = append(pkgs, *ps)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Bytes > pkgs[j].Bytes })
	return pkgs, code, data, nil
}

// symbolPackage returns the import path of a mangled symbol name: the
// longest package of the module that prefixes it, followed by '.'.
func symbolPackage(sym string, mangled map[string]string) string {
	best := ""
	for i := 0; i < len(sym); i++ {
		if sym[i] == '.' {
			if _, ok := mangled[sym[:i]]; ok {
				best = sym[:i]
			}
		}
	}
	if best == "" {
		if i := strings.IndexByte(sym, '.'); i > 0 {
			return "(other: " + sym[:i] + ")"
		}
		return "(other)"
	}
	return mangled[best]
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) done() bool { return len(r.b) == 0 || r.err != nil }

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.err = errors.New("truncated module")
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) uleb() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errors.New("bad LEB128")
		r.b = nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) take(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.err = fmt.Errorf("section of %d bytes overruns the module", n)
		r.b = nil
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

func (r *reader) name() string { return string(r.take(int(r.uleb()))) }

func r2(r *reader) int { return int(r.uleb()) }

func limits(r *reader) {
	if r.byte()&1 != 0 {
		r.uleb()
	}
	r.uleb()
}
