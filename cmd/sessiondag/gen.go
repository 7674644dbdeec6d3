package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"sessiondag/audit"
	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
)

func cmdGen(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("gen", stdout, stderr)
	seed := fs.Uint64("seed", 1, "generator seed (the same seed gives the same bytes)")
	nodes := fs.Int("nodes", 100, "write at least this many nodes")
	out := fs.String("out", "", "session directory to create (must not exist)")
	legacy := fs.Bool("legacy", true, "include legacy-shaped rows (adapter writes, orphans, script rows)")
	fl := flags.Off
	fs.Var(&fl, "flags", "the writers' rollout flags: off, all, or a list such as A,B")
	if pos, err := fs.parse(args); err != nil || len(pos) > 0 || *out == "" {
		return fs.usageError(err)
	}
	if err := fs.atLeast("nodes", int64(*nodes), 1); err != nil {
		return fail(stderr, "gen", err)
	}
	if _, err := os.Stat(*out); err == nil {
		return fail(stderr, "gen", fmt.Errorf("%s exists; refusing to write into it", *out))
	}
	g := gen.New(gen.Options{Legacy: *legacy})
	script := append([]ops.Op{ops.Session{ID: sessionIDFor(*seed)}}, g.ScriptNodes(gen.NewSeeded(*seed), *nodes)...)
	if _, err := driver.Build(script, *out, fl); err != nil {
		return fail(stderr, "gen", err)
	}
	text := fmt.Sprintf("# sessiondag gen --seed %d --nodes %d --flags %s\n%s", *seed, *nodes, fl, ops.String(script))
	if err := os.WriteFile(filepath.Join(*out, audit.ScriptName), []byte(text), 0o644); err != nil {
		return fail(stderr, "gen", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d ops, %d nodes\n", *out, len(script), g.Nodes())
	return 0
}

// sessionIDFor names a generated session after its seed, in the web's
// local_<10 hex> form.
func sessionIDFor(seed uint64) string { return fmt.Sprintf("local_%010x", seed&0xffffffffff) }
