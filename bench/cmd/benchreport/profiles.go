package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// profile is one pprof -top output saved by scripts/bench-report.sh: a
// "# title" line, plain lines (the loop's share of the process), and
// "## caption" lines each over one of pprof's tables.
type profile struct {
	name  string // file name without .txt
	lines []string
}

// readProfiles reads the profiles of a directory in file name order.
func readProfiles(dir string) ([]profile, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, fmt.Errorf("profiles in %s: %w", dir, err)
	}
	slices.Sort(files)
	var out []profile
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("profile: %w", err)
		}
		out = append(out, profile{name: strings.TrimSuffix(filepath.Base(f), ".txt"), lines: strings.Split(strings.TrimRight(string(b), "\n"), "\n")})
	}
	if len(out) == 0 {
		return nil, errors.New("no profiles (*.txt) in " + dir)
	}
	return out, nil
}

// profileView is a profile as the report shows it: a heading, the plain
// lines as a list, and each table as a code block under its caption.
type profileView struct {
	Title    string
	Items    []string
	Sections []profileSection
}

type profileSection struct {
	Caption string
	Lines   []string
}

// view splits a profile into its parts. The title is the last "# " line
// before anything else; with none, the file name stands in. A table runs
// from its caption to the next caption, blank lines included; plain lines
// between the title and the first table are kept trimmed, blank ones
// dropped.
func (pr profile) view() profileView {
	v := profileView{Title: strings.NewReplacer("-", " ").Replace(pr.name)}
	started := func() bool { return len(v.Items) > 0 || len(v.Sections) > 0 }
	for _, line := range pr.lines {
		switch {
		case strings.HasPrefix(line, "# "):
			if !started() {
				v.Title = strings.TrimPrefix(line, "# ")
			}
		case strings.HasPrefix(line, "## "):
			v.Sections = append(v.Sections, profileSection{Caption: strings.TrimPrefix(line, "## ")})
		case len(v.Sections) > 0:
			last := &v.Sections[len(v.Sections)-1]
			last.Lines = append(last.Lines, line)
		case strings.TrimSpace(line) != "":
			v.Items = append(v.Items, strings.TrimSpace(line))
		}
	}
	return v
}
