package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

func main() {
	b, _ := os.ReadFile(os.Args[1])
	cmd := exec.Command("go", "list", "-deps", os.Args[2])
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, _ := cmd.Output()
	pkgs, code, data, err := codeByPackage(b, strings.Fields(string(out)))
	fmt.Println(code, data, err)
	for _, p := range pkgs[:40] {
		fmt.Printf("%8d %5d %s\n", p.Bytes, p.Funcs, p.Pkg)
	}
}
