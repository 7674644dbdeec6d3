package exhaust

import (
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/driver"
	"sessiondag/impl/flags"
	"sessiondag/model"
	"sessiondag/ops"
)

// TestWritersAgreeOnValidity: after every script of up to 3 ops, every
// candidate op is accepted by the implementation's writers exactly when
// model.LegacyRun accepts it, refusals included (the walk itself only
// ever applies what the model accepts). Found with it: a lone crash (the
// writers refused it), and a reply's tool, task, done, cancel or
// error-folded while a function it called is open (the model accepted
// them; ops/README.md now says they need no open frame).
//
// By default every candidate after the 936 scripts of at most 2 ops; with
// SESSIONDAG_VALIDITY_OPS=3, after the 28,869 of at most 3 (about a minute
// of two cores, kept out of make test's budget).
func TestWritersAgreeOnValidity(t *testing.T) {
	if testing.Short() {
		t.Skip("tries every candidate after 936 scripts")
	}
	depth := 2
	if n, err := strconv.Atoi(os.Getenv("SESSIONDAG_VALIDITY_OPS")); err == nil && n > 0 {
		depth = n
	}
	var walk func(prefix []ops.Op, f *frontier)
	walk = func(prefix []ops.Op, f *frontier) {
		var run *model.LegacyRun
		var impl *driver.Run
		for _, c := range candidates(f, nil, nil) {
			if run == nil { // a refused op changes neither side
				var err error
				run, err = replay(prefix)
				require.NoError(t, err)
				impl, err = driver.Build(prefix, "", flags.Off)
				require.NoError(t, err)
			}
			child, ok := f.extend(c, run)
			ei := impl.Apply(c.op)
			require.Equal(t, ok, ei == nil, "after\n%s%s\nmodel.Legacy accepts: %v\nimpl: %v",
				ops.String(prefix), c.line, ok, ei)
			if ok {
				if len(prefix) < depth {
					walk(append(prefix[:len(prefix):len(prefix)], c.op), &child)
				}
				run = nil
			}
		}
	}
	walk(nil, &frontier{})
}
