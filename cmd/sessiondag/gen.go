package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"sessiondag/audit"
	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/ops"
)

func cmdGen(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("gen", stdout, stderr)
	seed := fs.seedFlag(1, "generator seed (the same seed gives the same bytes)")
	nodes := fs.Int("nodes", 100, "write at least this many nodes")
	out := fs.outFlag("", "session directory to create (must not exist)")
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
	script, text, written := genScript(*seed, *nodes, *legacy, fl)
	if err := writeSession(*out, script, text, flags.Off, store.WriteOptions{}); err != nil {
		return fail(stderr, "gen", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d ops, %d nodes\n", *out, len(script), written)
	return 0
}

// genScript is gen's script, its text as session.ops holds it and how many
// nodes it writes. The writers' flags are an op of the script, so the
// script alone writes the directory: a replay of session.ops makes the same
// bytes.
func genScript(seed uint64, nodes int, legacy bool, fl flags.Set) ([]ops.Op, []byte, int) {
	script, written := gen.SessionScript(sessionIDFor(seed), seed, nodes, gen.Options{Legacy: legacy}, fl.String())
	text := fmt.Sprintf("# sessiondag gen --seed %d --nodes %d --flags %s\n%s", seed, nodes, fl, ops.String(script))
	return script, []byte(text), written
}

// writeSession writes the session script makes, its writers starting on fl,
// to dir, and text beside it as the script the audit reads
// (audit.ScriptName).
func writeSession(dir string, script []ops.Op, text []byte, fl flags.Set, wo store.WriteOptions) error {
	if _, err := driver.BuildWith(script, dir, fl, wo); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, audit.ScriptName), text, 0o644)
}

// sessionIDFor names a generated session after its seed, in the web's
// local_<10 hex> form.
func sessionIDFor(seed uint64) string { return fmt.Sprintf("local_%010x", seed&0xffffffffff) }
