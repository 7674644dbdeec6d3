package main

import (
	"fmt"
	"io"
	"os"

	"sessiondag/checker/serve"
	"sessiondag/impl/flags"
)

// cmdServe serves the implementation in this repository over the
// implementation protocol (docs/protocol.md) on stdin and stdout, for the
// harness to judge across a process boundary.
func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("serve", stdout, stderr)
	var fl flags.Set
	fs.Var(&fl, "flags", "serve one flag set: its writers and loads use it (off claims the legacy, all the target)")
	claim := fs.String("claim", "rollout", "rollout: every config of the rollout path, the writers' flags from each session")
	mint := fs.Bool("mint", false, "give nodes ids of its own and report them (exercises the harness's renaming)")
	pos, err := fs.parse(args)
	if err != nil || len(pos) != 0 {
		return fs.usageError(err)
	}
	switch {
	case *claim != "rollout":
		return fail(stderr, "serve", fmt.Errorf("--claim %q: the only claim is rollout", *claim))
	case flagGiven(fs, "flags") && flagGiven(fs, "claim"):
		return fail(stderr, "serve", fmt.Errorf("--flags and --claim exclude each other"))
	}
	o := serve.Options{Mint: *mint}
	if flagGiven(fs, "flags") {
		o.Flags = &fl
	}
	if err := serve.Serve(os.Stdin, stdout, o); err != nil {
		return fail(stderr, "serve", err)
	}
	return 0
}
