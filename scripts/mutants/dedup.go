package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// The proof that deduplication changes the work, never the verdict:
// `sessiondag exhaust` at N ops with and without it, on the implementation
// and with each mutant compiled in, must count the same scripts, runs,
// failures by length, and reduce the same first failure.

// walkResult is what one walk printed: its summary and its first failure.
type walkResult struct {
	Summary struct {
		Scripts, Runs, Skipped, Unsynced, Failures int64
		ChecksRun                                  int64   `json:"checks_run"`
		ByLength                                   []int64 `json:"by_length"`
		FailuresByLength                           []int64 `json:"failures_by_length"`
		CPUSeconds                                 float64 `json:"cpu_seconds"`
	}
	first string // check [data] and key of the first failure reduced
}

// dedupCompare prints the table and returns how many implementations had
// verdicts that differ.
func dedupCompare(todo []target, maxOps int, tmp string) (int, error) {
	fmt.Printf("| implementation | scripts | runs | failures (by length) | first failure reduced | sessions checked: without → with | processor s: without → with | verdicts |\n")
	fmt.Printf("|---|---|---|---|---|---|---|---|\n")
	differ := 0
	for i := -1; i < len(todo); i++ {
		start := time.Now()
		var m *target
		name := ""
		if i >= 0 {
			m, name = &todo[i], todo[i].Name
		}
		bin, err := binary(m, tmp)
		if err != nil {
			return 0, err
		}
		var runs [2]walkResult
		for i, dedup := range []bool{false, true} {
			if runs[i], err = walkOnce(bin, name, maxOps, dedup, filepath.Join(tmp, "out")); err != nil {
				return 0, fmt.Errorf("%q, dedup %v: %w", name, dedup, err)
			}
		}
		a, b := runs[0], runs[1]
		same := a.Summary.Scripts == b.Summary.Scripts && a.Summary.Runs == b.Summary.Runs &&
			a.Summary.Skipped == b.Summary.Skipped && a.Summary.Unsynced == b.Summary.Unsynced &&
			a.Summary.Failures == b.Summary.Failures && slices.Equal(a.Summary.ByLength, b.Summary.ByLength) &&
			slices.Equal(a.Summary.FailuresByLength, b.Summary.FailuresByLength) && a.first == b.first
		verdict := "same"
		if !same {
			verdict, differ = "**differ**", differ+1
		}
		label := "`" + name + "`"
		if name == "" {
			label = "as built (no mutant)"
		}
		first := a.first
		if !same {
			first = a.first + " / " + b.first
		}
		fmt.Printf("| %s | %d | %d | %d %v | %s | %d → %d | %.0f → %.0f | %s |\n", label, a.Summary.Scripts, a.Summary.Runs,
			a.Summary.Failures, a.Summary.FailuresByLength, first, a.Summary.ChecksRun, b.Summary.ChecksRun,
			a.Summary.CPUSeconds, b.Summary.CPUSeconds, verdict)
		fmt.Fprintf(os.Stderr, "mutants: %q compared in %s\n", name, time.Since(start).Round(time.Second))
	}
	return differ, nil
}

// walkOnce walks every script of at most ops ops, one worker (the first
// failure reduced is then the first in walk order), with the mutant named
// compiled in ("" for none).
func walkOnce(bin, name string, ops int, dedup bool, out string) (walkResult, error) {
	cmd := exec.Command(bin, "exhaust", "--max-ops", strconv.Itoa(ops), "--workers", "1", "--max-reduced", "1",
		"--dedup="+strconv.FormatBool(dedup), "--json", "--quiet", "--out", out)
	cmd.Env = append(os.Environ(), "SESSIONDAG_MUTANT="+name)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if x, ok := err.(*exec.ExitError); !ok || x.ExitCode() != 1 {
			return walkResult{}, fmt.Errorf("exhaust: %v: %s", err, stderr.String())
		}
	}
	var res walkResult
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var rec struct {
			Failure *struct{ Check, Data, Key string } `json:"failure"`
			Summary *json.RawMessage                   `json:"summary"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return walkResult{}, fmt.Errorf("reading exhaust --json: %w", err)
		}
		if f := rec.Failure; f != nil && res.first == "" {
			res.first = fmt.Sprintf("%s [%s] %s", f.Check, f.Data, f.Key)
		}
		if rec.Summary != nil {
			if err := json.Unmarshal(*rec.Summary, &res.Summary); err != nil {
				return walkResult{}, err
			}
		}
	}
	if res.first == "" {
		res.first = "none"
	}
	return res, sc.Err()
}
