package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"sessiondag/impl/flags"
	"sessiondag/protocol/serve"
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
	together := fs.String("together", "", "FIRST+SECOND[,…]: write an op of the second kind (one without fields) with each op of the first, and declare it (docs/protocol.md)")
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
	for _, p := range strings.Split(*together, ",") {
		if p == "" {
			continue
		}
		first, second, ok := strings.Cut(p, "+")
		if !ok {
			return fail(stderr, "serve", fmt.Errorf("--together %q: want FIRST+SECOND", p))
		}
		o.Together = append(o.Together, [2]string{first, second})
	}
	if err := o.Check(); err != nil {
		return fail(stderr, "serve", fmt.Errorf("--%w", err))
	}
	if err := serve.Serve(os.Stdin, stdout, o); err != nil {
		return fail(stderr, "serve", err)
	}
	return 0
}
