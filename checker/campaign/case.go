package campaign

import (
	"fmt"
	"slices"

	"sessiondag/protocol"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// A Case is one check on one script of a kind of data: what a failure file
// holds and what a replay of it runs.
type Case struct {
	Check  harness.Check
	Data   harness.Data
	Script []ops.Op
	// A check with Damage reads the directory the script writes, its
	// history numbered from FirstSeq, after Damage and Files change it.
	FirstSeq int64
	Damage   []PointerEdit
	Folder   []FolderEdit   // how the original leaves the folder besides the nodes
	Files    []harness.Edit // edits read from a saved file's `#! file` lines
	// Impl starts the implementation the case plays against; nil = the
	// implementation in this repository, in-process. Its file names it
	// (`#! impl`), so that a replay runs it again.
	Impl protocol.Starter
}

// Of is the case that finding f of c's check is: the script up to the op
// after which it failed, and the Validity check when the sides disagreed on
// whether an op applies (Session.Apply finds that whatever check runs).
func (c Case) Of(f *harness.Finding) Case {
	if f.Step > 0 && f.Step < len(c.Script) && !c.Check.Damage {
		c.Script = c.Script[:f.Step]
	}
	switch f.Check {
	case harness.Validity.Name:
		c.Check = harness.Validity
	case harness.Protocol.Name:
		c.Check = harness.Protocol
	}
	return c
}

// Play runs the case from scratch and returns the first finding, with the
// case's data. tmp is where directories on disk go ("" = the system's).
func (c Case) Play(tmp string) (*harness.Finding, error) {
	// A script the implementation does not take is run against none: a
	// reduction's candidate that holds a variant it declares without
	// (a parent named before it is written, when it mints its own ids) is
	// no reduction of its failure.
	if c.Impl != nil {
		if err := Takes(c.Impl.About(), c.Script); err != nil {
			return nil, err
		}
	}
	if c.Check.Damage {
		if c.Impl != nil {
			if err := c.Check.Applies(c.Impl.About()); err != nil {
				return nil, err
			}
		}
		edits, err := Edits(c)
		if err != nil {
			return nil, err
		}
		f, err := harness.Cold(c.Script, c.FirstSeq, append(slices.Clone(c.Files), edits...), tmp)
		if f != nil {
			f.Check, f.Data = c.Check.Name, c.Data
		}
		return f, err
	}
	f, err := harness.PlayOn(c.Impl, c.Data, c.Script, c.Check)
	if f != nil {
		f.Data = c.Data
	}
	return f, err
}

// Fails reports whether the case is data of its kind and fails its check.
func (c Case) Fails(tmp string) bool {
	if !c.Data.Admits(c.Script) {
		return false
	}
	f, err := c.Play(tmp)
	return err == nil && f != nil && f.Check == c.Check.Name
}

// directives are the `#!` lines beyond the check's own that rebuild a
// damaged directory.
func (c Case) directives() []ops.Directive {
	var out []ops.Directive
	if impl := c.ImplCommand(); impl != "" {
		out = append(out, ImplDirective(impl))
	}
	if !c.Check.Damage {
		return out
	}
	out = append(out, ops.Directive{Name: "cold", Args: []ops.Arg{{Key: "first-seq", Value: fmt.Sprint(c.FirstSeq)}}})
	for _, d := range c.Damage {
		out = append(out, d.Directive())
	}
	for _, e := range c.Folder {
		out = append(out, e.Directive())
	}
	for _, e := range c.Files {
		out = append(out, e.Directive())
	}
	return out
}

// ImplCommand is the command of the implementation the case plays
// against, "" in-process.
func (c Case) ImplCommand() string {
	if c.Impl == nil {
		return ""
	}
	return c.Impl.About().Command
}

// ImplDirective is the `#! impl command=…` line naming the implementation
// a file's case was found on.
func ImplDirective(command string) ops.Directive {
	return ops.Directive{Name: "impl", Args: []ops.Arg{{Key: "command", Value: command}}}
}

// ImplOf is the implementation command a file's `#! impl` line names, "".
func ImplOf(f *ops.File) string {
	if d, ok := f.Directive("impl"); ok {
		c, _ := d.Get("command")
		return c
	}
	return ""
}

// With is the case on another script (and damage), the rest kept.
func (c Case) With(script []ops.Op, damage []PointerEdit) Case {
	c.Script, c.Damage = script, damage
	return c
}

// GenOptions are what the generator draws for a kind of data: every legacy
// shape, up to three writers, flag flips where the kind has them (forward, or
// any way), and only data whose intent is in the data where the kind asks for
// that.
func GenOptions(d harness.Data) gen.Options {
	start, _ := ops.Step(d.Writer.String())
	return gen.Options{Legacy: true, FlagFlips: d.Flips > harness.Steady, Rollback: d.Flips == harness.Any,
		Writers: 3, SyncedBrowser: d.Synced, StartStep: start}
}
