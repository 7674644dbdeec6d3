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
	command  *string
	timeout  *float64
	maxReply *int
	fs       *flagSet
}

func addImplFlags(fs *flagSet) implFlags {
	return implFlags{
		command: fs.String("impl", "", "judge this implementation: a command speaking the implementation protocol (docs/protocol.md), run with sh -c (default: impl/, in-process)"),
		timeout: fs.Float64("impl-timeout", process.DefaultTimeout.Seconds(), "the deadline of each request to --impl, in seconds (at least "+
			fmt.Sprint(minTimeout.Seconds())+", at most "+fmt.Sprint(maxTimeout.Seconds())+")"),
		maxReply: fs.Int("impl-max-reply", process.DefaultMaxReply>>20, "the longest reply line read from --impl, in MiB: a longer one is a protocol finding "+
			"(a reply costs the harness up to about 90 times its size in memory)"),
		fs: fs,
	}
}

// given reports whether --impl was on the command line (an empty value
// chooses the in-process implementation over a file's `#! impl` line).
func (f implFlags) given() bool { return flagGiven(f.fs, "impl") }

// open starts command (nil, nil for "": in-process) and says on stderr what
// it declared. The pool must be closed.
func (f implFlags) open(command string, stderr io.Writer) (*process.Pool, error) {
	timeout, err := deadline(*f.timeout)
	if err != nil {
		return nil, err
	}
	if *f.maxReply < 1 || *f.maxReply > maxReplyMiB {
		return nil, fmt.Errorf("--impl-max-reply %d: want a number of MiB from 1 to %d", *f.maxReply, maxReplyMiB)
	}
	if command == "" {
		return nil, nil
	}
	p, err := process.Open(command, process.Options{Timeout: timeout, MaxReply: *f.maxReply << 20, KnownWithout: gen.KnownWithout})
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

// The bounds of --impl-timeout and --impl-max-reply.
const (
	minTimeout  = time.Millisecond
	maxTimeout  = 24 * time.Hour
	maxReplyMiB = 4096
)

// deadline is --impl-timeout's seconds as a duration: a number from
// minTimeout to maxTimeout (not NaN, not infinite, not so small it rounds
// to nothing).
func deadline(seconds float64) (time.Duration, error) {
	if !(seconds >= minTimeout.Seconds() && seconds <= maxTimeout.Seconds()) {
		return 0, fmt.Errorf("--impl-timeout %v: want a number of seconds from %v to %v", seconds, minTimeout.Seconds(), maxTimeout.Seconds())
	}
	return time.Duration(seconds * float64(time.Second)), nil
}
