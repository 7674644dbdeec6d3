package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"sessiondag/impl/flags"
)

// Exception is one reviewed finding the rollout accepts: the step of a
// session that removes a row in a way the audit calls a regression, why
// that is acceptable, and until when (inclusive, UTC; none: until the file
// changes). The file is a JSON object, reviewed like code:
//
//	{"exceptions": [
//	  {"session": "local_0000000099", "step": "A → A,B", "row": "c63adc8c3c1a",
//	   "reason": "the dispatcher fork was a test message", "expires": "2026-06-30"}
//	]}
//
// session is the session's id or its directory as the audit prints it;
// step is "FROM → TO" (or "FROM -> TO"); row is a row the finding names: a
// lost row or a user's message no user finds (without a script), a row the
// step takes off the chain, or else adds to it (with one). A step whose
// every finding is accepted is "accepted", counted apart, and blocks
// nothing; an expired exception accepts nothing.
type Exception struct {
	Session string `json:"session"`
	Step    string `json:"step"`
	Row     string `json:"row"`
	Reason  string `json:"reason"`
	Expires string `json:"expires,omitempty"`
}

// key is what an exception matches on.
func (e Exception) key() string { return e.Session + "\x00" + e.Step + "\x00" + e.Row }

// ExceptionUse is an exception as a run (or the shards merged) used it.
type ExceptionUse struct {
	Exception
	// Used: it accepted a finding. Seen: its session was audited.
	// Expired: its date has passed, so it accepted nothing.
	Used    bool `json:"used"`
	Seen    bool `json:"seen"`
	Expired bool `json:"expired,omitempty"`
}

// Stale reports whether an exception matches no finding any more (of a
// session the run audited, or of the whole run when complete): it should
// be removed, or the finding it was written for has changed.
func (u ExceptionUse) Stale(whole bool) bool {
	return !u.Used && !u.Expired && (u.Seen || whole)
}

// Exceptions are the reviewed findings of one file, checked against one
// day.
type Exceptions struct {
	list []Exception
	// bySession: the positions in list of the exceptions naming each
	// session (by id or directory), so that a run looks at a session's own
	// exceptions only, at a cost linear in sessions plus exceptions.
	bySession map[string][]int
	today     string // YYYY-MM-DD
}

// dateLayout is the expiry's form.
const dateLayout = "2006-01-02"

// ReadExceptions reads and checks an exceptions file. now decides which
// have expired.
func ReadExceptions(path string, now time.Time) (*Exceptions, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseExceptions(b, path, now)
}

