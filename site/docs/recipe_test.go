package docs

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"retrylab/site/preview"
)

// A recipeBlock is a fenced block of a recipe: a file to write (```go
// file=PATH), text to append to a file (```toml append=PATH), or commands
// to run (```sh run).
type recipeBlock struct {
	kind, path, text string
}

// recipe returns the blocks of the section of contributing.md headed
// "## "+title, in order.
func recipe(t *testing.T, title string) []recipeBlock {
	b, err := os.ReadFile("contributing.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []recipeBlock
	in, fence := false, (*recipeBlock)(nil)
	var text strings.Builder
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case fence != nil && line == "```":
			fence.text = text.String()
			blocks = append(blocks, *fence)
			fence = nil
		case fence != nil:
			text.WriteString(line + "\n")
		case strings.HasPrefix(line, "## "):
			in = line == "## "+title
		case in && strings.HasPrefix(line, "```"):
			info := strings.Fields(strings.TrimPrefix(line, "```"))
			fence = &recipeBlock{}
			text.Reset()
			for _, f := range info[min(1, len(info)):] {
				k, v, _ := strings.Cut(f, "=")
				switch k {
				case "file", "append":
					fence.kind, fence.path = k, v
				case "run":
					fence.kind = "run"
				}
			}
		}
	}
	if len(blocks) == 0 {
		t.Fatalf("contributing.md has no section %q with blocks", title)
	}
	return blocks
}

// copyTree copies the project's tree (without .git, node_modules and
// the build's output) into dir.
func copyTree(t *testing.T, dir string) {
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "dist", "build", "e2e-out":
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAddCalculatorRecipe follows "Add a calculator" in a copy of the
// tree: it writes and appends the files the recipe shows, checks that at
// most six files are edited by hand, runs the recipe's commands (the
// generators, vet, the tests with their goldens, the command line, the
// site's build) and checks that the calculator is in the built site.
func TestAddCalculatorRecipe(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to follow the recipe: %v", err)
	}
	blocks := recipe(t, "Add a calculator")
	dir := t.TempDir()
	copyTree(t, dir)
	edited := map[string]bool{}
	var commands []string
	for _, b := range blocks {
		switch b.kind {
		case "file":
			p := filepath.Join(dir, b.path)
			if _, err := os.Stat(p); err == nil {
				t.Fatalf("the recipe writes %s, which exists: the example must be new", b.path)
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(b.text), 0o644); err != nil {
				t.Fatal(err)
			}
			edited[b.path] = true
		case "append":
			f, err := os.OpenFile(filepath.Join(dir, b.path), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatalf("the recipe appends to %s: %v", b.path, err)
			}
			_, err = f.WriteString("\n" + b.text)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				t.Fatal(err)
			}
			edited[b.path] = true
		case "run":
			for line := range strings.Lines(b.text) {
				if line = strings.TrimSpace(line); line != "" {
					commands = append(commands, line)
				}
			}
		}
	}
	if len(edited) > 6 || len(edited) == 0 {
		t.Errorf("the recipe edits %d files by hand (%v); at most 6", len(edited), edited)
	}
	if len(commands) == 0 {
		t.Fatal("the recipe runs no command")
	}
	out := filepath.Join(t.TempDir(), "dist")
	env := os.Environ()
	for _, c := range commands {
		args := strings.Fields(strings.ReplaceAll(c, "OUT", out))
		if args[0] != "go" {
			t.Fatalf("the recipe runs %q: only go commands", c)
		}
		for i, a := range args { // the shell's quotes, for arguments without spaces
			args[i] = strings.Trim(a, `'"`)
		}
		if len(args) > 3 && args[1] == "run" && args[3] == "build" {
			if _, err := preview.FontsFor("zh"); err != nil {
				// no CJK font: go test ./... needs nothing but Go (make
				// test installs the font and draws every preview)
				t.Log("building without link previews:", err)
				args = append(args, "-previews=false")
			}
		}
		cmd := exec.Command(goCmd, args[1:]...)
		cmd.Dir, cmd.Env = dir, env
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", c, err, b)
		}
	}
	for _, lang := range []string{"it", "es", "zh"} {
		page := filepath.Join(out, lang, "embed", "schedule", "index.html")
		b, err := os.ReadFile(page)
		if err != nil {
			t.Errorf("the built site has no embed page of the new calculator: %v", err)
			continue
		}
		if !strings.Contains(string(b), `data-view="waits"`) {
			t.Errorf("%s does not draw the new view waits", page)
		}
	}
}
