package campaign

import (
	"fmt"
	"strconv"
	"strings"

	"sessiondag/protocol"

	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/model"
	"sessiondag/ops"
)

// ReplayOptions choose what a replay checks. Left empty, a file's own
// `#! check` line decides; a file without one gets every check that runs
// after each op, on data written with the flags on and with them off, each
// where its declared kinds of data admit the script.
type ReplayOptions struct {
	Checks []harness.Check
	Data   []harness.Data
	Tmp    string // where directories on disk go ("" = the system's)
	// Impl starts the implementation the file is replayed against; nil =
	// the implementation in this repository, in-process. Against another,
	// the checks and kinds of data that cannot judge it are left out
	// (NotRun says which).
	Impl protocol.Starter
	// PerOp, above 0, spreads the checks over a long script so that their
	// work grows with its length (harness.Schedule); 0 checks after every
	// op.
	PerOp int
}

// SpreadPerOp is the nodes' worth of checking `sessiondag replay` gives
// each op of a long script by default (ReplayOptions.PerOp): a session of
// up to 64 nodes — every reduced failure, every script of the corpus — is
// checked after every op.
const SpreadPerOp = 64

// A Group is checks played together on one kind of data: one session, the
// checks after every op.
type Group struct {
	Data   harness.Data
	Checks []harness.Check
	Case   *Case // a check that reads a damaged directory: played alone
	// Outside: a file's `#! check` line names a kind of data that does not
	// admit its script (harness.Data.Admits); the check runs as the file
	// says, but the kind's rule leaves such data out.
	Outside bool
}

// Plan is what Replay plays for a file.
func Plan(f *ops.File, o ReplayOptions) ([]Group, error) {
	if d, ok := f.Directive("check"); ok {
		return planned(f, d, o)
	}
	if len(o.Data) > 0 {
		checks := o.Checks
		if len(checks) == 0 {
			checks = perOp(harness.Checks)
		}
		var out []Group
		for _, d := range o.Data {
			out = append(out, Group{Data: d, Checks: checks})
		}
		return out, nil
	}
	checks := o.Checks
	if len(checks) == 0 {
		checks = harness.Checks
	}
	var out []Group
	for _, fl := range []flags.Set{flags.All, flags.Off} {
		g := Group{Data: harness.DataFor(f.Ops, fl)}
		for _, c := range perOp(checks) {
			if _, ok := harness.FirstAdmitting(c.Data, fl, f.Ops); ok {
				g.Checks = append(g.Checks, c)
			}
		}
		if len(g.Checks) > 0 {
			out = append(out, g)
		}
	}
	return out, nil
}

// planned is the plan of a file with a `#! check` line.
func planned(f *ops.File, d ops.Directive, o ReplayOptions) ([]Group, error) {
	data, err := dataOf(d)
	if err != nil {
		return nil, err
	}
	name, _ := d.Get("name")
	if len(o.Data) > 0 {
		data = o.Data[0]
	}
	checks := o.Checks
	if len(checks) == 0 {
		c, err := harness.CheckNamed(name)
		if err != nil {
			return nil, fmt.Errorf("#! check: %w", err)
		}
		checks = []harness.Check{c}
	}
	outside := name != harness.Validity.Name && len(o.Data) == 0 && !data.Admits(f.Ops)
	var out []Group
	for _, c := range checks {
		if c.Damage {
			cs, err := caseOf(f, c, data)
			if err != nil {
				return nil, err
			}
			out = append(out, Group{Data: data, Checks: []harness.Check{c}, Case: &cs, Outside: outside})
		}
	}
	if per := perOp(checks); len(per) > 0 {
		out = append(out, Group{Data: data, Checks: per, Outside: outside})
	}
	return out, nil
}

// Replay runs a script file and returns what failed: at most one finding
// per group. A file saved by a failing check names that check and its data
// in a `#! check` line, so its replay runs exactly that.
//
// Against another implementation, a file it does not take (Takes: an op
// kind it does not write, a variant it declares without), or whose every
// check or kind of data cannot judge it, is an error that is
// harness.ErrNotApplicable.
func Replay(f *ops.File, o ReplayOptions) ([]*harness.Finding, error) {
	found, _, err := ReplayScheduled(f, o)
	return found, err
}

// ReplayScheduled is Replay, with what each group's schedule checked (the
// ops after which its checks ran, of its ops), in the plan's order.
func ReplayScheduled(f *ops.File, o ReplayOptions) ([]*harness.Finding, []harness.Schedule, error) {
	groups, err := Plan(f, o)
	if err != nil {
		return nil, nil, err
	}
	if len(groups) == 0 {
		// Nothing to judge is no pass: say why no kind of data takes it.
		return nil, nil, fmt.Errorf("%w: %s", harness.ErrNotApplicable, unplanned(f.Ops))
	}
	if o.Impl != nil {
		// What the script holds that the implementation does not write
		// first, then what the plan's checks and data need of it: either
		// way the error says "needs …" (Lacking), as go test ./props does.
		a := o.Impl.About()
		if err := Takes(a, f.Ops); err != nil {
			return nil, nil, err
		}
		var skipped []string
		groups, skipped = applicable(a, groups)
		if len(groups) == 0 {
			return nil, nil, fmt.Errorf("%w: needs %s: %s", harness.ErrNotApplicable, strings.Join(Lacking(f, o), ", "), strings.Join(skipped, "; "))
		}
	}
	var out []*harness.Finding
	var scheds []harness.Schedule
	for _, g := range groups {
		var fd *harness.Finding
		sc := harness.Schedule{PerOp: o.PerOp}
		if g.Case != nil {
			fd, err = g.Case.Play(o.Tmp)
		} else {
			fd, err = harness.PlayScheduled(o.Impl, g.Data, f.Ops, &sc, g.Checks...)
			if fd != nil {
				fd.Data = g.Data
			}
		}
		scheds = append(scheds, sc)
		if err != nil {
			return out, scheds, fmt.Errorf("[%s] %w", g.Data.Name, err)
		}
		if fd != nil {
			out = append(out, fd)
		}
	}
	return out, scheds, nil
}

