package campaign

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"sessiondag/checker/harness"
	"sessiondag/internal/termtext"
	"sessiondag/ops"
)

// checkLine is the `#! check` line that makes a replay run exactly this
// case: the check, the data kind, and the writers' flags when they are not
// the kind's own.
func checkLine(c Case) ops.Directive {
	d := ops.Directive{Name: "check", Args: []ops.Arg{{Key: "name", Value: c.Check.Name}, {Key: "data", Value: c.Data.Slug}}}
	if base, ok := harness.DataBySlug(c.Data.Slug); !ok || base.Writer != c.Data.Writer {
		d.Args = append(d.Args, ops.Arg{Key: "writer", Value: c.Data.Writer.String()})
	}
	return d
}

// File is the case as a replayable file: a first line saying what failed
// and who found it, the header lines, the directives, then the script.
func File(c Case, f *harness.Finding, foundBy string, header ...string) *ops.File {
	first := fmt.Sprintf("%s [%s]: %s", c.Check.Name, c.Data.Name, FirstLine(f.What))
	if foundBy != "" {
		first = foundBy + " found it: " + first
	}
	// A header line holds an implementation's text (its name, its
	// error): escaped, it cannot end its comment line and forge an op or
	// a directive of the file, nor reach a terminal that shows the file.
	lines := []string{termtext.Line(first)}
	for _, h := range header {
		lines = append(lines, termtext.Line(h))
	}
	return &ops.File{Header: lines,
		Directives: append([]ops.Directive{checkLine(c)}, c.directives()...), Ops: c.Script}
}

// Name is the file name a case is saved under: the check, the data kind and
// the first twelve hex digits of its key, so that the same failure saved
// twice is one file.
func Name(c Case) string {
	return fmt.Sprintf("%s-%s-%s.ops", c.Check.Name, c.Data.Slug, Key(c)[:12])
}

// Save writes the case under dir as Name(c) and returns its path.
func Save(dir string, c Case, f *harness.Finding, foundBy string, header ...string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("save a failure: %w", err)
	}
	path := filepath.Join(dir, Name(c))
	if err := WriteWhole(path, []byte(File(c, f, foundBy, header...).String())); err != nil {
		return "", fmt.Errorf("save a failure: %w", err)
	}
	return path, nil
}

// WriteWhole writes b to path whole or not at all: to a temporary file of
// its own in the same directory first, renamed to path once every byte is
// written and closed. On a full disk it leaves no file, empty or cut short,
// and the same file saved by two processes at once is one or the other.
func WriteWhole(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err = errors.Join(err, f.Close()); err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReplayCommand is the command that replays a saved case and exits 1 on it.
func ReplayCommand(path string) string { return "go run ./cmd/sessiondag replay " + path }

// ReplayCommand is the command that replays the case saved at path: with
// the implementation it plays against, when that is another process (the
// file's `#! impl` line names it too).
func (c Case) ReplayCommand(path string) string {
	cmd := ReplayCommand(path)
	if impl := c.ImplCommand(); impl != "" {
		cmd += " --impl " + ShellQuote(impl)
	}
	return cmd
}

// ShellQuote makes s one word for a POSIX shell.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@,+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Report is the failure message: what failed, the script, the evidence and
// the command that reproduces it (when the file was saved).
func Report(c Case, f *harness.Finding, savedAs string) string {
	command := ""
	if savedAs != "" {
		command = c.ReplayCommand(savedAs)
	}
	return ReportReproduced(c, f, command)
}

// ReportReproduced is Report with the command that reproduces the failure
// given ("": none, the script was not saved).
func ReportReproduced(c Case, f *harness.Finding, command string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s: %s, after op %d\n", c.Data.Name, c.Check.Name, termtext.Text(f.What), f.Step)
	fmt.Fprintf(&b, "script (%d ops):\n%s\n", len(c.Script), indent(clipLines(ops.String(c.Script))))
	if f.Diff != "" {
		fmt.Fprintf(&b, "%s\n", termtext.Text(f.Diff))
	}
	if command != "" {
		fmt.Fprintf(&b, "reproduce: %s\n", termtext.Line(command))
	} else {
		b.WriteString("reproduce: (the script was not saved)\n")
	}
	return b.String()
}

// FirstLine is s up to its first newline.
func FirstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// clipLines cuts each line longer than maxShown bytes: a report shows a
// script's ops, a saved file holds them whole.
func clipLines(s string) string {
	const maxShown = 300
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if len(l) > maxShown {
			cut := maxShown
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			lines[i] = l[:cut] + fmt.Sprintf("… (%d bytes)", len(l))
		}
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
