package hunt

import (
	"strings"

	"sessiondag/checker/harness"
)

// Targets are the checks a campaign hunts: every check of harness.Checks,
// each on the kinds of data it declares. The order is part of what a seed
// means.
func Targets() []harness.Check { return harness.Checks }

// checkList names the checks, comma-separated.
func checkList(checks []harness.Check) string {
	var names []string
	for _, c := range checks {
		names = append(names, c.Name)
	}
	return strings.Join(names, ",")
}
