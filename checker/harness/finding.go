package harness

import (
	"fmt"
	"strings"

	"sessiondag/checker/ops"
)

// A Finding is a property failing on a script: which check, on which kind
// of data, after how many ops, what is wrong and the evidence (a go-cmp diff
// -want +got, or the views that disagree).
type Finding struct {
	Check string
	Data  Data
	Step  int // ops applied when the check failed
	What  string
	Diff  string
	// Directives beyond the check's own that the replay needs (a cold
	// load's damage to the files, say).
	Extra []ops.Directive
}

func (f *Finding) Error() string {
	return fmt.Sprintf("%s [%s]: %s, after op %d", f.Check, f.Data.Name, f.What, f.Step)
}

// Directive is the `#! check` line that makes a replay run exactly this
// check on this kind of data.
func (f *Finding) Directive() ops.Directive {
	d := ops.Directive{Name: "check", Args: []ops.Arg{{Key: "name", Value: f.Check}, {Key: "data", Value: f.Data.Slug}}}
	if base, ok := DataBySlug(f.Data.Slug); !ok || base.Writer != f.Data.Writer {
		d.Args = append(d.Args, ops.Arg{Key: "writer", Value: f.Data.Writer.String()})
	}
	return d
}

// File is script with this finding as a replayable file: a header saying
// what failed, the directives, then the ops up to the failing one.
func (f *Finding) File(title string, script []ops.Op) *ops.File {
	if f.Step > 0 && f.Step < len(script) {
		script = script[:f.Step]
	}
	header := []string{fmt.Sprintf("%s [%s]: %s, after op %d", title, f.Data.Name, firstLine(f.What), f.Step)}
	return &ops.File{Header: header, Directives: append([]ops.Directive{f.Directive()}, f.Extra...), Ops: script}
}

// Script is the part of script the finding saw: the ops up to the failing
// one.
func (f *Finding) Script(script []ops.Op) []ops.Op {
	if f.Step > 0 && f.Step < len(script) {
		return script[:f.Step]
	}
	return script
}

// Report is the failure message: what failed, the script, the evidence and
// the command that reproduces it (when the file was saved).
func (f *Finding) Report(script []ops.Op, savedAs string) string {
	if f.Step > 0 && f.Step < len(script) {
		script = script[:f.Step]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s: %s, after op %d\n", f.Data.Name, f.Check, f.What, f.Step)
	fmt.Fprintf(&b, "script (%d ops):\n%s\n", len(script), indent(ops.String(script)))
	if f.Diff != "" {
		fmt.Fprintf(&b, "%s\n", f.Diff)
	}
	if savedAs != "" {
		fmt.Fprintf(&b, "reproduce: %s\n", f.ReplayCommand(savedAs))
	} else {
		b.WriteString("reproduce: (the script was not saved)\n")
	}
	return b.String()
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// ReplayCommand is the command that replays the finding's saved file: with
// the implementation it was found on, when that was another process (the
// file's `#! impl` line names it too).
func (f *Finding) ReplayCommand(file string) string {
	cmd := "go run ./cmd/sessiondag replay " + file
	for _, d := range f.Extra {
		if d.Name == "impl" {
			c, _ := d.Get("command")
			cmd += " --impl " + ShellQuote(c)
		}
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
