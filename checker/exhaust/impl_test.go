package exhaust

import (
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/gen"
	"sessiondag/internal/shard"
	"sessiondag/protocol/process"
	"sessiondag/protocol/serve"
)

// serveEnv makes the test binary serve impl/ over the protocol
// (protocol/serve) with user+reply written in one step, as
// `sessiondag serve --together user+reply` does.
const serveEnv = "SESSIONDAG_EXHAUST_SERVE"

func TestMain(m *testing.M) {
	if _, ok := os.LookupEnv(serveEnv); ok {
		if err := serve.Serve(os.Stdin, os.Stdout, serve.Options{Mint: true, Together: [][2]string{{"user", "reply"}}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// servedTogether is the command serving impl/ with user+reply together;
// hide takes the pair out of its hello.
func servedTogether(hide bool) string {
	c := serveEnv + "=1 exec '" + os.Args[0] + "'"
	if hide {
		c += ` | sed -u 's/,"together":\[\["user","reply"\]\]//'`
	}
	return c
}

// TestExhaustTogether: exhaust against an implementation that writes the
// user's message and the start of its reply in one step walks only
// scripts with the reply right after each user op, counts those ending
// between the two as not checked, and finds nothing. The counts are worked
// out from the plain walk (Walk, no shape), not by the run. It fails if the
// walk offers an op between the pair (the harness refuses the script: an
// error), checks a script that ends between them (an error too), or counts
// them otherwise; and the same process with the pair taken out of its
// hello fails, which shows the checks judge what it writes.
func TestExhaustTogether(t *testing.T) {
	const max = 3
	kinds := []string{"user", "reply", "say", "tool", "done", "crash", "retry", "edit", "checkout", "reload"}
	var scripts, between int64
	require.NoError(t, Walk(max, kinds, shard.Whole, func(n Node) bool {
		for i, op := range n.Script[:len(n.Script)-1] {
			if op.Kind() == "user" && n.Script[i+1].Kind() != "reply" {
				return false
			}
		}
		scripts++
		if n.Script[len(n.Script)-1].Kind() == "user" {
			between++
		}
		return true
	}))
	require.NotZero(t, between)

	pool, err := process.Open(servedTogether(false), process.Options{KnownWithout: gen.KnownWithout})
	require.NoError(t, err)
	defer pool.Close()
	require.Equal(t, [][2]string{{"user", "reply"}}, pool.About().Together)
	sum, fails, err := Run(Options{MaxOps: max, Kinds: kinds, Impl: pool, Tmp: t.TempDir()})
	require.NoError(t, err)
	require.Empty(t, fails)
	require.Zero(t, sum.Failures)
	require.Equal(t, scripts, sum.Scripts)
	require.Equal(t, between, sum.Between)
	require.NotZero(t, sum.Runs)
	t.Logf("%d scripts, %d between, %d runs, %d history checks, not run: %v", sum.Scripts, sum.Between, sum.Runs, sum.HistoryChecks, sum.NotRun)

	hidden, err := process.Open(servedTogether(true), process.Options{KnownWithout: gen.KnownWithout})
	require.NoError(t, err)
	defer hidden.Close()
	require.Empty(t, hidden.About().Together)
	sum, _, err = Run(Options{MaxOps: 1, Kinds: kinds, Impl: hidden, Tmp: t.TempDir(), MaxReduced: -1})
	require.NoError(t, err)
	require.NotZero(t, sum.Failures, "the reply the user op wrote went unseen")
}
