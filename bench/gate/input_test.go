package gate

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMissingFileExit2NamesIt(t *testing.T) {
	good := writeFile(t, "good.txt", header+runs("Load-2", seq(100, 1, 10), ""))
	missing := filepath.Join(t.TempDir(), "nope-old.txt")

	code, out, errOut := gate(t, missing, good)
	assert.Equal(t, ExitError, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "OLD: reading "+missing)
	assert.Contains(t, errOut, "no such file or directory")

	code, _, errOut = gate(t, good, missing)
	assert.Equal(t, ExitError, code)
	assert.Contains(t, errOut, "NEW: reading "+missing)
}

func TestDirectoryInsteadOfFileExit2(t *testing.T) {
	good := writeFile(t, "good.txt", header+runs("Load-2", seq(100, 1, 10), ""))
	dir := t.TempDir()
	code, _, errOut := gate(t, good, dir)
	assert.Equal(t, ExitError, code)
	assert.Contains(t, errOut, dir)
}

func TestFileWithoutResultsExit2(t *testing.T) {
	good := header + runs("Load-2", seq(100, 1, 10), "")
	for name, content := range map[string]string{
		"empty":        "",
		"prose":        "this is not benchmark output\nFAIL\n",
		"only header":  header,
		"only garbage": "BenchmarkLoad-2 many 1 ns/op\nBenchmarkLoad-2 10\n",
		"binary":       "\x00\x01\x02\xff\xfe garbage \x00",
	} {
		t.Run(name, func(t *testing.T) {
			code, _, errOut := gateFiles(t, good, content)
			assert.Equal(t, ExitError, code)
			assert.Contains(t, errOut, "new.txt: no benchmark results found")
		})
	}
}

func TestOverlongLineExit2NamesFile(t *testing.T) {
	// bufio.Scanner's 64 KiB token limit: benchfmt reports an I/O error.
	long := header + "BenchmarkLoad-2 1 1 ns/op " + strings.Repeat("x", 70_000) + "\n"
	code, _, errOut := gateFiles(t, long, header+runs("Load-2", seq(100, 1, 10), ""))
	assert.Equal(t, ExitError, code)
	assert.Contains(t, errOut, "old.txt")
	assert.Contains(t, errOut, "token too long")
}

func TestMalformedLinesSkippedWithWarning(t *testing.T) {
	// Lines 5-8 of NEW are broken; the ten good runs still make a clear
	// regression, and each broken line is reported with file and line.
	broken := "BenchmarkLoad-2 many 130 ns/op\n" + // bad iteration count
		"BenchmarkLoad-2 1000\n" + // no measurements
		"BenchmarkLoad-2 1000 1x3 ns/op\n" + // bad number
		"BenchmarkLoad-2 1000 130\n" // no unit
	code, out, errOut := gateFiles(t,
		header+runs("Load-2", seq(100, 1, 10), ""),
		header+broken+runs("Load-2", seq(130, 1, 10), ""))
	assert.Equal(t, ExitRegression, code, out)
	assert.Contains(t, errOut, "new.txt:5: parsing iteration count")
	assert.Contains(t, errOut, "new.txt:6: missing measurements")
	assert.Contains(t, errOut, "new.txt:7: parsing measurement")
	assert.Contains(t, errOut, "new.txt:8: missing units")
	assert.Contains(t, rowLine(out, "Load-2", "sec/op"), "10+10", "broken lines add no samples")
}

func TestNonFiniteValuesIgnored(t *testing.T) {
	code, out, errOut := gateFiles(t,
		header+runs("Load-2", seq(100, 1, 10), "")+"BenchmarkLoad-2 1000 NaN ns/op\n",
		header+runs("Load-2", seq(100, 1, 10), "")+"BenchmarkLoad-2 1000 +Inf ns/op\n")
	assert.Equal(t, ExitOK, code, out)
	assert.Contains(t, errOut, "old.txt:15: ignoring non-finite value NaN ns/op")
	assert.Contains(t, errOut, "new.txt:15: ignoring non-finite value +Inf ns/op")
	assert.Contains(t, rowLine(out, "Load-2", "sec/op"), "10+10")
}

func TestVerboseTestOutputIsAccepted(t *testing.T) {
	// `go test -v -bench` prints a bare benchmark name when a benchmark
	// starts, plus PASS/ok lines; none of it is a result or an error.
	verbose := header + "=== RUN   BenchmarkLoad\nBenchmarkLoad\nBenchmarkLoad-2\n" +
		runs("Load-2", seq(100, 1, 10), "") + "PASS\nok  \tsessiondag/bench\t1.234s\n"
	code, out, errOut := gateFiles(t, verbose, verbose)
	assert.Equal(t, ExitOK, code, out)
	assert.Empty(t, errOut)
}

// FuzzMainNoPanic: whatever the files hold, Main returns an exit code.
// Under plain `go test` only the seeds run.
func FuzzMainNoPanic(f *testing.F) {
	good := header + runs("Load-2", seq(100, 1, 10), "512 B/op\t10 allocs/op")
	f.Add(good, good)
	f.Add(good, "")
	f.Add("BenchmarkX-2 1 NaN ns/op\n", "BenchmarkX-2 1 -Inf ns/op\n")
	f.Add("Unit ns/op better=higher assume=exact\nBenchmarkX 1 1 ns/op\n", "BenchmarkX 1 0 ns/op\n")
	f.Add("BenchmarkX 1 -5 ns/op\nBenchmarkX 1 5 ns/op\n", "BenchmarkX 1 0 ns/op 0 B/op\n")
	f.Fuzz(func(t *testing.T, oldC, newC string) {
		code, _, _ := gateFiles(t, oldC, newC)
		if code < ExitOK || code > ExitInconclusive {
			t.Fatalf("exit code %d", code)
		}
	})
}
