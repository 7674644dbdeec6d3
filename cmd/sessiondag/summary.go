package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	"sessiondag/audit"
	"sessiondag/checker/exhaust"
	"sessiondag/checker/hunt"
	"sessiondag/internal/verdict"
)

// A summaryMerger merges the summary records of one command's JSON lines.
type summaryMerger interface {
	Merge(raw json.RawMessage) error
	Text(w io.Writer)
	Value() any
	Verdict() verdict.Verdict
	Problems() []string // what makes the merged summary doubtful (a shard missing or read twice)
}

// summaryKinds are the commands whose JSON lines `sessiondag summary`
// merges, by the "kind" their records carry. A command that prints
// summary records adds its kind here.
var summaryKinds = map[string]func() summaryMerger{
	audit.Kind:   func() summaryMerger { return &auditMerger{sum: audit.NewSummary()} },
	hunt.Kind:    newHuntMerger,
	exhaust.Kind: newExhaustMerger,
}

func cmdSummary(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("summary", stdout, stderr)
	asJSON := fs.jsonFlag("the merged summary, a line per kind")
	files, err := fs.parse(args)
	if err != nil {
		return fs.usageError(err)
	}
	merged := map[string]summaryMerger{}
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		if err := readSummaries(name, merged); err != nil {
			return fail(stderr, "summary", err)
		}
	}
	if len(merged) == 0 {
		return fail(stderr, "summary", fmt.Errorf("no summary record in %v", files))
	}
	kinds := make([]string, 0, len(merged))
	for k := range merged {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	all := verdict.PassBecause()
	for _, k := range kinds {
		m := merged[k]
		for _, p := range m.Problems() {
			fmt.Fprintf(stderr, "sessiondag summary: %s: %s\n", k, line(p))
		}
		v := m.Verdict()
		if ps := m.Problems(); len(ps) > 0 && v.Outcome == verdict.Pass {
			v = verdict.UndecidedBecause(ps...)
		}
		if *asJSON {
			_ = enc.Encode(map[string]any{"kind": k, "summary": m.Value(), "verdict": v})
		} else {
			m.Text(stdout)
		}
		all = all.And(v)
	}
	if len(kinds) > 1 && !*asJSON {
		fmt.Fprintf(stdout, "\n%s\n", line(all.Line()))
	}
	return all.Exit()
}

// readSummaries merges every summary record of a file ("-": stdin) into
// merged; other records (one per session) are skipped.
func readSummaries(name string, merged map[string]summaryMerger) error {
	in := io.Reader(os.Stdin)
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30) // a session record can be large
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var rec struct {
			Kind    string          `json:"kind"`
			Summary json.RawMessage `json:"summary"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if rec.Summary == nil {
			continue
		}
		newMerger, ok := summaryKinds[rec.Kind]
		if !ok {
			return fmt.Errorf("%s:%d: a summary of kind %q, which no command makes", name, line, rec.Kind)
		}
		if merged[rec.Kind] == nil {
			merged[rec.Kind] = newMerger()
		}
		if err := merged[rec.Kind].Merge(rec.Summary); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// auditMerger merges `sessiondag audit --json` summaries.
type auditMerger struct{ sum *audit.Summary }

func (m *auditMerger) Merge(raw json.RawMessage) error {
	var s audit.Summary
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("audit summary: %w", err)
	}
	return m.sum.Merge(&s)
}

func (m *auditMerger) Text(w io.Writer)         { m.sum.WriteText(w) }
func (m *auditMerger) Value() any               { return m.sum }
func (m *auditMerger) Verdict() verdict.Verdict { return m.sum.Verdict() }
func (m *auditMerger) Problems() []string       { return m.sum.Problems() }
