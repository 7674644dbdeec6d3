package gate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// header is what `go test -bench` prints before the results.
const header = "goos: linux\ngoarch: amd64\npkg: sessiondag/bench\ncpu: Test CPU @ 2.00GHz\n"

// runs builds result lines for one benchmark, one line per value, the
// way `go test -bench -count N -benchmem` prints them. extra is appended
// to every line (e.g. "512 B/op 10 allocs/op").
func runs(name string, nsPerOp []float64, extra string) string {
	var b strings.Builder
	for _, v := range nsPerOp {
		fmt.Fprintf(&b, "Benchmark%s \t    1000\t %g ns/op", name, v)
		if extra != "" {
			b.WriteString("\t " + extra)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// seq returns n values start, start+step, ...: distinct values, so the
// U test works without ties and its p-value follows from the ranks.
func seq(start, step float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = start + float64(i)*step
	}
	return out
}

// writeFile writes content into a fresh file in the test's temp dir.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// gate runs Main and returns its exit code and both outputs.
func gate(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// gateFiles writes OLD and NEW contents and runs the gate on them.
func gateFiles(t *testing.T, oldContent, newContent string, flags ...string) (int, string, string) {
	t.Helper()
	oldPath := writeFile(t, "old.txt", oldContent)
	newPath := writeFile(t, "new.txt", newContent)
	return gate(t, append([]string{oldPath, newPath}, flags...)...)
}

// rowLine returns the table line for a benchmark and unit, or "".
func rowLine(stdout, name, unit string) string {
	for _, l := range strings.Split(stdout, "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == name && f[1] == unit {
			return l
		}
	}
	return ""
}

// verdictOf extracts the verdict column of a table line: the word after
// the "n old+new" field (which looks like "10+10").
func verdictOf(t *testing.T, stdout, name, unit string) string {
	t.Helper()
	l := rowLine(stdout, name, unit)
	require.NotEmpty(t, l, "no row for %s %s in:\n%s", name, unit, stdout)
	f := strings.Fields(l)
	for i := 0; i+1 < len(f); i++ {
		if strings.Count(f[i], "+") == 1 && !strings.HasSuffix(f[i], "%") && f[i][0] != '+' {
			return f[i+1]
		}
	}
	t.Fatalf("no verdict in row %q", l)
	return ""
}
