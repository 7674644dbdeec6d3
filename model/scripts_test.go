package model

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/ops"
)

// The op scripts of docs/legacy.md §5 that both models are tested on: the
// legacy model for what the original writes and shows (write_test.go), the
// target model for the conversation each op meant (target_test.go). Each
// test derives its own expected values from the spec; the scripts are the
// same so that both readings speak of the same sessions.
const (
	// scriptL1: §5.1 L1, three manual runs.
	scriptL1 = `
manual id=F1 name=fn args={}
end output="\"ok\""
manual id=F2 name=fn args={}
end output="\"ok\""
manual id=F3 name=fn args={}
end output="\"ok\""
`
	// scriptL2: §5.1 L2, a function (ending without output) before the
	// first chat turn.
	scriptL2 = `
manual id=F name=fn args={}
end
user id=u1 text=hi
reply
say text=hello
done
`
	// turnU1: one finished web turn, u1 and its reply.
	turnU1 = `
user id=u1 text=hi
reply
done
`
	// scriptL3: §5.1 L3, the head on a ROOT function after chat.
	scriptL3 = turnU1 + `manual id=F name=fn args={}
end output=1
`
	// scriptL4ForkRoot: §5.1 L4, a web turn, then a root-level fork
	// through the dispatcher.
	scriptL4ForkRoot = turnU1 + `fork-root id=u2 text=again rooted
reply
done
`
	// script52: §5.2, chat after a manual function with an inner exec.
	script52 = turnU1 + `manual id=F name=fn args={}
exec id=Fx prompt=p reply=r
end output=1
reload
user id=u3 text=thanks
reply
done
`
	// twoTurns: two finished web turns, u1 and u2, each with its reply.
	twoTurns = turnU1 + `user id=u2 text=two
reply
done
`
	// scriptCheckoutThenTurn: twoTurns, a checkout of u1's reply and a new
	// turn u3 there.
	scriptCheckoutThenTurn = twoTurns + `checkout id=u1_reply
user id=u3 text=three
reply
done
`
)

// applyScript parses text and applies it op by op (each op must apply),
// taking the view after every op: the run both models' tests start from.
func applyScript[V any](t *testing.T, text string, apply func(ops.Op) error, view func() V) ([]ops.Op, []V) {
	t.Helper()
	script, err := ops.ParseString(text)
	require.NoError(t, err)
	var views []V
	for _, op := range script {
		require.NoError(t, apply(op), ops.Format(op))
		views = append(views, view())
	}
	return script, views
}
