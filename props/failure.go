package props

import (
	"os"
	"path/filepath"
	"strings"

	"pgregory.net/rapid"

	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
)

// failDir is where failing scripts are saved, relative to this package.
const failDir = "../corpus/ops/failures"

// saveFailures is off for mutant runs, which fail on purpose.
var saveFailures = os.Getenv("SESSIONDAG_MUTANT") == ""

// fail stops the rapid check with the finding: the script so far, the
// evidence and the command that reproduces it. The script is saved with a
// `#! check` line naming the check and data, so that command runs exactly
// this check. Rapid calls the property again with the shrunk input before
// it reports, so the file left behind is the minimal script.
func fail(t *rapid.T, title string, f *harness.Finding, script []ops.Op) {
	t.Helper()
	t.Fatal(save(title, f, script))
}

// save writes the finding's file under failDir and returns the report.
func save(title string, f *harness.Finding, script []ops.Op) string {
	path := ""
	if saveFailures {
		name := title + "-" + f.Data.Slug + ".ops"
		if err := os.MkdirAll(failDir, 0o755); err == nil {
			p := filepath.Join(failDir, name)
			if err := os.WriteFile(p, []byte(f.File(title, script).String()), 0o644); err == nil {
				path = strings.TrimPrefix(p, "../")
			}
		}
	}
	return f.Report(script, path)
}
