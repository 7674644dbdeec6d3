// Command openprogram-table prints the findings of one run against the
// original (make check-openprogram: its log and the failure files its
// drivers saved) as the markdown tables of docs/openprogram.md: one row per
// distinct failure, reduced (who found it, the check and data, the first
// difference, the script), then one row per entry of the known-findings
// file (what it accepted). With -doc FILE it replaces the text between the
// FILE's `<!-- NAME table begin -->` and `<!-- NAME table end -->` lines
// (NAME from -name) instead of printing: the table is the run's, not
// written by hand.
//
//	go run ./scripts/openprogram-table -log bench/openprogram-r.txt -name r -doc docs/openprogram.md DIR...
//
// DIRs hold the saved failures (*.ops); files and rows are sorted, so the
// same run gives the same text.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"sessiondag/ops"
)

func main() {
	log := flag.String("log", "", "the run's output (its known-findings lines are read)")
	name := flag.String("name", "r", "the table's name in the doc's marker lines")
	doc := flag.String("doc", "", "replace the table between the marker lines of this file instead of printing it")
	flag.Parse()
	table, err := build(flag.Args(), *log)
	if err == nil && *doc != "" {
		err = splice(*doc, *name, table)
	} else if err == nil {
		fmt.Print(table)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "openprogram-table:", err)
		os.Exit(1)
	}
}

// row is one saved failure.
type row struct{ by, check, what, script, file string }

var foundBy = regexp.MustCompile(`^(.*?) found it: (\S+) \[[^]]*\]: (.*)$`)

// build reads every failure file of dirs and the known lines of log.
func build(dirs []string, log string) (string, error) {
	var rows []row
	for _, d := range dirs {
		files, err := filepath.Glob(filepath.Join(d, "*.ops"))
		if err != nil {
			return "", err
		}
		slices.Sort(files)
		for _, path := range files {
			r, err := read(path)
			if err != nil {
				return "", err
			}
			rows = append(rows, r)
		}
	}
	var b strings.Builder
	if len(rows) == 0 {
		b.WriteString("No failure outside the known-findings file.\n")
	} else {
		fmt.Fprintf(&b, "%d distinct failures, reduced:\n\n", len(rows))
		b.WriteString("| found by | check [data] | first difference | reduced script | file |\n|---|---|---|---|---|\n")
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | `%s` | %s |\n", cell(r.by), cell(r.check), cell(r.what), cell(r.script), cell(r.file))
	}
	known, err := knownLines(log)
	if err != nil {
		return "", err
	}
	if len(known) == 0 {
		b.WriteString("\nNo finding of the run was of a class a known-findings file accepts.\n")
		return b.String(), nil
	}
	b.WriteString("\nKnown findings (the commit's known-findings file), as the drivers counted them:\n\n")
	b.WriteString("| driver | entry | accepted |\n|---|---|---|\n")
	for _, k := range known {
		b.WriteString(k)
	}
	return b.String(), nil
}

// read is one failure file's row: its first header line says who found
// it, the check and the difference.
func read(path string) (row, error) {
	f, err := os.Open(path)
	if err != nil {
		return row{}, err
	}
	defer f.Close()
	file, err := ops.ParseFile(f, path)
	if err != nil {
		return row{}, err
	}
	r := row{file: filepath.Base(path)}
	if len(file.Header) > 0 {
		if m := foundBy.FindStringSubmatch(file.Header[0]); m != nil {
			r.by, r.what = strings.TrimPrefix(m[1], "sessiondag "), m[3]
		} else {
			r.what = file.Header[0]
		}
	}
	if d, ok := file.Directive("check"); ok {
		r.check = fmt.Sprintf("%s [%s]", arg(d, "name"), arg(d, "data"))
	}
	var script []string
	for _, op := range file.Ops {
		script = append(script, ops.Format(op))
	}
	r.script = strings.Join(script, "; ")
	return r, nil
}

func arg(d ops.Directive, key string) string {
	for _, a := range d.Args {
		if a.Key == key {
			return a.Value
		}
	}
	return ""
}

var knownLine = regexp.MustCompile(`^(props|hunt|exhaust|replay)?:? ?known: (\S+) (accepted (\d+) findings?|matched nothing|expired)`)

// knownLines are the log's known-findings lines as table rows: each
// driver's count for each entry that accepted something (an entry that
// matched nothing is left out: the run did not reach it).
func knownLines(log string) ([]string, error) {
	if log == "" {
		return nil, nil
	}
	f, err := os.Open(log)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		m := knownLine.FindStringSubmatch(sc.Text())
		if m == nil || m[4] == "" {
			continue
		}
		by := m[1]
		if by == "" {
			by = "replay"
		}
		out = append(out, fmt.Sprintf("| %s | %s | %s |\n", by, cell(filepath.Base(m[2])), m[4]))
	}
	return out, sc.Err()
}

// cell is s fit for a table cell: no line breaks, no bar.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// splice replaces the lines between doc's marker lines for name.
func splice(doc, name, table string) error {
	b, err := os.ReadFile(doc)
	if err != nil {
		return err
	}
	begin, end := fmt.Sprintf("<!-- %s table begin -->\n", name), fmt.Sprintf("<!-- %s table end -->", name)
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %q … %q lines", doc, strings.TrimSpace(begin), end)
	}
	return os.WriteFile(doc, []byte(s[:i+len(begin)]+table+s[j:]), 0o644)
}
