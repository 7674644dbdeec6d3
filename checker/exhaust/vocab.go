package exhaust

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/checker/gen"
	"sessiondag/ops"
)

// The representatives of each argument. Texts and names are one value each:
// what distinguishes scripts is which ops run in which state and what they
// name, not the words they carry.
const (
	text     = "hi"
	dangling = "gone" // an id no op of a canonical script mints
	toolArgs = `{"cmd": "ls"}`
	fnArgs   = `{"text": "hi"}`
	duration = "1.626"         // a run time as the original records it
	clockAt  = "1782003600.25" // a created_at as the original records it
)

// cand is one candidate op with the number of fresh names it mints.
type cand struct {
	op     ops.Op
	line   string // ops.Format(op): the sort key
	minted int
}

// candidates lists every op of the allowed kinds that might apply after a
// prefix in state f, sorted by text. It is a superset: model.LegacyRun
// decides which apply. Of the nodes the prefix wrote (ROOT and rewound
// nodes left out), checkout and rewind name each one, retry and edit each
// user turn, reply and ask row (the rows the UI offers them on), and an explicit
// parent is one representative: the latest. The field variants in without
// are written plain (gen.Plain), once each; the draw kinds in it that an
// op's fields make (gen.Held: a legacy tool edge, a function entered from an
// exec's tool loop, …) are left out.
func candidates(f *frontier, kinds map[string]bool, without []string) []cand {
	var out []cand
	next := f.fresh
	mint := func() string { next++; return fmt.Sprintf("n%d", next) }
	add := func(build func() ops.Op) {
		next = f.fresh
		op := gen.Plain(build(), without)
		if kinds != nil && !kinds[op.Kind()] || gen.Held(op, without) != "" {
			return // a kind, or a draw kind of one, the implementation does not write
		}
		out = append(out, cand{op: op, line: ops.Format(op), minted: next - f.fresh})
	}
	live := f.live(f.nodes)
	var parents []string
	if len(live) > 0 {
		parents = live[len(live)-1:]
	}
	turnOps(add, mint, parents, f.live(f.turns), live)
	replyOps(add, mint)
	functionOps(add, mint)
	// ahead is the name the next op to mint one gives it: an id a later op
	// writes, which an implementation that mints its own ids has no name
	// for yet (without "later").
	ahead := func() string { return fmt.Sprintf("n%d", next+1) }
	if slices.Contains(without, "later") {
		ahead = nil
	}
	rowOps(add, mint, ahead, parents, live)
	writerOps(add, f)
	slices.SortFunc(out, func(a, b cand) int { return strings.Compare(a.line, b.line) })
	// A variant written plain may be another candidate already.
	return slices.CompactFunc(out, func(a, b cand) bool { return a.line == b.line })
}

type adder func(build func() ops.Op)

// turnOps: the ops that start, rerun or move a turn.
func turnOps(add adder, mint func() string, parents, turns, live []string) {
	// The web turn's forms (an image, a function-form run) and the internal
	// turns' sources differ from these in metadata no reader follows: the
	// generator draws them, the walk leaves them to it.
	add(func() ops.Op { return ops.UserWeb{ID: mint(), Text: text} })
	for _, p := range append([]string{"", "none", dangling}, parents...) {
		add(func() ops.Op { return ops.UserDispatch{ID: mint(), Text: text, Parent: p} })
	}
	// The older writers' dispatcher user, called by ROOT (the walk covered
	// that form whole before R's became the op's; the generator draws the
	// rest of it).
	add(func() ops.Op { return ops.UserDispatch{ID: mint(), Text: text, Rooted: true} })
	add(func() ops.Op { return ops.ForkRoot{ID: mint(), Text: text} })
	add(func() ops.Op { return ops.Merge{Cmd: mint(), ID: mint(), Text: text} })
	for _, x := range turns {
		add(func() ops.Op { return ops.Retry{Of: x, ID: mint()} })
		add(func() ops.Op { return ops.Edit{Of: x, ID: mint(), Text: text} })
	}
	for _, x := range live {
		add(func() ops.Op { return ops.Checkout{ID: x} })
	}
	add(func() ops.Op { return ops.Reload{} })
	for _, mode := range []string{"inherit", "clean", "async"} {
		add(func() ops.Op {
			o := ops.Spawn{Mode: mode, Cmd: mint(), ID: mint(), Attach: mint(), Text: text, Label: "helper"}
			if mode == "async" { // R's task runner: its follow-up turn, the task id it drew
				o.Followup, o.Task = mint(), mint()
			}
			return o
		})
	}
}

