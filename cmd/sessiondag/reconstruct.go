package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"sessiondag/audit/reconstruct"
	"sessiondag/checker/harness"
	"sessiondag/internal/termtext"
	"sessiondag/ops"
)

// cmdReconstruct writes the op script that explains a session directory
// (stdout or --out, never into the directory), or the first row none
// explains. Exit 0 reconstructed, 1 unexplained (or the implementation's
// writers disagree with the model's), 3 ambiguous or undecided (never 0:
// the intent is not one), 2 on a command line or directory it cannot use.
func cmdReconstruct(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("reconstruct", stdout, stderr)
	out := fs.String("out", "", "write the script to `FILE` instead of stdout (not inside the session directory)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	pos, err := fs.parse(args)
	if err != nil || len(pos) != 1 {
		return fs.usageError(err)
	}
	dir := pos[0]
	if *out != "" {
		if err := outsideOf(dir, *out); err != nil {
			return fail(stderr, "reconstruct", err)
		}
	}
	res, err := reconstruct.Path(dir)
	if err != nil {
		return fail(stderr, "reconstruct", err)
	}
	var text string
	if *asJSON {
		b, err := json.Marshal(reconstructDoc(res))
		if err != nil {
			return fail(stderr, "reconstruct", err)
		}
		text = string(b) + "\n"
	} else {
		text = reconstructText(dir, res)
	}
	if *out != "" && res.Verdict != reconstruct.Unexplained {
		if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
			return fail(stderr, "reconstruct", err)
		}
		fmt.Fprintf(stdout, "wrote %s: %s\n", termtext.Line(*out), summaryLine(res))
	} else {
		fmt.Fprint(stdout, text)
	}
	if res.Disagree != "" {
		fmt.Fprintf(stderr, "sessiondag reconstruct: %s: the writers disagree: %s\n", termtext.Line(dir), termtext.Line(res.Disagree))
	}
	switch {
	case res.Verdict == reconstruct.Unexplained || res.Disagree != "":
		return 1
	case res.Verdict == reconstruct.Reconstructed:
		return 0
	}
	return 3
}

// outsideOf refuses an output file inside the session directory: a tool
// that reads session directories never writes to them.
func outsideOf(dir, file string) error {
	d, err1 := filepath.Abs(dir)
	f, err2 := filepath.Abs(file)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(d); err == nil {
		d = real
	}
	if real, err := filepath.EvalSymlinks(filepath.Dir(f)); err == nil {
		f = filepath.Join(real, filepath.Base(f))
	}
	if rel, err := filepath.Rel(d, f); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("--out %s is inside the session directory %s: refusing to write there", file, dir)
	}
	return nil
}

// summaryLine is the verdict in a line.
func summaryLine(res *reconstruct.Result) string {
	switch res.Verdict {
	case reconstruct.Reconstructed:
		how := "exact"
		if !res.Exact {
			how = "up to gaps: " + gapList(res.Gaps)
		}
		if len(res.Dropped) > 0 {
			how += fmt.Sprintf(", %s dropped", plural(len(res.Dropped), "row"))
		}
		return fmt.Sprintf("reconstructed, %s (%d rows, %d ops)", how, res.Rows, len(res.Script))
	case reconstruct.Ambiguous:
		return fmt.Sprintf("ambiguous: %s of the data %s another conversation (%d rows, %d ops)",
			plural(len(res.Alternatives), "other reading"), map[bool]string{true: "means", false: "mean"}[len(res.Alternatives) == 1], res.Rows, len(res.Script))
	case reconstruct.Undecided:
		return fmt.Sprintf("undecided: %s (%d rows, %d ops)", plural(len(res.Open), "open question"), res.Rows, len(res.Script))
	}
	return fmt.Sprintf("unexplained at %s", res.First.File)
}

func gapList(gaps []reconstruct.Gap) string {
	parts := make([]string, len(gaps))
	for i, g := range gaps {
		parts[i] = fmt.Sprintf("%s %d", g.Class, g.Count)
	}
	return strings.Join(parts, ", ")
}

