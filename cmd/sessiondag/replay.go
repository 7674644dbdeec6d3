package main

import (
	"fmt"
	"io"
	"os"

	"sessiondag/driver"
	"sessiondag/harness"
	"sessiondag/impl/flags"
	"sessiondag/ops"
)

func cmdReplay(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("replay", stderr)
	fl := flags.Off
	fs.Var(&fl, "flags", "rollout flags for writing and reading: off, all, or a list such as A,B")
	out := fs.String("out", "", "also write the session to this directory (must not exist), to inspect it with load")
	pos, err := parseArgs(fs, args)
	if err != nil || len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: sessiondag replay FILE.ops [--flags F]")
		return 2
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return fail(stderr, "replay", err)
	}
	defer f.Close()
	script, err := ops.Parse(f, pos[0])
	if err != nil {
		return fail(stderr, "replay", err)
	}
	if *out != "" {
		if _, err := os.Stat(*out); err == nil {
			return fail(stderr, "replay", fmt.Errorf("%s exists; refusing to write into it", *out))
		}
		if _, err := driver.Build(script, *out, fl); err != nil {
			return fail(stderr, "replay", err)
		}
	}
	mm, err := harness.Replay(script, fl)
	if err != nil {
		return fail(stderr, "replay", fmt.Errorf("%s: %w", pos[0], err))
	}
	if mm != nil {
		fmt.Fprintf(stdout, "%s (flags %s): %s\n", pos[0], fl, mm)
		return 1
	}
	against := "model.Legacy"
	switch fl {
	case flags.Off:
	case flags.All:
		against = "model.Target"
	default:
		against = "the rollout rule (no further from model.Target than R)"
	}
	fmt.Fprintf(stdout, "%s (flags %s): %d ops, every view agrees with %s after every op\n", pos[0], fl, len(script), against)
	return 0
}
