package harness

import (
	"fmt"
	"os"

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
}

// Replay runs a script file and returns what failed: at most one finding
// per kind of data. A file saved by a failing check names that check and
// its data in a `#! check` line, so its replay runs exactly that.
func Replay(f *ops.File, o ReplayOptions) ([]*Finding, error) {
	checks, data, err := Plan(f, o)
	if err != nil {
		return nil, err
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
		fd, err := Play(d, f.Ops, checks...)
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
var ColdCheck = Check{Name: "cold", Prop: "P1", Doc: "the cold load of a damaged directory ≡ the model's reader"}

// Plan is what Replay runs: the checks and the kinds of data.
func Plan(f *ops.File, o ReplayOptions) ([]Check, []Data, error) {
	checks, data := o.Checks, o.Data
	if d, ok := f.Directive("check"); ok {
		if len(checks) == 0 {
			name, _ := d.Get("name")
			switch name {
			case ColdCheck.Name:
				return []Check{ColdCheck}, nil, nil
			case "validity":
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
