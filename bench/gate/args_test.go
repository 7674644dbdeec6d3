package gate

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseArgsFlagPositions(t *testing.T) {
	cases := map[string][]string{
		"after":          {"old.txt", "new.txt", "--threshold", "10%", "--alpha", "0.01"},
		"before":         {"--threshold=10%", "-alpha=0.01", "old.txt", "new.txt"},
		"between":        {"old.txt", "--alpha", "0.01", "new.txt", "--threshold", "10"},
		"double dash":    {"--threshold", "10", "--alpha", "0.01", "--", "old.txt", "new.txt"},
		"bare percent":   {"old.txt", "new.txt", "-threshold", "10", "-alpha", ".01"},
		"spaced percent": {"old.txt", "new.txt", "--threshold", " 10 % ", "--alpha", "0.01"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			o, err := parseArgs(args, io.Discard)
			require.NoError(t, err)
			assert.Equal(t, options{oldPath: "old.txt", newPath: "new.txt", alpha: 0.01, thresholdPct: 10}, o)
		})
	}
}

func TestParseArgsDefaults(t *testing.T) {
	o, err := parseArgs([]string{"a", "b"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, 0.05, o.alpha)
	assert.Equal(t, 5.0, o.thresholdPct)
}

func TestParseArgsDoubleDashKeepsDashFiles(t *testing.T) {
	o, err := parseArgs([]string{"--", "-old.txt", "--new.txt"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "-old.txt", o.oldPath)
	assert.Equal(t, "--new.txt", o.newPath)
}

func TestThresholdFractionIsPercentWithNote(t *testing.T) {
	var note strings.Builder
	o, err := parseArgs([]string{"a", "b", "--threshold", "0.05"}, &note)
	require.NoError(t, err)
	assert.Equal(t, 0.05, o.thresholdPct, "a bare number is always percent")
	assert.Contains(t, note.String(), "read as 0.05% (percent); write 5% if you meant a fraction")

	note = strings.Builder{}
	_, err = parseArgs([]string{"a", "b", "--threshold", "0.5%"}, &note)
	require.NoError(t, err)
	assert.Empty(t, note.String(), "an explicit %% needs no note")
}

func TestParseArgsErrors(t *testing.T) {
	cases := map[string][]string{
		"no files":           {},
		"one file":           {"old.txt"},
		"three files":        {"a", "b", "c"},
		"negative threshold": {"a", "b", "--threshold", "-5%"},
		"word threshold":     {"a", "b", "--threshold", "five"},
		"NaN threshold":      {"a", "b", "--threshold", "NaN"},
		"zero alpha":         {"a", "b", "--alpha", "0"},
		"alpha above one":    {"a", "b", "--alpha", "1.5"},
		"word alpha":         {"a", "b", "--alpha", "x"},
		"missing value":      {"a", "b", "--alpha"},
		"unknown flag":       {"a", "b", "--bogus"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := parseArgs(args, io.Discard)
			assert.Error(t, err)
		})
	}
}

func TestMainUsageErrorsExit2(t *testing.T) {
	code, out, errOut := gate(t, "only-one.txt")
	assert.Equal(t, ExitError, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "want exactly 2 files")
	assert.Contains(t, errOut, "usage: benchgate OLD NEW")

	code, _, errOut = gate(t, "a", "b", "--threshold", "lots")
	assert.Equal(t, ExitError, code)
	assert.Contains(t, errOut, `invalid threshold "lots"`)
}

func TestMainHelpExit0(t *testing.T) {
	code, out, _ := gate(t, "-h")
	assert.Equal(t, ExitOK, code)
	assert.Contains(t, out, "usage: benchgate OLD NEW [--threshold 5%] [--alpha 0.05]")
	assert.Contains(t, out, `"5%" and "5" both mean`)
}

func TestThresholdAndAlphaChangeTheVerdict(t *testing.T) {
	// +28.71% with p = 2/C(20,10) ~ 1.08e-5 (see main_test.go).
	oldC := header + runs("Load-2", seq(100, 1, 10), "")
	newC := header + runs("Load-2", seq(130, 1, 10), "")

	code, _, _ := gateFiles(t, oldC, newC, "--threshold", "30%")
	assert.Equal(t, ExitOK, code, "28.71% is not more than 30%")
	code, _, _ = gateFiles(t, oldC, newC, "--threshold", "28")
	assert.Equal(t, ExitRegression, code, "28.71% is more than 28%")
	code, _, _ = gateFiles(t, oldC, newC, "--alpha", "0.00001")
	assert.Equal(t, ExitInconclusive, code, "p ~ 1.08e-5 is not below 1e-5, nor can any p of 10+10 runs be")
	code, _, _ = gateFiles(t, oldC, newC, "--alpha", "0.0001")
	assert.Equal(t, ExitRegression, code)
}
