package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"sessiondag/internal/termtext"
)

// errHelp: the command line asked for a command's help (-h, -help,
// --help), which goes to stdout with exit 0.
var errHelp = errors.New("help requested")

// flagSet is a command's flags, with where its help goes.
type flagSet struct {
	*flag.FlagSet
	name   string
	stdout io.Writer
}

func newFlags(name string, stdout, stderr io.Writer) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet("sessiondag "+name, flag.ContinueOnError), name: name, stdout: stdout}
	fs.SetOutput(stderr)
	fs.Usage = func() {} // called by the flag package for help and a bad flag alike: parse tells them apart
	return fs
}

// usage is the command's usage line and its flags.
func (fs *flagSet) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: sessiondag %s\n", usageLine(fs.name))
	if doc := commandDoc(fs.name); doc != "" {
		fmt.Fprintf(w, "\n%s\n", doc)
	}
	fmt.Fprintln(w, "\nflags:")
	out := fs.Output()
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(out)
}

// parse parses flags that may come before, between or after the
// positional arguments (Go's flag package stops at the first positional).
// A request for help (-h, -help, --help as a flag, not as a flag's value)
// prints the usage on stdout and returns errHelp; a bad flag has been
// reported on stderr, with the usage.
func (fs *flagSet) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.usage(fs.stdout)
				return nil, errHelp
			}
			fs.usage(fs.Output())
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

// usageError is the exit code for a command line that did not parse or
// asked for help, after printing the usage line for a wrong number of
// arguments (err nil).
func (fs *flagSet) usageError(err error) int {
	switch {
	case errors.Is(err, errHelp):
		return 0
	case err == nil:
		fmt.Fprintf(fs.Output(), "usage: sessiondag %s\n", usageLine(fs.name))
	}
	return 2
}

// atLeast refuses a number flag below min, naming the flag.
func (fs *flagSet) atLeast(name string, v, min int64) error {
	if v < min {
		return fmt.Errorf("--%s %d: want a number ≥ %d", name, v, min)
	}
	return nil
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
func flagGiven(fs *flagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
