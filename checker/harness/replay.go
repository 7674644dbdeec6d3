package harness

import (
	"fmt"
	"os"
	"strings"

	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
)

// ReplayOptions choose what a replay checks. Left empty, a file's own
// `#! check` line decides, and a file without one gets every check on data
// written with the flags on and with them off.
type ReplayOptions struct {
	Checks []Check
	Data   []Data
	Tmp    string // where a cold check makes its directory ("" = the system's)
	// Impl starts the implementation the script is replayed against; nil
	// = the implementation in this repository, in-process.
	Impl Starter
}

// Replay runs a script file and returns what failed: at most one finding
// per kind of data. A file saved by a failing check names that check and
// its data in a `#! check` line, so its replay runs exactly that. Against
// another implementation, the checks and kinds of data it cannot judge are
// left out (NotRun says which); when nothing is left, the error is
// ErrNotApplicable.
func Replay(f *ops.File, o ReplayOptions) ([]*Finding, error) {
	checks, data, err := Plan(f, o)
	if err != nil {
		return nil, err
	}
	if o.Impl != nil {
		var skipped []string
		checks, data, skipped = applicable(o.Impl.About(), checks, data)
		if len(skipped) > 0 && (len(data) == 0 || checks != nil && len(checks) == 0) {
			return nil, notApplicable("%s", strings.Join(skipped, "; "))
		}
		for _, op := range f.Ops {
			if a := o.Impl.About(); !a.Writes(op.Kind()) {
				return nil, notApplicable("%s does not write %s ops", a.Name, op.Kind())
			}
		}
	}
	if len(checks) == 1 && checks[0].Name == "cold" {
		first, edits, err := coldOf(f)
		if err != nil {
			return nil, err
		}
		tmp := o.Tmp
		if tmp == "" {
			tmp = os.TempDir()
		}
		fd, err := Cold(f.Ops, first, edits, tmp)
		if fd == nil || err != nil {
			return nil, err
		}
		return []*Finding{fd}, nil
	}
	var out []*Finding
	for _, d := range data {
		fd, err := PlayOn(o.Impl, d, f.Ops, checks...)
		if err != nil {
			return out, fmt.Errorf("[%s] %w", d.Name, err)
		}
		if fd != nil {
			out = append(out, fd)
		}
	}
	return out, nil
}

// ColdCheck names the check that Cold runs, for `#! check name=cold`.
var ColdCheck = Check{Name: "cold", Prop: "P1", Doc: "the cold load of a damaged directory ≡ the model's reader",
	Needs: Needs{InProcess: true}}

// NotRun lists what a replay against an implementation leaves out: the
// checks and kinds of data of the plan it cannot judge, each with why.
func NotRun(f *ops.File, o ReplayOptions) []string {
	if o.Impl == nil {
		return nil
	}
	checks, data, err := Plan(f, o)
	if err != nil {
		return nil
	}
	_, _, skipped := applicable(o.Impl.About(), checks, data)
	return skipped
}

// applicable keeps the checks and kinds of data an implementation can be
// judged on and says why each of the others is left out. nil checks (a
// file that needs none: validity) stay nil.
func applicable(a About, checks []Check, data []Data) ([]Check, []Data, []string) {
	var skipped []string
	var keptChecks []Check
	if checks != nil {
		keptChecks = []Check{}
	}
	for _, c := range checks {
		if err := c.Applies(a); err != nil {
			skipped = append(skipped, strings.TrimPrefix(err.Error(), ErrNotApplicable.Error()+": "))
			continue
		}
		keptChecks = append(keptChecks, c)
	}
	var keptData []Data
	for _, d := range data {
		if err := a.TakesData(d); err != nil {
			skipped = append(skipped, strings.TrimPrefix(err.Error(), ErrNotApplicable.Error()+": "))
			continue
		}
		keptData = append(keptData, d)
	}
	return keptChecks, keptData, skipped
}

// Plan is what Replay runs: the checks and the kinds of data.
func Plan(f *ops.File, o ReplayOptions) ([]Check, []Data, error) {
	checks, data := o.Checks, o.Data
	if d, ok := f.Directive("check"); ok {
		if len(checks) == 0 {
			name, _ := d.Get("name")
			switch name {
			case ColdCheck.Name:
				return []Check{ColdCheck}, nil, nil
			case "validity", ProtocolCheck:
				// The sides disagreed on whether an op applies: Session.Apply
				// finds that without any check.
				kind, err := dataOf(d)
				return nil, []Data{kind}, err
			}
			c, err := CheckNamed(name)
			if err != nil {
				return nil, nil, fmt.Errorf("#! check: %w", err)
			}
			checks = []Check{c}
		}
		if len(data) == 0 {
			kind, err := dataOf(d)
			if err != nil {
				return nil, nil, err
			}
			data = []Data{kind}
		}
	}
	if len(checks) == 0 {
		checks = Checks
	}
	if len(data) == 0 {
		data = []Data{WrittenOn, DataFor(f.Ops, flags.Off)}
	}
	return checks, data, nil
}

// dataOf reads the data kind of a `#! check` line.
func dataOf(d ops.Directive) (Data, error) {
	slug, _ := d.Get("data")
	kind, ok := DataBySlug(slug)
	if !ok {
		return Data{}, fmt.Errorf("#! check: data=%q is not one of flags-on, migration, flipped", slug)
	}
	if w, ok := d.Get("writer"); ok {
		fl, err := flags.Parse(w)
		if err != nil {
			return Data{}, fmt.Errorf("#! check: writer=%q: %w", w, err)
		}
		kind.Writer = fl
	}
	return kind, nil
}
