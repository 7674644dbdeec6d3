package exhaust

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/internal/shard"
	"sessiondag/internal/verdict"
	"sessiondag/protocol"
)

// Summary is what a run checked. The counts of shards add up (Merge).
type Summary struct {
	MaxOps int      `json:"max_ops"`
	Kinds  string   `json:"kinds,omitempty"`   // the op kinds used, when not every kind
	Impl   string   `json:"impl,omitempty"`    // the implementation checked, when not in-process
	NotRun []string `json:"not_run,omitempty"` // the lanes and checks that cannot judge it, each with why
	// LeftOut is what the comparisons leave out for it (its unmodelled
	// keys, the views it does not return: protocol.About.LeftOut), which
	// the verdict says.
	LeftOut []string `json:"left_out,omitempty"`
	Shard   string   `json:"shard"` // "i/n"; "0/1" for a whole run
	// Walk is the walk's key (WalkID.Key): parts and shards of one walk
	// carry the same, and only they merge.
	Walk string `json:"walk,omitempty"`
	// Claimant is who walked the part, when parts were claimed (Claims).
	Claimant string `json:"claimant,omitempty"`
	// With claims, a claimant's own summary (Shard "claimed") says how many
	// parts the walk has and which were not finished when it ended, by who
	// holds them: its verdict is of the parts it walked, not of the whole.
	Parts      int      `json:"parts,omitempty"`
	Unfinished []Held   `json:"unfinished,omitempty"`
	Merged     []string `json:"merged,omitempty"` // the shards a merged summary adds up
	Scripts    int64    `json:"scripts"`          // distinct valid scripts enumerated and checked
	ByLength   []int64  `json:"by_length"`        // scripts of 1, 2, … ops
	Runs       int64    `json:"runs"`             // script × kind of data checked
	Skipped    int64    `json:"skipped"`          // script × data not run: below a failing script
	// Unsynced counts the runs on legacy data whose intent is not in the
	// data, where the checks that need it (a kind with Synced) were left out.
	Unsynced int64 `json:"unsynced"`
	// Between counts the scripts (of Scripts, each once) that end after
	// the first of two ops the implementation writes in one step
	// (protocol.About.Together): there is no view between them to judge,
	// so no check ran on them.
	Between  int64 `json:"between,omitempty"`
	Failures int64 `json:"failures"` // failing script × data
	// FailuresByLength counts them by the failing script's length.
	FailuresByLength []int64 `json:"failures_by_length,omitempty"`
	Reduced          int64   `json:"reduced"`  // failures reduced and kept (distinct per shard)
	Rebuilds         int64   `json:"rebuilds"` // sessions rebuilt from a prefix
	Forks            int64   `json:"forks"`    // … and copied from a session after the prefix instead
	// What deduplication did: sessions checked (one per distinct data and
	// lane), distinct states expanded and states found
	// again (nothing below them walked), memo entries dropped (then found
	// again by walking), the most ops of a script covered.
	Dedup     bool  `json:"dedup"`
	ChecksRun int64 `json:"checks_run"`
	// Walked counts the runs (script × lane) the walk entered; the rest
	// of Runs were taken from the memo with the states they lie below.
	Walked int64 `json:"walked"`
	// HistoryChecks counts the sessions of ChecksRun that ran the checks
	// about what loads keep (harness.Check.History), after a load.
	HistoryChecks int64 `json:"history_checks"`
	States        int64 `json:"states"`
	Reused        int64 `json:"reused"`
	Forgotten     int64 `json:"forgotten"`
	Depth         int   `json:"depth"`
	// Stopped: the run ended at its first failing script (Options.Stop).
	Stopped bool    `json:"stopped,omitempty"`
	Seconds float64 `json:"seconds"` // wall time (merged: the longest shard)
	// WorkerSeconds is the walk time summed over workers and shards.
	WorkerSeconds float64 `json:"worker_seconds"`
	// CPUSeconds is the processor time used (summed over shards): what
	// the run costs whatever else shares the machine.
	CPUSeconds float64 `json:"cpu_seconds"`
	// Claimants are the parts' claimants of a merged run, by name.
	Claimants []ClaimantTime `json:"claimants,omitempty"`
}

// ClaimantTime is what one claimant of parts (Claims) walked.
type ClaimantTime struct {
	Name       string  `json:"name"`
	Parts      int64   `json:"parts"`
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
}

