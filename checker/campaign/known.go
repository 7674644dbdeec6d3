package campaign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// Known is a reviewed list of an implementation's findings that are
// accepted for now: each entry names a class of failure by its key (Key,
// the implementation's command left out) or by a reduced script that has
// it, says why it is accepted, and may expire. A driver that holds a Known
// keeps checking past a finding of an accepted class — a property goes on
// to its next case instead of stopping there — and reports only what is
// new; what it accepted is counted per entry, and an entry that matched
// nothing is named (Unmatched), so that a fixed class leaves the list. An
// expired entry accepts nothing.
//
// The file is JSON:
//
//	{"known": [
//	  {"script": "corpus/ops/openprogram-r/restart-get-branch.ops",
//	   "reason": "R's get_branch differs across a restart (R10)", "expires": "2027-06-30"},
//	  {"key": "3f2a…", "check": "persistence", "reason": "…"}
//	]}
//
// A script's path is relative to the file's directory or absolute.
type Known struct {
	File    string
	Entries []KnownEntry
	today   string

	mu      sync.Mutex
	matched []int // by entry
	expired []int // findings an expired entry would have accepted, by entry
}

// KnownEntry is one accepted class.
type KnownEntry struct {
	Key     string `json:"key,omitempty"`    // the class's key (Key of its reduced case, no implementation)
	Script  string `json:"script,omitempty"` // or a reduced script that has it (its `#! check` line says which check)
	Check   string `json:"check,omitempty"`  // for a key: the check it fails, for the reader
	Reason  string `json:"reason"`
	Expires string `json:"expires,omitempty"` // YYYY-MM-DD: from that day on it accepts nothing

	key     string // Key, or the script's
	Expired bool   `json:"-"`
}

