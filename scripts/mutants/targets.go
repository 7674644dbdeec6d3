package main

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"sessiondag/internal/mutants"
)

// target is a mutant and the packages whose tests must catch it: none
// listed for the judge's, whose packages judgeScope finds.
type target struct {
	Name, Bug string
	pkgs      []string
	def       *mutants.Mutant
}

// every lists the implementation's mutants (caught by the property suite)
// and then the judge's (caught by the tests of every package that links
// the code it edits).
func every() ([]target, error) {
	all, err := mutants.All()
	if err != nil {
		return nil, err
	}
	var out []target
	for _, m := range all {
		t := target{Name: m.Name, Bug: m.Bug, def: &m}
		if m.Side == mutants.Impl {
			t.pkgs = []string{"./props"}
		}
		out = append(out, t)
	}
	return out, nil
}

// selected is the mutants named in only (comma-separated), in every's
// order, or all of them.
func selected(only string) ([]target, error) {
	all, err := every()
	if err != nil {
		return nil, err
	}
	if only == "" {
		return all, nil
	}
	names := strings.Split(only, ",")
	var out []target
	for _, m := range all {
		if slices.Contains(names, m.Name) {
			out = append(out, m)
		}
	}
	if len(out) != len(names) {
		known := make([]string, len(all))
		for i, m := range all {
			known[i] = m.Name
		}
		return nil, fmt.Errorf("-only %q names a mutant that does not exist (mutants: %s)", only, strings.Join(known, ", "))
	}
	return out, nil
}

// buildFlags are the go command's flags that compile the mutant in: its
// overlay, written under tmp.
func (t target) buildFlags(tmp string) ([]string, error) {
	ov, err := mutants.Overlay(".", *t.def, tmp)
	if err != nil {
		return nil, err
	}
	return []string{"-overlay=" + ov}, nil
}

// sites is the packages whose code the mutant edits (its import paths).
func (t target) sites() []string {
	var out []string
	for _, f := range t.def.Files() {
		p := path.Join("sessiondag", path.Dir(f))
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// binary builds the command-line tool with the mutant compiled in ("" for
// none) under tmp and returns its path.
func binary(t *target, tmp string) (string, error) {
	name := "as-built"
	var flags []string
	if t != nil {
		name = t.Name
		var err error
		if flags, err = t.buildFlags(tmp); err != nil {
			return "", err
		}
	}
	bin := filepath.Join(tmp, "bin", name, "sessiondag")
	args := append(append([]string{"build"}, flags...), "-o", bin, "./cmd/sessiondag")
	build := exec.Command("go", args...)
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return bin, nil
}
