// Command retrylab builds the site, serves it with the API, and runs the
// calculators from the command line.
//
//	retrylab build [-content DIR] [-out DIR] [-base-url URL]
//	retrylab serve [-addr HOST:PORT] [-dist DIR] [-max-inflight N] [-queue-wait D] [-rate R] [-burst B] [-memory-limit MiB] [-max-conns N] [-write-idle D]
//	retrylab calc [NAME [key=value ...] | NAME -h]
//	retrylab exercises -code C -students N [-lang L] [-out DIR]
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one subcommand and returns the exit status: 0 success,
// 1 failure, 2 bad usage or bad input.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "calc":
		return runCalc(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	}
	if cmd, ok := commands[args[0]]; ok {
		return cmd(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "retrylab: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

// commands holds the subcommands defined in other files (build, serve, …).
var commands = map[string]func(args []string, stdout, stderr io.Writer) int{}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  retrylab build [flags]            render content/ into dist/
  retrylab serve [flags]            serve dist/ and the API on 127.0.0.1:8080
  retrylab calc                     list the calculators
  retrylab calc NAME -h             list NAME's parameters
  retrylab calc NAME key=value ...  run NAME and print its JSON result
  retrylab exercises -code C -students N [-lang L] [-out DIR]
                                    worksheets and answer key of a class
`)
}