// ReadKnown reads and checks a known-findings file; now decides which
// entries have expired. A script entry must hold one check on one script.
func ReadKnown(path string, now time.Time) (*Known, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("known findings: %w", err)
	}
	var f struct {
		Known []KnownEntry `json:"known"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if d.More() {
		return nil, fmt.Errorf("%s: data after the known object (at byte %d)", path, d.InputOffset())
	}
	if f.Known == nil {
		return nil, fmt.Errorf(`%s: no "known" list`, path)
	}
	k := &Known{File: path, Entries: f.Known, today: now.UTC().Format(time.DateOnly),
		matched: make([]int, len(f.Known)), expired: make([]int, len(f.Known))}
	seen := map[string]int{}
	for i := range k.Entries {
		e := &k.Entries[i]
		bad := func(field, msg string) error {
			return fmt.Errorf("%s: entry %d: field %q: %s", path, i+1, field, msg)
		}
		switch {
		case strings.TrimSpace(e.Reason) == "":
			return nil, bad("reason", "missing (a reviewed entry says why its class is accepted)")
		case (e.Key == "") == (e.Script == ""):
			return nil, bad("key", "give the class's key or a script that has it, one of the two")
		}
		if e.Expires != "" {
			day, err := time.Parse(time.DateOnly, e.Expires)
			if err != nil {
				return nil, bad("expires", fmt.Sprintf("%q is not a date (YYYY-MM-DD)", e.Expires))
			}
			e.Expired = day.Format(time.DateOnly) <= k.today
		}
		e.key = e.Key
		if e.Script != "" {
			if e.key, err = scriptKey(filepath.Dir(path), e.Script); err != nil {
				return nil, bad("script", err.Error())
			}
		}
		if j, dup := seen[e.key]; dup {
			return nil, fmt.Errorf("%s: entry %d is the class of entry %d again", path, i+1, j+1)
		}
		seen[e.key] = i
	}
	return k, nil
}

// scriptKey is the class key of the one case a script file holds.
func scriptKey(dir, name string) (string, error) {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, name)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	file, err := ops.ParseFile(f, path)
	if err != nil {
		return "", err
	}
	c, err := CaseOf(file, ReplayOptions{})
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return ClassKey(c), nil
}

// ClassKey is the key of a failure's class: Key without the
// implementation's command, so that one class is one key whichever command
// line started the implementation.
func ClassKey(c Case) string {
	c.Impl = nil
	return Key(c)
}

// Accepts reports whether finding f of case c (the script as the driver
// played it) is of an accepted class, and the entry that accepts it. The
// case is cut to the finding's op and, when that is not already the
// class's reduced script, reduced as every driver reduces (Reduce) — the
// reduction is returned when it was made, for the driver's report. tmp is
// where the plays put directories.
func (k *Known) Accepts(c Case, f *harness.Finding, tmp string) (*KnownEntry, *Reduced) {
	if k == nil || len(k.Entries) == 0 {
		return nil, nil
	}
	c = c.Of(f)
	if e := k.match(ClassKey(c)); e != nil {
		return e, nil
	}
	red := Reduce(c, f, tmp)
	return k.match(ClassKey(red.Case)), &red
}

// Class reports whether a case already reduced (Reduce) is of an accepted
// class, and the entry that accepts it.
func (k *Known) Class(reduced Case) *KnownEntry {
	if k == nil || len(k.Entries) == 0 {
		return nil
	}
	return k.match(ClassKey(reduced))
}

// match counts a class key against the entries: the live entry of that
// key, or nil (an expired one counts what it would have accepted).
func (k *Known) match(key string) *KnownEntry {
	i := slices.IndexFunc(k.Entries, func(e KnownEntry) bool { return e.key == key })
	if i < 0 {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.Entries[i].Expired {
		k.expired[i]++
		return nil
	}
	k.matched[i]++
	return &k.Entries[i]
}

// KnownUse is how one entry fared in a run.
type KnownUse struct {
	Entry   KnownEntry
	Matched int // findings it accepted
	// ExpiredHits are findings it would have accepted had it not expired
	// (they are reported as failures).
	ExpiredHits int
}

// Uses is every entry's count, in the file's order.
func (k *Known) Uses() []KnownUse {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]KnownUse, len(k.Entries))
	for i, e := range k.Entries {
		out[i] = KnownUse{Entry: e, Matched: k.matched[i], ExpiredHits: k.expired[i]}
	}
	return out
}

// Accepted is how many findings the entries accepted in all.
func (k *Known) Accepted() int {
	n := 0
	for _, u := range k.Uses() {
		n += u.Matched
	}
	return n
}

// Unmatched are the live entries no finding of the run matched: on a run
// that covered their class, stale — the class is fixed, or the entry names
// it wrongly (replay its script to tell).
func (k *Known) Unmatched() []KnownEntry {
	var out []KnownEntry
	for _, u := range k.Uses() {
		if u.Matched == 0 && !u.Entry.Expired {
			out = append(out, u.Entry)
		}
	}
	return out
}

// InForce lists the class keys of the entries that have not expired,
// sorted: what the known file accepts, whatever its entries are named by.
func (k *Known) InForce() []string {
	if k == nil {
		return nil
	}
	var out []string
	for _, e := range k.Entries {
		if !e.Expired {
			out = append(out, e.key)
		}
	}
	slices.Sort(out)
	return out
}

// Name is how a report names an entry: its script, else its key.
func (e KnownEntry) Name() string {
	if e.Script != "" {
		return e.Script
	}
	return e.Key
}

// Lines are what a driver prints of the known findings after its run: how
// many each entry accepted, the expired ones that would have matched, and
// those that matched nothing.
func (k *Known) Lines() []string {
	if k == nil {
		return nil
	}
	var out []string
	for _, u := range k.Uses() {
		switch {
		case u.Matched > 0:
			noun := "findings"
			if u.Matched == 1 {
				noun = "finding"
			}
			out = append(out, fmt.Sprintf("known: %s accepted %d %s: %s", u.Entry.Name(), u.Matched, noun, u.Entry.Reason))
		case u.ExpiredHits > 0:
			out = append(out, fmt.Sprintf("known: %s expired on %s: its %d findings are reported", u.Entry.Name(), u.Entry.Expires, u.ExpiredHits))
		case u.Entry.Expired:
			out = append(out, fmt.Sprintf("known: %s expired on %s", u.Entry.Name(), u.Entry.Expires))
		default:
			out = append(out, fmt.Sprintf("known: %s matched nothing in this run (stale if the run reached its class: remove it once its script passes)", u.Entry.Name()))
		}
	}
	return out
}
