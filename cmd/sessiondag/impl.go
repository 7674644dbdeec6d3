package main

import (
	"fmt"
	"io"
	"time"

	"sessiondag/checker/gen"
	"sessiondag/protocol"

	"sessiondag/protocol/process"
)

// implFlags are --impl and --impl-timeout: the implementation a command
// judges, a command that speaks docs/protocol.md (run with sh -c), and the
// deadline of each request to it.
type implFlags struct {
	command *string
	timeout *float64
	fs      *flagSet
}

func addImplFlags(fs *flagSet) implFlags {
	return implFlags{
		command: fs.String("impl", "", "judge this implementation: a command speaking the implementation protocol (docs/protocol.md), run with sh -c (default: impl/, in-process)"),
		timeout: fs.Float64("impl-timeout", process.DefaultTimeout.Seconds(), "the deadline of each request to --impl, in seconds"),
		fs:      fs,
	}
}

// given reports whether --impl was on the command line (an empty value
// chooses the in-process implementation over a file's `#! impl` line).
func (f implFlags) given() bool { return flagGiven(f.fs, "impl") }

// open starts command (nil, nil for "": in-process) and says on stderr what
// it declared. The pool must be closed.
func (f implFlags) open(command string, stderr io.Writer) (*process.Pool, error) {
	if command == "" {
		return nil, nil
	}
	if *f.timeout <= 0 {
		return nil, fmt.Errorf("--impl-timeout %v: want a positive number of seconds", *f.timeout)
	}
	p, err := process.Open(command, process.Options{Timeout: secondsOf(*f.timeout), KnownWithout: gen.KnownWithout})
	if err != nil {
		return nil, err
	}
	a := p.About()
	fmt.Fprintf(stderr, "implementation: %s, claims %s (configs %v)\n", a.Name, a.Claim, a.Configs)
	return p, nil
}

// starter is the pool as the harness takes it: nil in-process.
func starter(p *process.Pool) protocol.Starter {
	if p == nil {
		return nil
	}
	return p
}

func secondsOf(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
