// Command sessiondag loads, generates, replays and audits sessions of the
// two-pointer session DAG, and gates benchmark comparisons.
//
//	sessiondag audit [DIR...] [--json]
//	sessiondag load DIR [--flags F] [--json]
//	sessiondag gen --seed N --nodes N [--flags F] --out DIR
//	sessiondag replay FILE.ops [--flags F]
//	sessiondag benchgate OLD NEW [--threshold 5%] [--alpha 0.05]
package main

import (
	"fmt"
	"io"
	"os"

	"sessiondag/benchgate"
)

const usage = `usage: sessiondag <command> [arguments]

commands:
  audit [DIR...] [--json]           rollout-readiness report over session directories
                                    (default: the bundled corpus)
  load DIR [--flags F] [--json]     the view a browser gets at the stored head
  gen --seed N --nodes N [--flags F] --out DIR
                                    write a generated session and its op script
  replay FILE.ops [--flags F]       build a session from a script, compare with the models
  benchgate OLD NEW [--threshold 5%] [--alpha 0.05]
                                    fail on a significant benchmark slowdown

flags F: off (default), all, or a list of rollout steps such as A,B
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	rest := args[1:]
	switch args[0] {
	case "audit":
		return cmdAudit(rest, stdout, stderr)
	case "load":
		return cmdLoad(rest, stdout, stderr)
	case "gen":
		return cmdGen(rest, stdout, stderr)
	case "replay":
		return cmdReplay(rest, stdout, stderr)
	case "benchgate":
		return benchgate.Main(rest, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "sessiondag: unknown command %q\n\n%s", args[0], usage)
	return 2
}
