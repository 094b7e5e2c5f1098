package deploy

import (
	"testing"
)

func TestDryRunConfig(t *testing.T) {
	in := "name = \"x\"\nmain = \"a.mjs\"\n\n[build]\ncommand = \"make worker\"\ncwd = \"..\"\n\n[build.upload]\nformat = \"modules\"\n\n[assets]\ndirectory = \"p\"\n[[rules]]\ntype = \"CompiledWasm\"\n"
	want := "name = \"x\"\nmain = \"a.mjs\"\n\n[assets]\ndirectory = \"p\"\n[[rules]]\ntype = \"CompiledWasm\"\n"
	if got := DryRunConfig(in); got != want {
		t.Errorf("DryRunConfig:\n%s\nwant:\n%s", got, want)
	}
}
