package exhaust

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/campaign"
	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// A failure no replay reproduced keeps what the walk saw (for a validity
// finding, which writer refused the op and its error) in its record, its
// text and its saved file: nothing else will ever show it again.
func TestUnreproducedFailureKeepsWhatWasSeen(t *testing.T) {
	script, err := ops.ParseString("user id=n1 text=hi\ncheckout id=n1\n")
	require.NoError(t, err)
	diff := "impl: refused: checkout: no node n1\nmodel.Legacy: <nil>\nmodel.Target: <nil>"
	f := &harness.Finding{Check: harness.Validity.Name, Data: harness.OffAny, Step: 2,
		What: "the writers disagree on whether op 2 (checkout id=n1) applies (a replay from scratch, with the checks after every op, does not fail)", Diff: diff}
	fl := Failure{Script: script, Reduced: campaign.Reduced{
		Case: campaign.Case{Check: harness.Validity, Data: harness.OffAny, Script: script}, Finding: f}}

	path, err := fl.Save(t.TempDir())
	require.NoError(t, err)
	saved, err := os.ReadFile(path)
	require.NoError(t, err)
	rec := fl.Record(path)
	var text strings.Builder
	WriteText(&text, Summary{}, []FailureRecord{rec})
	for _, line := range strings.Split(diff, "\n") {
		require.Contains(t, string(saved), "#   "+line)
		require.Contains(t, rec.AsFound, "  "+line)
		require.Contains(t, text.String(), line)
	}

	fl.Reduced.Reproduced = true // a replay shows it: nothing kept
	require.Empty(t, fl.Reduced.AsFound())
}
