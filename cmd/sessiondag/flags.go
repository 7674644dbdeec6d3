package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"sessiondag/internal/termtext"
)

// parseArgs parses flags that may come before, between or after the
// positional arguments (Go's flag package stops at the first positional).
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("sessiondag "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func fail(stderr io.Writer, cmd string, err error) int {
	msg := err.Error()
	if !strings.HasPrefix(msg, cmd) {
		msg = cmd + ": " + msg
	}
	fmt.Fprintln(stderr, "sessiondag "+termtext.Line(msg))
	return 2
}

// flagGiven reports whether the command line set a flag.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
