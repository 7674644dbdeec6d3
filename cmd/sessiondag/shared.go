package main

import (
	"fmt"
	"strings"
	"time"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
	"sessiondag/internal/shard"
)

// The flags the commands that judge share — --check, --shard, --out,
// --json, --seed (and --impl, impl.go) — each declared here once: its
// name, how it is read and checked, and the words of its help; a command
// adds what it means for it.

// checkFlag declares --check: comma-separated checks (harness.Select);
// what says which checks run without it. The value it gives is nil for
// "every check the command runs by default".
func (fs *flagSet) checkFlag(what string) func() ([]harness.Check, error) {
	v := fs.String("check", "", "comma-separated checks to run, of "+strings.Join(harness.CheckNames(), ", ")+" (default: "+what+")")
	return func() ([]harness.Check, error) {
		if strings.TrimSpace(*v) == "" {
			return nil, nil
		}
		cs, err := harness.Select(*v)
		if err != nil {
			return nil, fmt.Errorf("--check: %w", err)
		}
		return cs, nil
	}
}

// shardFlag declares --shard i/n: the part of the work of which (the
// session directories, the scripts, the iterations) this run does; the
// parts merge with `sessiondag summary`. def is its value when not given
// ("" or "0/1": the whole).
func (fs *flagSet) shardFlag(def, of string) func() (shard.Shard, error) {
	v := fs.String("shard", def, "do only part `i/n` (0 ≤ i < n) of "+of+"; merge the parts' JSON lines with 'sessiondag summary'")
	return func() (shard.Shard, error) {
		if *v == "" {
			return shard.Whole, nil
		}
		s, err := shard.Parse(*v)
		if err != nil {
			return shard.Shard{}, fmt.Errorf("--shard: %w", err)
		}
		return s, nil
	}
}

// outFlag declares --out: where the command writes what it found (it
// never writes into what it reads).
func (fs *flagSet) outFlag(def, what string) *string {
	return fs.String("out", def, what)
}

// jsonFlag declares --json: JSON instead of text (JSON lines whose records
// are tagged with their "kind", for a command that judges); what says
// what is printed.
func (fs *flagSet) jsonFlag(what string) *bool {
	return fs.Bool("json", false, "print JSON instead of text: "+what)
}

// knownFlag declares --known: a reviewed file of the implementation's
// accepted classes of failure (campaign.Known); its findings are counted
// as known, the run goes on past them, and only what is new fails.
func (fs *flagSet) knownFlag() func() (*campaign.Known, error) {
	v := fs.String("known", "", "accept the classes of failure this reviewed `file` names (docs/protocol.md, \"Known findings\"): the run goes on past them and reports only what is new")
	return func() (*campaign.Known, error) {
		if *v == "" {
			return nil, nil
		}
		return campaign.ReadKnown(*v, time.Now())
	}
}

// seedFlag declares --seed: the seed everything drawn comes from, printed
// so that a run can be repeated.
func (fs *flagSet) seedFlag(def uint64, what string) *uint64 {
	return fs.Uint64("seed", def, what)
}
