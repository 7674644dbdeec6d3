package campaign

import (
	"fmt"
	"strings"
)

// maxAsFound bounds the lines AsFound keeps of a finding's diff: a view's
// diff can run to thousands of lines, and the file is read by a person.
const maxAsFound = 60

// AsFound is what a failure that did not reproduce showed when it was
// found, as header lines for its saved file: the finding's diff (for a
// validity finding, which writer refused the op and with what error).
// A replay prints the diff of a case that reproduces; of one that does
// not, these lines are the only record. Nil when r reproduced.
func (r Reduced) AsFound() []string {
	if r.Reproduced || r.Finding == nil || r.Finding.Diff == "" {
		return nil
	}
	lines := strings.Split(strings.TrimRight(r.Finding.Diff, "\n"), "\n")
	out := []string{"as found (not reproduced by a replay from scratch):"}
	for i, l := range lines {
		if i == maxAsFound {
			out = append(out, fmt.Sprintf("  … %d more lines", len(lines)-i))
			break
		}
		out = append(out, "  "+l)
	}
	return out
}