// unplanned says why no check and kind of data judges a script: the first
// op the writers' model refuses (a script that is not valid), or none of
// the kinds of data the checks judge admitting it.
func unplanned(script []ops.Op) string {
	id := harness.SessionIDOf(script)
	if id == "" {
		id = ops.DefaultSession
	}
	run := model.NewLegacy(id)
	for i, op := range script {
		if err := run.Apply(op); err != nil {
			return fmt.Sprintf("the script is not valid: model.Legacy refuses op %d (%s): %v", i+1, ops.Format(op), err)
		}
	}
	return "no kind of data the checks judge admits the script"
}

// CaseOf is the one case a file holds: its `#! check` line (or the one check
// and data the options name) on its script, with its damage.
func CaseOf(f *ops.File, o ReplayOptions) (Case, error) {
	groups, err := Plan(f, o)
	if err != nil {
		return Case{}, err
	}
	if len(groups) != 1 || len(groups[0].Checks) != 1 {
		return Case{}, fmt.Errorf("the file is not one check on one kind of data: give it a `#! check` line, or --check NAME with --flags")
	}
	if g := groups[0]; g.Case != nil {
		c := *g.Case
		c.Impl = o.Impl
		return c, nil
	}
	return Case{Check: groups[0].Checks[0], Data: groups[0].Data, Script: f.Ops, Impl: o.Impl}, nil
}

// NotRun lists what a replay against another implementation leaves out:
// the checks and kinds of data of the plan that cannot judge it, each
// with why.
func NotRun(f *ops.File, o ReplayOptions) []string {
	if o.Impl == nil {
		return nil
	}
	groups, err := Plan(f, o)
	if err != nil {
		return nil
	}
	_, skipped := applicable(o.Impl.About(), groups)
	return skipped
}

// applicable keeps the groups, and the checks of each, that can judge an
// implementation, and says why each of the others is left out.
func applicable(a protocol.About, groups []Group) ([]Group, []string) {
	var out []Group
	var skipped []string
	for _, g := range groups {
		if err := harness.TakesData(a, g.Data); err != nil {
			skipped = append(skipped, harness.Why(err))
			continue
		}
		var checks []harness.Check
		for _, c := range g.Checks {
			if err := c.Applies(a); err != nil {
				skipped = append(skipped, harness.Why(err))
				continue
			}
			checks = append(checks, c)
		}
		if len(checks) > 0 {
			g.Checks = checks
			out = append(out, g)
		}
	}
	return out, skipped
}

// caseOf reads the damage directives of a file.
func caseOf(f *ops.File, c harness.Check, data harness.Data) (Case, error) {
	cs := Case{Check: c, Data: data, Script: f.Ops}
	for _, d := range f.Directives {
		switch d.Name {
		case "cold":
			if v, ok := d.Get("first-seq"); ok {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return Case{}, fmt.Errorf("#! cold first-seq=%q: %w", v, err)
				}
				cs.FirstSeq = n
			}
		case "damage":
			e, err := damageOf(d)
			if err != nil {
				return Case{}, err
			}
			cs.Damage = append(cs.Damage, e)
		case "folder":
			e, err := folderOf(d)
			if err != nil {
				return Case{}, err
			}
			cs.Folder = append(cs.Folder, e)
		case "file":
			p, _ := d.Get("path")
			content, _ := d.Get("content")
			cs.Files = append(cs.Files, harness.Edit{Path: p, Content: []byte(content)})
		case "remove":
			p, _ := d.Get("path")
			cs.Files = append(cs.Files, harness.Edit{Path: p, Remove: true})
		}
	}
	return cs, nil
}

// perOp keeps the checks that run on the session after every op.
func perOp(checks []harness.Check) []harness.Check {
	var out []harness.Check
	for _, c := range checks {
		if c.PerOp() {
			out = append(out, c)
		}
	}
	return out
}

// dataOf reads the data kind of a `#! check` line.
func dataOf(d ops.Directive) (harness.Data, error) {
	slug, _ := d.Get("data")
	kind, ok := harness.DataBySlug(slug)
	if !ok {
		var slugs []string
		for _, k := range harness.DataKinds {
			slugs = append(slugs, k.Slug)
		}
		return harness.Data{}, fmt.Errorf("#! check: data=%q is not one of %v", slug, slugs)
	}
	if w, ok := d.Get("writer"); ok {
		fl, err := flags.Parse(w)
		if err != nil {
			return harness.Data{}, fmt.Errorf("#! check: writer=%q: %w", w, err)
		}
		kind.Writer = fl
	}
	return kind, nil
}
