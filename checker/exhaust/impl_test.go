package exhaust

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/internal/shard"
	"sessiondag/ops"
	"sessiondag/protocol"
	"sessiondag/protocol/process"
	"sessiondag/protocol/serve"
)

// serveEnv makes the test binary serve impl/ over the protocol
// (protocol/serve) with user+reply written in one step, as
// `sessiondag serve --together user+reply` does.
const serveEnv = "SESSIONDAG_EXHAUST_SERVE"

// refuseEnv makes the test binary serve impl/ refusing every op of the
// kind it names, as an implementation whose writers refuse what the
// models accept.
const refuseEnv = "SESSIONDAG_EXHAUST_REFUSE"

func TestMain(m *testing.M) {
	if kind, ok := os.LookupEnv(refuseEnv); ok {
		os.Exit(serveRefusing(kind))
	}
	if _, ok := os.LookupEnv(serveEnv); ok {
		if err := serve.Serve(os.Stdin, os.Stdout, serve.Options{Mint: true, Together: [][2]string{{"user", "reply"}}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serveRefusing serves impl/ and answers every op request of one kind
// with an error of its own. The harness waits for each answer before its
// next request, so the server is idle while the refusal is written.
func serveRefusing(kind string) int {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serve.Serve(pr, os.Stdout, serve.Options{Mint: true}) }()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), serve.DefaultMaxRequest)
	for in.Scan() {
		var req protocol.Request
		if json.Unmarshal(in.Bytes(), &req) == nil && req.Type == protocol.TypeOp && strings.HasPrefix(req.Op, kind+" ") {
			b, _ := json.Marshal(protocol.Reply{Type: protocol.TypeError, Seq: req.Seq, Error: "refused: " + kind})
			os.Stdout.Write(append(b, '\n'))
			continue
		}
		if _, err := pw.Write(append(in.Bytes(), '\n')); err != nil {
			break
		}
	}
	pw.Close()
	if err := <-done; err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
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

// TestExhaustFindsARefusal: against an implementation that refuses an op
// the writer model accepts (every orphan), exhaust reports the refusal as
// the validity finding of the scripts that reach it — the one-op script
// first, reduced — and does not stop with an error, whichever way the walk
// reaches the op (the scout one op on, a fork of a pristine prefix, a
// rebuilt session, a history check's own session).
func TestExhaustFindsARefusal(t *testing.T) {
	kinds := []string{"user", "reply", "done", "orphan", "reload"}
	pool, err := process.Open(refuseEnv+"=orphan exec '"+os.Args[0]+"'", process.Options{KnownWithout: gen.KnownWithout})
	require.NoError(t, err)
	defer pool.Close()
	sum, fails, err := Run(Options{MaxOps: 3, Kinds: kinds, Impl: pool, Tmp: t.TempDir()})
	require.NoError(t, err, "a refusal is a finding, not an error of the walk")
	require.NotZero(t, sum.Failures)
	require.NotEmpty(t, fails)
	for _, f := range fails {
		require.Equal(t, harness.Validity.Name, f.Reduced.Finding.Check, "%s", ops.String(f.Script))
		require.Contains(t, ops.String(f.Reduced.Case.Script), "orphan", "%s", ops.String(f.Script))
	}
	one := false
	for _, f := range fails {
		one = one || len(f.Reduced.Case.Script) == 1
	}
	require.True(t, one, "a refusal reduces to its one op")
}
