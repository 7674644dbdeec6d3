// Command sessiondag audits, loads, generates, replays and searches sessions
// of the two-pointer session DAG, and gates benchmark comparisons. Run it
// without arguments for the list of commands; the README's command table is
// checked against the same list (TestUsageMatchesREADME).
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"sessiondag/bench/gate"
)

// A command is one subcommand: its name, the arguments it takes (the usage
// line and the README table show exactly this), what it does in a line, and
// what runs it.
type command struct {
	name string
	args string
	doc  string
	run  func(args []string, stdout, stderr io.Writer) int
}

// commands is the command-line tool, in the order the usage lists it. It
// is filled in init: the commands' own help reads it.
var commands []command

func init() { commands = commandTable() }

func commandTable() []command {
	return []command{
		{"audit", "[DIR...] [--json] [-v] [--html FILE] [--shard i/n] [--exceptions FILE] [--reconstruct=false]", "rollout-readiness report over session directories (default: the bundled corpus)", cmdAudit},
		{"summary", "[FILE...] [--json]", "merge the summary records of JSON lines (audit, hunt and exhaust shards) from files or stdin", cmdSummary},
		{"load", "DIR [--flags F] [--json]", "the view a browser gets at the stored head", cmdLoad},
		{"gen", "--seed N --nodes N [--flags F] --out DIR", "write a generated session and the op script that made it", cmdGen},
		{"reconstruct", "DIR [--out FILE] [--json]", "the op script that explains a session directory, or its first row none explains", cmdReconstruct},
		{"replay", "FILE.ops [--rollout[=PLAN]] [--check NAMES] [--flags F] [--out DIR] [--impl CMD] [--run-impl] [--every-op]", "run a script through the writers and both models with the checks after every op (a long script's spread so that their work grows with its length; --every-op: every op)", cmdReplay},
		{"exhaust", "--max-ops N [--shard i/n] [--claim DIR [--claim-start i/n]] [--json] [--out DIR] [--check NAMES] [--dedup=false] [--impl CMD] [--estimate]", "check every valid op script of at most N ops (the checks after its last op)", cmdExhaust},
		{"hunt", "--minutes M [--seed S] [--shard i/n] [--out DIR] [--json] [--check NAMES] [--iterations N] [--stop] [--impl CMD]", "search with generated scripts for a time budget; reduce, de-duplicate and save each failure", cmdHunt},
		{"serve", "[--flags F] [--claim rollout] [--mint] [--together FIRST+SECOND]", "serve the implementation over the implementation protocol (docs/protocol.md) on stdin and stdout", cmdServe},
		{"promote", "FILE.ops NAME [--note TEXT]", "keep a found failure as a regression test under corpus/ops/regressions/", cmdPromote},
		{"benchgate", "OLD NEW [--threshold 5%] [--alpha 0.05]", "fail on a significant benchmark slowdown; UNDECIDED (exit 3) when too few runs to find one", gate.Main},
	}
}

// usageLine is a command's name and arguments, as the usage lists them.
func usageLine(name string) string {
	for _, c := range commands {
		if c.name == name {
			return strings.TrimSpace(c.name + " " + c.args)
		}
	}
	return name
}

// commandDoc is what a command does, in a line.
func commandDoc(name string) string {
	for _, c := range commands {
		if c.name == name {
			return c.doc
		}
	}
	return ""
}

func main() { os.Exit(runMain(os.Args[1:])) }

// runMain is the tool as a process runs it: the command, with Ctrl-C and
// SIGTERM watched (watchInterrupt).
func runMain(args []string) int {
	name := ""
	if len(args) > 0 {
		name = args[0]
	}
	watchInterrupt(name)
	// Every command allocates short-lived views, sessions and scripts over
	// a small live heap: collecting less often saves a third of a hunt's
	// processor time (a GOGC the caller sets wins; exhaust sets its own).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	code := run(args, os.Stdout, os.Stderr)
	if ending.Load() {
		select {} // endNow exits
	}
	return code
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	switch args[0] {
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage())
		return 0
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, version())
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "sessiondag: unknown command %q\n\n%s", args[0], usage())
	return 2
}

// usage lists the commands from the table.
func usage() string {
	var b strings.Builder
	b.WriteString("usage: sessiondag <command> [arguments]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %s %s\n      %s\n", c.name, c.args, c.doc)
	}
	b.WriteString("\nflags F: off (default), all, or a list of rollout steps such as A,B\n")
	b.WriteString("run 'sessiondag <command> -h' for a command's flags, 'sessiondag --version' for the build\n")
	return b.String()
}
