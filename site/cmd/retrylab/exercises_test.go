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

// TestExercisesLMS: -format moodle,qti writes the class for Moodle and
// for Canvas/Blackboard in the class's language, one question per answer
// of every student (their contents are checked by parsing them back in
// site/classroom's TestMoodleRoundTrip and TestQTIRoundTrip).
func TestExercisesLMS(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI("exercises", "-code", "3B", "-students", "4", "-lang", "zh", "-format", "moodle,qti", "-out", dir, "-content", "../../../content")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "2 files") {
		t.Errorf("stdout %q", out)
	}
	answers := 0
	for i := 1; i <= 4; i++ {
		v, err := classroom.NewVariant(calc.New(), "3B", strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range v.Items {
			answers += len(it.Answers)
		}
	}
	moodle, _ := os.ReadFile(filepath.Join(dir, "class.moodle.xml"))
	qti, _ := os.ReadFile(filepath.Join(dir, "class.qti.xml"))
	if n := strings.Count(string(moodle), `<question type="numerical">`) + strings.Count(string(moodle), `<question type="multichoice">`); n != answers {
		t.Errorf("moodle: %d questions, want %d", n, answers)
	}
	if n := strings.Count(string(qti), "<item "); n != answers {
		t.Errorf("qti: %d items, want %d", n, answers)
	}
	// In the class's language: the statements are the Chinese strings'.
	if !strings.ContainsAny(string(moodle), "的是") || !strings.ContainsAny(string(qti), "的是") {
		t.Error("the exports are not in Chinese")
	}
}
