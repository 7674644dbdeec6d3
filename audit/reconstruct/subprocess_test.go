package reconstruct

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/campaign"
	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/ops"
)

// modelCalledRuns are the runs a reply called in what script writes: the
// runs the function subprocess can number.
func modelCalledRuns(t testing.TB, script []ops.Op) []string {
	t.Helper()
	run, err := driver.Build(script, "", flags.Off)
	require.NoError(t, err)
	var out []string
	for i, n := range run.W.S.Nodes() {
		if i == 0 || n.Role != node.RoleCode || n.Metadata.Get("tool_call_id").IsSet() {
			continue
		}
		if c, ok := run.W.S.Get(n.CalledBy); ok && c.Role == node.RoleLLM && c.Metadata.Get("worker_id").IsSet() {
			out = append(out, n.ID)
		}
	}
	return out
}

// checkFolderRoundTrip: the folder script and its edits leave is
// reconstructed byte for byte with the same edits, and the reconstruction
// (its script and edits) writes every file of the folder again.
func checkFolderRoundTrip(t *testing.T, name string, script []ops.Op, folder []campaign.FolderEdit) *Result {
	t.Helper()
	dir := writeFolder(t, t.TempDir(), name, script, folder)
	res, err := Path(dir)
	require.NoError(t, err)
	require.NotEqual(t, Unexplained, res.Verdict, "%s: %+v\n%s", name, res.First, ops.String(script))
	require.True(t, res.Exact, "%s: gaps %v", name, res.Gaps)
	require.Empty(t, res.Disagree, name)
	require.Equal(t, folder, res.Folder, name)
	sameTree(t, name, dir, writeFolder(t, t.TempDir(), name, res.Script, res.Folder))
	return res
}

// TestSubprocessRoundTrip: a run the model called that the function
// subprocess numbered from the seq of the row before it (docs/legacy.md
// §6 #22: two files share a prefix, every later row one lower) is read as
// that run with the folder edit the cold check writes, whether its name
// sorts before the row whose seq it shares or after, once or several times
// in a session; without the edit the same script is read with none.
func TestSubprocessRoundTrip(t *testing.T) {
	turn := "user id=u1 text=a\nreply\nsay text=hi\n"
	run := "fn id=%s name=clarify args={} expose=llm\nask id=%s_q question=which? answer=yes\nexec id=%s_x prompt=p reply=r\nend output=1\n"
	for _, c := range []struct {
		name, script string
		runs         []string
	}{
		{"after-tool", turn + "tool call=c1 name=bash args={} result=ok\n" + fmt.Sprintf(run, "a1", "a1", "a1") + "done\n", []string{"a1"}},
		{"name-after", turn + "tool call=c1 name=bash args={} result=ok\n" + fmt.Sprintf(run, "zz", "zz", "zz") + "done\n", []string{"zz"}},
		{"after-reply", turn + fmt.Sprintf(run, "a1", "a1", "a1") + "done\nuser id=u2 text=b\n", []string{"a1"}},
		{"twice", turn + "tool call=c1 name=bash args={} result=ok\n" + fmt.Sprintf(run, "a1", "a1", "a1") +
			"tool call=c2 name=bash args={} result=ok\n" + fmt.Sprintf(run, "b1", "b1", "b1") + fmt.Sprintf(run, "c1", "c1", "c1") + "done\n",
			[]string{"a1", "c1"}},
		{"runs-back-to-back", turn + fmt.Sprintf(run, "b1", "b1", "b1") + fmt.Sprintf(run, "a1", "a1", "a1") + "done\n", []string{"a1"}},
		// The row before the run is a run too, whose name sorts after its
		// own: their times order them.
		{"after-a-run", turn + "fn id=b1 name=f args={}\nend\n" + fmt.Sprintf(run, "a1", "a1", "a1") + "done\n", []string{"a1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var folder []campaign.FolderEdit
			for _, id := range c.runs {
				folder = append(folder, campaign.FolderEdit{Kind: campaign.FolderSubprocess, ID: id})
			}
			script := parse(t, "session id=s\n"+c.script)
			checkFolderRoundTrip(t, "s", script, folder)
			checkFolderRoundTrip(t, "s", script, nil)
		})
	}
}

// TestGeneratedSubprocessRoundTrip: generated sessions whose model-called
// runs the subprocess numbered (every other one, the first included) are
// reconstructed byte for byte with those edits.
func TestGeneratedSubprocessRoundTrip(t *testing.T) {
	tried := 0
	for seed := uint64(1); seed <= uint64(genSeeds(t)); seed++ {
		script, _ := gen.SessionScript(fmt.Sprintf("local_%010x", seed), seed, 100, gen.Options{Legacy: false}, "off")
		var folder []campaign.FolderEdit
		for k, id := range modelCalledRuns(t, script) {
			if k%2 == 0 {
				folder = append(folder, campaign.FolderEdit{Kind: campaign.FolderSubprocess, ID: id})
			}
		}
		if len(folder) == 0 {
			continue
		}
		tried++
		checkFolderRoundTrip(t, fmt.Sprint(seed), script, folder)
	}
	require.NotZero(t, tried, "no generated session has a run the model called")
	t.Logf("%d sessions with subprocess runs", tried)
}
