package ops

import (
	"fmt"
	"strings"
)

// Step is the position on the rollout path (RolloutPath) of the flag set
// Flag names.
func (o Flag) Step() (int, error) { return Step(o.Set) }

// Step is the position on the rollout path of the flag set the writer
// runs from this op on.
func (o Writer) Step() (int, error) { return Step(o.Set) }

// Step reads a flag set as a script spells it — off (also none or empty),
// all, or a list of the steps A–D separated by commas, case-insensitive,
// spaces allowed — and returns its position on the rollout path: every step
// needs the ones before it (B needs A, C needs A and B, D needs A–C), so
// each valid set is one of the path's. A set that breaks a prerequisite is
// refused, never completed. (impl/flags reads the same text for the
// implementation; the vocabulary reads it for the models, the generator and
// the data kinds, which must not import impl/.)
func Step(set string) (int, error) {
	t := strings.ToLower(strings.TrimSpace(set))
	switch t {
	case "off", "none", "":
		return 0, nil
	case "all":
		return len(RolloutPath) - 1, nil
	}
	var has [4]bool
	for _, part := range strings.Split(t, ",") {
		p := strings.TrimSpace(part)
		if len(p) != 1 || p[0] < 'a' || p[0] > 'd' {
			return 0, fmt.Errorf("flags %q: unknown step %q (want off, all, or a list of A, B, C, D)", set, p)
		}
		has[p[0]-'a'] = true
	}
	n := 0
	for n < len(has) && has[n] {
		n++
	}
	for i := n; i < len(has); i++ {
		if has[i] {
			return 0, fmt.Errorf("flags %q: flag %c needs %s, which is not set", set, 'A'+i, missing(has, i))
		}
	}
	return n, nil
}

// missing lists the steps before step i that has lacks.
func missing(has [4]bool, i int) string {
	var out []string
	for j := range i {
		if !has[j] {
			out = append(out, string(rune('A'+j)))
		}
	}
	return strings.Join(out, ",")
}
