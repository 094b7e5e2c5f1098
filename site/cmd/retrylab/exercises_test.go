package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"retrylab/core/calc"
	"retrylab/site/classroom"
)

func TestExercisesWritesFiles(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI("exercises", "-code", "3B", "-students", "12", "-lang", "es", "-out", dir, "-content", "../../../content")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "26 files") {
		t.Errorf("stdout %q", out)
	}
	for _, name := range []string{"student-01.html", "student-12.md", "key.html", "key.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	sheet, _ := os.ReadFile(filepath.Join(dir, "student-07.html"))
	key, _ := os.ReadFile(filepath.Join(dir, "key.md"))
	if !strings.Contains(string(sheet), `<html lang="es">`) || !strings.Contains(string(sheet), "@page") {
		t.Errorf("student-07.html: %.300s", sheet)
	}
	// The key holds student 7's answers, computed by the calculators.
	v, err := classroom.NewVariant(calc.New(), "3B", "7")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(key), "variante "+strconv.FormatUint(uint64(v.Seed), 10)) {
		t.Errorf("key.md lacks student 7's variant %d", v.Seed)
	}
	// Same flags, same bytes.
	dir2 := t.TempDir()
	runCLI("exercises", "-code", "3b", "-students", "12", "-lang", "es", "-out", dir2, "-content", "../../../content")
	again, _ := os.ReadFile(filepath.Join(dir2, "student-07.html"))
	if string(again) != string(sheet) {
		t.Error("two runs wrote different worksheets")
	}
}

func TestExercisesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-code", "3B"},
		{"-code", "", "-students", "3"},
		{"-code", "3B", "-students", "0"},
		{"-code", "3B", "-students", "3", "-lang", "fr"},
		{"-code", "3B", "-students", "3", "-format", "pdf"},
		{"-code", "3B", "-students", "3", "-names", "a,b"},
		{"-code", "3B", "-names", "a,,b"},
		{"-code", "3B", "-students", "3", "extra"},
		{"-nosuchflag"},
	} {
		code, _, errOut := runCLI(append([]string{"exercises", "-out", t.TempDir()}, args...)...)
		if code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