// reconstructText is the script with its verdict as comment lines (the
// file replays as it is), or the first unexplained row.
func reconstructText(dir string, res *reconstruct.Result) string {
	var b strings.Builder
	if res.Verdict == reconstruct.Unexplained {
		f := res.First
		fmt.Fprintf(&b, "unexplained: %s", termtext.Line(f.File))
		if f.ID != "" {
			fmt.Fprintf(&b, " (row %s)", termtext.Line(f.ID))
		}
		b.WriteString("\n")
		if f.Op != "" {
			fmt.Fprintf(&b, "  the op that would write it: %s\n", termtext.Line(f.Op))
		}
		if f.Field != "" {
			fmt.Fprintf(&b, "  field %s: stored %s, written %s\n", termtext.Line(f.Field), termtext.Line(cut(f.Stored)), termtext.Line(cut(f.Written)))
		}
		fmt.Fprintf(&b, "  why: %s\n", termtext.Line(f.Why))
		fmt.Fprintf(&b, "  the rows before it are explained by %d ops\n", len(res.Script))
		return b.String()
	}
	fmt.Fprintf(&b, "# sessiondag reconstruct %s: %s\n", termtext.Line(dir), summaryLine(res))
	for _, g := range res.Gaps {
		fmt.Fprintf(&b, "#   gap %s: %s, first %s\n", g.Class, plural(g.Count, "value"), termtext.Line(g.First))
	}
	fmt.Fprintf(&b, "# intended chain (head %s): %s\n", res.View.HeadID, strings.Join(harness.RowIDs(res.View.Chain), " "))
	for _, a := range res.Alternatives {
		fmt.Fprintf(&b, "# other reading: %s (%s)\n#   intended chain (head %s): %s\n", termtext.Line(a.Change), a.Reason,
			a.View.HeadID, strings.Join(harness.RowIDs(a.View.Chain), " "))
	}
	for _, o := range res.Open {
		fmt.Fprintf(&b, "# open: %s\n", termtext.Line(o))
	}
	b.WriteString(scriptText(res))
	return b.String()
}

// scriptText is the script as a file: the folder's edits as `#! folder`
// lines (how the original left the folder besides the writes), then the ops.
func scriptText(res *reconstruct.Result) string {
	f := &ops.File{Ops: res.Script}
	for _, e := range res.Folder {
		f.Directives = append(f.Directives, e.Directive())
	}
	return f.String()
}

// cut shortens a value for a line.
func cut(s string) string {
	if r := []rune(s); len(r) > 160 {
		return string(r[:160]) + "…"
	}
	return s
}

// reconstructDoc is the result as one JSON object.
func reconstructDoc(res *reconstruct.Result) any {
	type alt struct {
		At       int    `json:"at_op"`
		Reason   string `json:"reason"`
		Change   string `json:"change"`
		Intended any    `json:"intended"`
	}
	alts := []alt{}
	for _, a := range res.Alternatives {
		alts = append(alts, alt{a.At + 1, a.Reason, a.Change, a.View})
	}
	gaps := []any{}
	for _, g := range res.Gaps {
		gaps = append(gaps, map[string]any{"class": g.Class, "count": g.Count, "first": g.First})
	}
	doc := map[string]any{"dir": res.Dir, "session_id": res.ID, "rows": res.Rows, "verdict": res.Verdict,
		"exact": res.Exact, "gaps": gaps, "ops": len(res.Script), "script": scriptText(res),
		"alternatives": alts, "open": append([]string{}, res.Open...), "dropped": append([]int{}, res.Dropped...)}
	if res.First != nil {
		doc["first"] = res.First
	} else {
		doc["intended"] = res.View
	}
	if res.Disagree != "" {
		doc["disagree"] = res.Disagree
	}
	return doc
}

// plural is n and the noun, in the plural unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