// Balance is how the claimants of a merged run shared it: the processor
// time of the slowest and of the mean claimant (zero without claimants).
func (s Summary) Balance() (slowest, mean float64) {
	for _, c := range s.Claimants {
		slowest = max(slowest, c.CPUSeconds)
		mean += c.CPUSeconds / float64(len(s.Claimants))
	}
	return slowest, mean
}

// addClaimant adds what a claimant walked.
func (s *Summary) addClaimant(c ClaimantTime) {
	i, found := slices.BinarySearchFunc(s.Claimants, c.Name, func(a ClaimantTime, name string) int {
		return strings.Compare(a.Name, name)
	})
	if !found {
		s.Claimants = slices.Insert(s.Claimants, i, ClaimantTime{Name: c.Name})
	}
	t := &s.Claimants[i]
	t.Parts, t.Seconds, t.CPUSeconds = t.Parts+c.Parts, t.Seconds+c.Seconds, t.CPUSeconds+c.CPUSeconds
}

// CollisionBound bounds the probability that two distinct states or data
// of the run shared a fingerprint: the birthday bound over every
// fingerprint its memos held.
func (s Summary) CollisionBound() float64 { return CollisionBound(s.States + s.ChecksRun) }

// Failed reports whether a script failed.
func (s Summary) Failed() bool { return s.Failures > 0 }

// Verdict is the walk's: fail when a script failed; undecided when it
// judged no script (nothing the implementation writes, or nothing left to
// walk); else a pass of every script it walked — for one shard or part,
// of that part only: the verdict on the whole is the merge's (sessiondag
// summary).
func (s Summary) Verdict() verdict.Verdict {
	v := s.verdict()
	if note := protocol.LeftOutNote(s.LeftOut); note != "" {
		v.Reasons = append(v.Reasons, note)
	}
	return v
}

func (s Summary) verdict() verdict.Verdict {
	switch {
	case s.Failures > 0:
		return verdict.FailBecause(fmt.Sprintf("%d failing scripts", s.Failures))
	case s.Shard == claimedShard:
		return s.claimantVerdict()
	case s.Scripts == 0:
		return verdict.UndecidedBecause("no script was judged")
	case s.Claimant != "" || s.Shard != "" && s.Shard != "0/1" && len(s.Merged) == 0:
		return verdict.PassBecause(fmt.Sprintf("no failure in %d scripts of part %s; the verdict on the whole walk is the merge of every part (sessiondag summary)", s.Scripts, s.Shard))
	}
	return verdict.PassBecause(fmt.Sprintf("every valid script of at most %d ops%s: %d scripts, no failure", s.MaxOps, kindsNote(s), s.Scripts))
}

// claimedShard is the Shard of a claimant's own summary.
const claimedShard = "claimed"

// claimantVerdict is a claimant's, which walked its parts to the end and
// found no failure: a pass of those parts, which says whether the whole
// walk is finished. A part another claimant holds unfinished (killed, or
// still walking) leaves the whole undecided: its verdict is the merge of
// every part once they are all there.
func (s Summary) claimantVerdict() verdict.Verdict {
	whole := "every part of the walk is finished: the verdict on the whole walk is the merge of the parts (sessiondag summary DIR/parts/*.jsonl)"
	if n := s.unfinished(); n > 0 {
		whole = fmt.Sprintf("the whole walk is UNDECIDED: %d of its %d parts not finished (%s); its verdict is the merge of every part, once they are all there",
			n, s.Parts, heldText(s.Unfinished))
	}
	if s.Scripts == 0 {
		return verdict.PassBecause("this claimant walked no part: the other claimants had claimed every part left; " + whole)
	}
	return verdict.PassBecause(fmt.Sprintf("no failure in the %d scripts of the parts this claimant walked; %s", s.Scripts, whole))
}

// unfinished counts the parts of Unfinished.
func (s Summary) unfinished() int {
	n := 0
	for _, h := range s.Unfinished {
		n += len(h.Parts)
	}
	return n
}

// heldText says who holds the parts not finished, a few numbers each.
func heldText(held []Held) string {
	var out []string
	for _, h := range held {
		who := "claimed by " + h.Claimant
		if h.Claimant == "" {
			who = "claimed by no one"
		}
		nums := make([]string, 0, 4)
		for i, k := range h.Parts {
			if i == 3 {
				nums = append(nums, "…")
				break
			}
			nums = append(nums, fmt.Sprint(k))
		}
		out = append(out, fmt.Sprintf("%d %s: %s", len(h.Parts), who, strings.Join(nums, ", ")))
	}
	return strings.Join(out, "; ")
}

