package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"retrylab/core/calc"
	"retrylab/site/assets"
	"retrylab/site/classroom"
	"retrylab/site/i18n"
	"retrylab/site/locale"
)

func init() { commands["exercises"] = runExercises }

// runExercises implements `retrylab exercises`: the worksheets of a class
// (one per student, numbered 1 to N, or named by -names) and their answer
// key, as files, for a teacher without a browser.
func runExercises(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("retrylab exercises", flag.ContinueOnError)
	fl.SetOutput(stderr)
	code := fl.String("code", "", "the class code (required): the same code gives the same worksheets")
	students := fl.Int("students", 0, "number of students, named 1 … N (or give -names)")
	names := fl.String("names", "", "comma-separated student names, instead of numbers")
	lang := fl.String("lang", "it", "language: "+strings.Join(locale.Languages(), ", "))
	out := fl.String("out", "exercises", "output directory (created; files in it are replaced)")
	formats := fl.String("format", "html,md", "comma-separated formats: html, md (worksheets and key), moodle (Moodle XML), qti (QTI 1.2: Canvas, Blackboard)")
	content := fl.String("content", "content", "the content tree that holds <lang>/strings.toml")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "retrylab exercises: "+format+"\n", a...)
		return 2
	}
	if fl.NArg() > 0 {
		return bad("unexpected argument %q", fl.Arg(0))
	}
	if err := classroom.CheckText("class code", *code); err != nil {
		return bad("-code: %v", err)
	}
	var who []string
	switch {
	case *names != "" && *students != 0:
		return bad("give -students or -names, not both")
	case *names != "":
		for _, n := range strings.Split(*names, ",") {
			if err := classroom.CheckText("student name", n); err != nil {
				return bad("-names: %v", err)
			}
			who = append(who, strings.TrimSpace(n))
		}
	case *students < 1 || *students > 1000:
		return bad("-students must be in [1, 1000], got %d", *students)
	default:
		for i := 1; i <= *students; i++ {
			who = append(who, strconv.Itoa(i))
		}
	}
	okLang := false
	for _, l := range locale.Languages() {
		okLang = okLang || l == *lang
	}
	if !okLang {
		return bad("-lang must be one of %s, got %q", strings.Join(locale.Languages(), ", "), *lang)
	}
	var fmts []classroom.Format
	for _, f := range strings.Split(*formats, ",") {
		switch classroom.Format(strings.TrimSpace(f)) {
		case classroom.HTML:
			fmts = append(fmts, classroom.HTML)
		case classroom.Markdown:
			fmts = append(fmts, classroom.Markdown)
		case classroom.Moodle, classroom.QTI:
			fmts = append(fmts, classroom.Format(strings.TrimSpace(f)))
		default:
			return bad("-format: unknown format %q (html, md, moodle, qti)", f)
		}
	}
	loc, err := i18n.Load(*content, *lang)
	if err != nil {
		fmt.Fprintf(stderr, "retrylab exercises: %v\n", err)
		return 1
	}
	css, err := fs.ReadFile(assets.Classroom, "classroom.css")
	if err != nil {
		fmt.Fprintf(stderr, "retrylab exercises: %v\n", err)
		return 1
	}
	reg := calc.New()
	var vs []*classroom.Variant
	for _, s := range who {
		v, err := classroom.NewVariant(reg, *code, s)
		if err != nil {
			fmt.Fprintf(stderr, "retrylab exercises: %v\n", err)
			return 1
		}
		vs = append(vs, v)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(stderr, "retrylab exercises: %v\n", err)
		return 1
	}
	width := len(strconv.Itoa(len(vs)))
	files := 0
	write := func(name, text string) error {
		files++
		return os.WriteFile(filepath.Join(*out, name), []byte(text), 0o644)
	}
	for _, f := range fmts {
		if f == classroom.Moodle || f == classroom.QTI {
			// the whole class with its answers, for the learning platform
			text, err := classroom.Export(loc, *code, vs, f)
			if err == nil {
				err = write("class."+string(f)+".xml", text)
			}
			if err != nil {
				fmt.Fprintf(stderr, "retrylab exercises: %v\n", err)
				return 1
			}
			continue
		}
		for i, v := range vs {
			name := fmt.Sprintf("student-%0*d.%s", width, i+1, f)
			if err := write(name, classroom.Sheet(loc, []*classroom.Variant{v}, false, f, string(css))); err != nil {
				fmt.Fprintf(stderr, "retrylab exercises: %v\n", err)
				return 1
			}
		}
		if err := write("key."+string(f), classroom.Sheet(loc, vs, true, f, string(css))); err != nil {
			fmt.Fprintf(stderr, "retrylab exercises: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "retrylab exercises: %d files in %s (class %s, %d students, %s)\n", files, *out, classroom.Normalize(*code), len(vs), *lang)
	return 0
}
