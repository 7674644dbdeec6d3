// Package flags is the rollout's feature-flag set: the four steps A–D of
// docs/rollout.md §2, each requiring the ones before it.
package flags

import (
	"fmt"
	"strings"
)

// Set is a set of rollout steps. The zero Set is every flag off (R).
type Set uint8

// The steps, in rollout order.
const (
	A Set = 1 << iota // parent_id by conversation order
	B                 // linear_history walks the corrected parent_id
	C                 // the get_branch fallback is removed
	D                 // parent_id deprecated: readers use called_by and the stored predecessor
)

// Off and All are the two ends of the rollout.
const (
	Off Set = 0
	All Set = A | B | C | D
)

// Rollout is the path a deployment takes, one step at a time.
var Rollout = []Set{Off, A, A | B, A | B | C, All}

var names = []struct {
	f    Set
	name string
	need Set
}{
	{A, "A", 0},
	{B, "B", A},
	{C, "C", A | B},
	{D, "D", A | B | C},
}

// Has reports whether every flag of f is set.
func (s Set) Has(f Set) bool { return s&f == f }

// String is the canonical spelling: "off", "all", or a list like "A,B".
func (s Set) String() string {
	switch s {
	case Off:
		return "off"
	case All:
		return "all"
	}
	var parts []string
	for _, n := range names {
		if s.Has(n.f) {
			parts = append(parts, n.name)
		}
	}
	return strings.Join(parts, ",")
}

// Validate refuses a set that breaks a prerequisite, naming the missing step.
func (s Set) Validate() error {
	for _, n := range names {
		if s.Has(n.f) && !s.Has(n.need) {
			var missing []string
			for _, m := range names {
				if n.need.Has(m.f) && !s.Has(m.f) {
					missing = append(missing, m.name)
				}
			}
			return fmt.Errorf("flag %s needs %s, which is not set", n.name, strings.Join(missing, ","))
		}
	}
	return nil
}

// Parse reads "off", "all", or a comma list of A–D (case-insensitive,
// spaces allowed). A set that breaks a prerequisite is an error, never
// silently completed.
func Parse(text string) (Set, error) {
	t := strings.TrimSpace(strings.ToLower(text))
	switch t {
	case "off", "none", "":
		return Off, nil
	case "all":
		return All, nil
	}
	var s Set
	for _, part := range strings.Split(t, ",") {
		p := strings.TrimSpace(part)
		found := false
		for _, n := range names {
			if strings.EqualFold(p, n.name) {
				s |= n.f
				found = true
			}
		}
		if !found {
			return Off, fmt.Errorf("flags %q: unknown step %q (want off, all, or a list of A, B, C, D)", text, p)
		}
	}
	if err := s.Validate(); err != nil {
		return Off, fmt.Errorf("flags %q: %w", text, err)
	}
	return s, nil
}

// Set implements flag.Value.
func (s *Set) Set(text string) error {
	v, err := Parse(text)
	if err != nil {
		return err
	}
	*s = v
	return nil
}
