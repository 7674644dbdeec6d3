package props

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pgregory.net/rapid"

	"sessiondag/ops"
)

// failDir is where failing scripts are saved, relative to this package.
const failDir = "../corpus/ops/failures"

// saveFailures is off for mutant runs, which fail on purpose.
var saveFailures = os.Getenv("SESSIONDAG_MUTANT") == ""

// report fails the rapid check with the op script so far, the first
// differing view and a command that replays the saved script. Rapid calls the
// property once more with the shrunk input before it reports, so the file
// left behind is the minimal script.
func report(t *rapid.T, name string, script []ops.Op, what, diff string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %s\n", name, what)
	b.WriteString(ops.String(script))
	path := ""
	if saveFailures {
		path = filepath.Join(failDir, name+".ops")
		if err := os.MkdirAll(failDir, 0o755); err == nil {
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				path = ""
			}
		}
	}
	repro := "(not saved)"
	if path != "" {
		repro = fmt.Sprintf("go run ./cmd/sessiondag replay %s", strings.TrimPrefix(path, "../"))
	}
	t.Fatalf("%s, after op %d\nscript (%d ops):\n%s\n(-want +got):\n%s\nreplay: %s",
		what, len(script), len(script), indent(ops.String(script)), diff, repro)
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
