package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// The small-scope curve: for each mutant, the smallest op count at which
// `sessiondag exhaust` (every valid script of at most N ops, the default
// checks) kills it. Each mutant is walked at 1, 2, … ops, each walk ending
// at its first failing script, until one fails or maxOps passes.

// exhaustRun is what one walk said about a mutant.
type exhaustRun struct {
	killed  bool
	crashed string // the walk ended neither passing nor failing: why
	check   string // "check [data]" of the failure, reduced
	reduced string // the reduced script
}

// exhaustPkg is the walk's package: a judge's mutant whose edit it does
// not link (the audit's) cannot change a walk, and is named, not walked.
const exhaustPkg = "sessiondag/checker/exhaust"

// exhaustCurve prints the table's rows and returns how many mutants
// survived every walk or were out of its reach, and how many walks crashed.
func exhaustCurve(todo []target, sc *scoper, maxOps int, tmp string) (survivors, crashed int, err error) {
	fmt.Printf("| mutant | the bug | exhaust kills it at (ops: check [data], reduced script) |\n|---|---|---|\n")
	for _, m := range todo {
		pkgs, err := sc.packages(m)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", m.Name, err)
		}
		if m.pkgs == nil && !slices.Contains(pkgs, exhaustPkg) {
			survivors++
			fmt.Printf("| `%s` | %s | **out of reach**: %s does not link the code it edits |\n", m.Name, m.Bug, exhaustPkg)
			continue
		}
		start := time.Now()
		bin, err := binary(&m, tmp)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", m.Name, err)
		}
		cell := fmt.Sprintf("survives %d ops", maxOps)
		for ops := 1; ops <= maxOps; ops++ {
			run, err := exhaustOnce(bin, m.Name, ops, filepath.Join(tmp, m.Name))
			if err != nil {
				return 0, 0, fmt.Errorf("%s at %d ops: %w", m.Name, ops, err)
			}
			if run.crashed != "" {
				crashed++
				cell = fmt.Sprintf("%d (*crash*)", ops)
				fmt.Fprintf(os.Stderr, "mutants: %s at %d ops: %s\n", m.Name, ops, run.crashed)
				break
			}
			if run.killed {
				cell = fmt.Sprintf("%d: %s, `%s`", ops, run.check, run.reduced)
				break
			}
		}
		if cell == fmt.Sprintf("survives %d ops", maxOps) {
			survivors++
			cell = "**" + cell + "**"
		}
		fmt.Fprintf(os.Stderr, "mutants: %s done in %s\n", m.Name, time.Since(start).Round(time.Second))
		fmt.Printf("| `%s` | %s | %s |\n", m.Name, m.Bug, cell)
	}
	return survivors, crashed, nil
}

// exhaustOnce walks every script of at most ops ops with the mutant
// compiled in, to the first failure.
func exhaustOnce(bin, name string, ops int, out string) (exhaustRun, error) {
	cmd := exec.Command(bin, "exhaust", "--max-ops", strconv.Itoa(ops), "--stop", "--max-reduced", "1",
		"--json", "--quiet", "--out", out)
	cmd.Env = append(os.Environ(), "SESSIONDAG_MUTANT="+name)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if x, ok := err.(*exec.ExitError); ok {
		code = x.ExitCode()
	} else if err != nil {
		return exhaustRun{}, err
	}
	switch {
	case code == 0:
		return exhaustRun{}, nil
	case code == 1:
		return readKill(&stdout)
	case bytes.Contains(stderr.Bytes(), []byte("panic:")) || code < 0:
		// The implementation panicked (or the walk was killed): the
		// mutant broke it visibly, on a script of at most ops ops.
		return exhaustRun{crashed: fmt.Sprintf("exit %d: %s", code, firstLine(stderr.String()))}, nil
	}
	return exhaustRun{}, fmt.Errorf("exhaust exited %d: %s", code, stderr.String())
}

// readKill reads the failure a walk printed.
func readKill(r io.Reader) (exhaustRun, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var rec struct {
			Failure *struct {
				Check, Data, Reduced string
			} `json:"failure"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return exhaustRun{}, fmt.Errorf("reading exhaust --json: %w", err)
		}
		if f := rec.Failure; f != nil {
			return exhaustRun{killed: true, check: f.Check + " [" + f.Data + "]", reduced: oneLine(f.Reduced)}, nil
		}
	}
	return exhaustRun{killed: true, check: "(no failure printed)"}, sc.Err()
}

// oneLine joins a script's ops with "; " for a table cell.
func oneLine(script string) string {
	var b bytes.Buffer
	for line := range bytes.Lines([]byte(script)) {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.Write(bytes.TrimRight(line, "\n"))
	}
	return b.String()
}

func firstLine(s string) string {
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