// walkName is how an error names a walk's key ("" for a summary that
// carries none).
func walkName(key string) string {
	if key == "" {
		return "a walk not named (an older summary)"
	}
	return "walk " + key
}

// ScriptsPerSecond is the rate of the run over its wall time.
func (s Summary) ScriptsPerSecond() float64 {
	if s.Seconds <= 0 {
		return 0
	}
	return float64(s.Scripts) / s.Seconds
}

// ScriptsPerCPUSecond is the rate per second of processor time.
func (s Summary) ScriptsPerCPUSecond() float64 {
	if s.CPUSeconds <= 0 {
		return 0
	}
	return float64(s.Scripts) / s.CPUSeconds
}

// add adds the counts of t to s.
func (s *Summary) add(t Summary) {
	s.Scripts += t.Scripts
	s.Runs += t.Runs
	s.Skipped += t.Skipped
	s.Unsynced += t.Unsynced
	s.Between += t.Between
	s.Failures += t.Failures
	s.Reduced += t.Reduced
	s.Rebuilds += t.Rebuilds
	s.Forks += t.Forks
	s.Dedup = s.Dedup || t.Dedup
	s.ChecksRun += t.ChecksRun
	s.Walked += t.Walked
	s.HistoryChecks += t.HistoryChecks
	s.States += t.States
	s.Reused += t.Reused
	s.Forgotten += t.Forgotten
	s.Depth = max(s.Depth, t.Depth)
	s.Seconds = max(s.Seconds, t.Seconds)
	s.WorkerSeconds += t.WorkerSeconds
	s.CPUSeconds += t.CPUSeconds
	for len(s.ByLength) < len(t.ByLength) {
		s.ByLength = append(s.ByLength, 0)
	}
	for i, n := range t.ByLength {
		s.ByLength[i] += n
	}
	for len(s.FailuresByLength) < len(t.FailuresByLength) {
		s.FailuresByLength = append(s.FailuresByLength, 0)
	}
	for i, n := range t.FailuresByLength {
		s.FailuresByLength[i] += n
	}
	if t.Claimant != "" {
		s.addClaimant(ClaimantTime{Name: t.Claimant, Parts: 1, Seconds: t.Seconds, CPUSeconds: t.CPUSeconds})
	}
	for _, c := range t.Claimants {
		s.addClaimant(c)
	}
}

// Merge adds up the summaries of shards of one run (the same max_ops and
// kinds) and reports whether they are every shard exactly once.
func Merge(sums []Summary) (merged Summary, complete bool, err error) {
	if len(sums) == 0 {
		return Summary{}, false, fmt.Errorf("exhaust: no summaries to merge")
	}
	merged = Summary{MaxOps: sums[0].MaxOps, Kinds: sums[0].Kinds, Impl: sums[0].Impl, NotRun: sums[0].NotRun, LeftOut: sums[0].LeftOut, Walk: sums[0].Walk}
	for _, s := range sums {
		if s.Impl != merged.Impl {
			return Summary{}, false, fmt.Errorf("exhaust: merging runs against %q and %q", merged.Impl, s.Impl)
		}
		if !slices.Equal(s.LeftOut, merged.LeftOut) {
			return Summary{}, false, fmt.Errorf("exhaust: merging runs that left out of the comparison %q and %q", merged.LeftOut, s.LeftOut)
		}
		if s.MaxOps != merged.MaxOps || s.Kinds != merged.Kinds {
			return Summary{}, false, fmt.Errorf("exhaust: merging runs of max_ops %d %q and %d %q",
				merged.MaxOps, merged.Kinds, s.MaxOps, s.Kinds)
		}
		if s.Walk != merged.Walk {
			return Summary{}, false, fmt.Errorf("exhaust: merging parts of different walks (%s and %s): another op vocabulary, other checks or another implementation; their counts add up to neither",
				walkName(merged.Walk), walkName(s.Walk))
		}
		shards := s.Merged
		if len(shards) == 0 {
			shards = []string{s.Shard}
		}
		merged.Merged = append(merged.Merged, shards...)
		merged.add(s)
	}
	slices.Sort(merged.Merged)
	merged.Shard = fmt.Sprintf("merged %d", len(merged.Merged))
	for _, c := range merged.Claimants {
		merged.Seconds = max(merged.Seconds, c.Seconds) // the claimants ran side by side
	}
	return merged, len(shard.Coverage(merged.Merged)) == 0, nil
}