// replyOps: the ops of an open reply and how a turn ends.
func replyOps(add adder, mint func() string) {
	add(func() ops.Op { return ops.Reply{} })
	add(func() ops.Op { return ops.Think{Text: text} })
	add(func() ops.Op { return ops.Say{Text: text} })
	for _, isErr := range []bool{false, true} {
		for _, legacy := range []bool{false, true} {
			add(func() ops.Op {
				return ops.Tool{CallID: mint(), Name: "bash", Args: toolArgs, Result: "ok", Error: isErr, Legacy: legacy}
			})
		}
	}
	add(func() ops.Op {
		return ops.Tool{CallID: mint(), Name: "bash", Args: toolArgs, Result: "ok", Object: true}
	})
	add(func() ops.Op {
		return ops.Task{CallID: mint(), ID: mint(), Attach: mint(), Text: text, Label: "scout"}
	})
	add(func() ops.Op { // R's task runner: no attach pointer, a follow-up turn
		return ops.Task{CallID: mint(), ID: mint(), Text: text, Label: "scout", Async: true, Followup: mint()}
	})

	add(func() ops.Op { return ops.Done{} })
	add(func() ops.Op { return ops.Cancel{} })
	add(func() ops.Op { return ops.ErrorFolded{Type: "RuntimeError", Msg: "boom"} })
	add(func() ops.Op { return ops.ErrorStandalone{ID: mint(), Type: "ProviderError", Msg: "down"} })
	add(func() ops.Op { return ops.Crash{} })
}

// functionOps: entering, working in and leaving a function run.
func functionOps(add adder, mint func() string) {
	for _, viaExec := range []bool{false, true} {
		add(func() ops.Op { return ops.Fn{ID: mint(), Name: "word_count", Args: fnArgs, ViaExec: viaExec} })
	}
	add(func() ops.Op { return ops.Manual{ID: mint(), Name: "word_count", Args: fnArgs} })
	add(func() ops.Op { return ops.Run{ID: mint(), Name: "word_count", Args: fnArgs} })
	add(func() ops.Op { return ops.Exec{ID: mint(), Prompt: "count", Reply: text} })
	for _, answer := range []string{"yes", ""} {
		add(func() ops.Op { return ops.Ask{ID: mint(), Question: "proceed?", Answer: answer} })
	}
	add(func() ops.Op { return ops.Ask{ID: mint(), Question: "proceed?", Declined: true} })
	add(func() ops.Op { return ops.End{Output: `"two words"`, Duration: duration} })
	add(func() ops.Op { return ops.End{Error: "boom", Duration: duration} })
}

// rowOps: rows outside a turn, updates, and the writers' clock. An orphan
// names no caller, a dangling one, or the reply of the turn a later op may
// start (ahead): the original stores a tool row before the reply that
// called it, and a load must fold it once that reply is written.
func rowOps(add adder, mint, ahead func() string, parents, live []string) {
	for _, what := range []string{"fn", "exec", "ask"} {
		add(func() ops.Op { return ops.Script{What: what, ID: mint(), Name: "word_count"} })
	}
	for _, p := range append([]string{"", "null"}, parents...) {
		add(func() ops.Op { return ops.LegacyUser{ID: mint(), Text: text, Parent: p} })
	}
	for _, p := range append([]string{dangling}, parents...) {
		add(func() ops.Op { return ops.LegacyReply{ID: mint(), Text: text, Parent: p} })
	}
	for _, keep := range []string{"1", "2"} {
		add(func() ops.Op { return ops.Compact{ID: mint(), Keep: keep} })
	}
	for _, caller := range []string{"", dangling} {
		add(func() ops.Op { return ops.Orphan{ID: mint(), Name: "bash", Caller: caller} })
	}
	if ahead != nil {
		add(func() ops.Op {
			id := mint()
			return ops.Orphan{ID: id, Name: "bash", Caller: ahead() + "_reply"}
		})
	}
	for _, x := range live {
		add(func() ops.Op { return ops.Rewind{ID: x} })
	}
	add(func() ops.Op { return ops.Clock{At: clockAt} })
}

// maxWriters is how many writers a script may name: two or three on
// different steps is how a web tier is upgraded one worker at a time.
const maxWriters = 3

// writerOps: the flags in force and who writes. A flag op sets any other
// step of the rollout path (a deploy, several steps at once, a rollback); a
// writer op hands the next ops to another writer, in any state: a writer
// named before, or the next new one while fewer than maxWriters are named.
// New writers are named in order (w2, then w3), so scripts that differ only
// by the names of their writers are one script. A writer takes over with the
// flags off or all on, the two ends of the rollout; a flag op after it puts
// it on any other step (every step a writer can be on is reached, at the
// price of one op).
func writerOps(add adder, f *frontier) {
	for i, set := range ops.RolloutPath {
		// The step in force on both lanes (off and all at the start, until
		// an op sets one) is no flip; on one lane it is.
		if i != f.step || i != f.stepOn() {
			add(func() ops.Op { return ops.Flag{Set: set} })
		}
	}
	for w := 0; w <= min(f.named+1, maxWriters-1); w++ {
		if w == f.writer {
			continue
		}
		for _, set := range []string{"off", "all"} {
			add(func() ops.Op { return ops.Writer{Name: writerName(w), Set: set} })
		}
	}
}