// ParseExceptions is ReadExceptions of the file's bytes; name is for the
// errors.
func ParseExceptions(b []byte, name string, now time.Time) (*Exceptions, error) {
	var f struct {
		Exceptions []Exception `json:"exceptions"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if d.More() {
		// A second document would be read by nobody: its exceptions
		// would silently accept nothing.
		return nil, fmt.Errorf("%s: data after the exceptions object (at byte %d)", name, d.InputOffset())
	}
	if f.Exceptions == nil {
		return nil, fmt.Errorf(`%s: no "exceptions" list`, name)
	}
	seen := map[string]int{}
	for i := range f.Exceptions {
		e := &f.Exceptions[i]
		bad := func(field, msg string) error {
			return fmt.Errorf("%s: exception %d: field %q: %s", name, i+1, field, msg)
		}
		for _, f := range [...]struct{ field, v string }{{"session", e.Session}, {"row", e.Row}, {"reason", e.Reason}} {
			if strings.TrimSpace(f.v) == "" {
				return nil, bad(f.field, "missing (a reviewed exception names its finding and says why)")
			}
		}
		step, err := canonicalStep(e.Step)
		if err != nil {
			return nil, bad("step", err.Error())
		}
		e.Step = step
		if e.Expires != "" {
			if _, err := time.Parse(dateLayout, e.Expires); err != nil {
				return nil, bad("expires", fmt.Sprintf("%q is not a date (YYYY-MM-DD)", e.Expires))
			}
		}
		if j, dup := seen[e.key()]; dup {
			return nil, fmt.Errorf("%s: exception %d is exception %d again", name, i+1, j+1)
		}
		seen[e.key()] = i
	}
	x := &Exceptions{list: f.Exceptions, bySession: map[string][]int{}, today: now.UTC().Format(dateLayout)}
	for i, e := range f.Exceptions {
		x.bySession[e.Session] = append(x.bySession[e.Session], i)
	}
	return x, nil
}

// stepNames are the configs of the rollout path, in order.
var stepNames = func() []string {
	var out []string
	for _, fl := range flags.Rollout {
		out = append(out, fl.String())
	}
	return out
}()

// canonicalStep reads "FROM → TO" or "FROM -> TO" as "FROM → TO", with the
// configs of the rollout path.
func canonicalStep(s string) (string, error) {
	from, to, ok := strings.Cut(s, "→")
	if !ok {
		from, to, ok = strings.Cut(s, "->")
	}
	from, to = strings.TrimSpace(from), strings.TrimSpace(to)
	if !ok || from == "" || to == "" {
		return "", fmt.Errorf("%q: want FROM → TO, such as \"A → A,B\"", s)
	}
	for i := 1; i < len(stepNames); i++ {
		if stepNames[i-1] == from && stepNames[i] == to {
			return from + " → " + to, nil
		}
	}
	return "", fmt.Errorf("%q is no step of the rollout path (%s)", s, strings.Join(stepNames, " → "))
}

// findings are the rows that make a step a regression, for exceptions to
// name (Exception).
func findings(st *Step, intended bool) []string {
	var rows []Row
	switch {
	case !intended:
		rows = append(append(rows, st.Lost...), st.Hidden...)
	case len(st.Removed) > 0:
		rows = st.Removed
	default:
		rows = st.Added
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.ID)
	}
	return out
}

// apply accepts the regressions of a session that the exceptions name,
// and returns how each exception fared on it.
func (x *Exceptions) apply(s *Session) []ExceptionUse {
	if x == nil {
		return nil
	}
	mine := x.bySession[s.ID]
	if s.Dir != s.ID {
		mine = append(slices.Clone(mine), x.bySession[s.Dir]...)
		slices.Sort(mine) // in the file's order, as if the list were scanned
	}
	var uses []ExceptionUse
	for _, i := range mine {
		e := x.list[i]
		u := ExceptionUse{Exception: e, Seen: true, Expired: e.Expires != "" && x.today > e.Expires}
		for i := range s.Steps {
			st := &s.Steps[i]
			if st.From+" → "+st.To != e.Step || st.Verdict != Regression && st.Verdict != Accepted {
				continue
			}
			for _, row := range findings(st, s.Intended) {
				if row == e.Row && !u.Expired {
					st.Accepted = append(st.Accepted, Acceptance{Row: e.Row, Reason: e.Reason, Expires: e.Expires})
					u.Used = true
				}
			}
		}
		uses = append(uses, u)
	}
	for i := range s.Steps {
		ruleAccepted(&s.Steps[i], s.Intended)
	}
	return uses
}

// unseen are the exceptions of no session a run audited.
func (x *Exceptions) unseen(uses []ExceptionUse) []ExceptionUse {
	if x == nil {
		return nil
	}
	seen := map[string]bool{}
	for _, u := range uses {
		seen[u.key()] = true
	}
	var out []ExceptionUse
	for _, e := range x.list {
		if !seen[e.key()] {
			out = append(out, ExceptionUse{Exception: e, Expired: e.Expires != "" && x.today > e.Expires})
		}
	}
	return out
}

// Acceptance is a finding of a step an exception accepts.
type Acceptance struct {
	Row     string `json:"row"`
	Reason  string `json:"reason"`
	Expires string `json:"expires,omitempty"`
}

// mergeUses adds b's uses of each exception into a's (both sorted by key,
// as mergeUses leaves them; a session without exceptions costs nothing).
func mergeUses(a, b []ExceptionUse) []ExceptionUse {
	if len(b) == 0 {
		return a
	}
	at := map[string]int{}
	for i, u := range a {
		at[u.key()] = i
	}
	for _, u := range b {
		i, ok := at[u.key()]
		if !ok {
			at[u.key()] = len(a)
			a = append(a, u)
			continue
		}
		a[i].Used = a[i].Used || u.Used
		a[i].Seen = a[i].Seen || u.Seen
		a[i].Expired = a[i].Expired || u.Expired
	}
	slices.SortFunc(a, func(x, y ExceptionUse) int { return strings.Compare(x.key(), y.key()) })
	return a
}
