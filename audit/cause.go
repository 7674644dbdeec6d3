package audit

import (
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// Causes of a residual row: why the last config of the rollout still does
// not show it. Each is found by walking the conversation pointers flag A
// gives (impl/lane) and naming the rule that set the pointer where the walk
// leaves the row behind (ruleOf); the words are what a report prints.
var causeText = map[string]string{
	"after-failed-reply":    "a reply that ended in an error: the next turn recorded the user's message, not the failed reply, as its parent (the web does not move the browser's head after a failure)",
	"retry-sibling":         "a retry or edit reran the turn: the new turn is a sibling of the old one, so one of the two branches is off the chain",
	"stale-parent":          "the next turn recorded an earlier row as its parent: it was typed in a browser that had not seen the rows between (another client, a run without reload)",
	"side-branch":           "on another branch of the conversation: a checkout and a new turn, or a turn typed in a browser that had not seen the rows after the fork",
	"sub-agent":             "a sub-agent's conversation (with the /spawn command that started it): it branches off the turn that spawned it or starts at a root of its own, and the chain shows it only through its attach pointer",
	"fork-dispatch":         "a dispatcher turn with no parent starts a conversation of its own (a root-level fork), so nothing before it is joined on",
	"fork-null":             "an adapter-written row with an explicit null parent starts a conversation of its own (a root-level fork)",
	"fork-root":             "a row written with flag A on as a root-level fork starts a conversation of its own",
	"recorded-root":         "a row recorded ROOT as its parent, so its conversation starts afresh there, apart from the one the head is in",
	"parent-later":          "the row recorded as its parent was written after it (a message stored with the id of one not yet written): a conversation pointer only goes back, so its conversation starts afresh there",
	"before-root":           "written before the session's first turn (a script run): creating ROOT starts the conversation afresh",
	"after-crashed-run":     "a row that recorded no parent continues a function run that never ended (a crash): a run moves the head only when it ends, so the head was still on the row before it",
	"after-task-sub-agent":  "a row that recorded no parent continues the reply of a sub-agent the model's task tool started: the turn that called the tool ended on its own reply, which took the head back",
	"continues-head":        "a row that recorded no parent continues the last row that moved the head, which is not this one (a checkout, or a retry that wrote no new turn, moves the head without a trace in the rows)",
	"head-in-sub-agent":     "the head is on a sub-agent's conversation (a clean spawn leaves it on the sub-agent's reply), so the conversation this row is in is on no chain",
	"head-in-fork":          "the head is in a conversation that starts at a root-level fork (a dispatcher turn with no parent, an explicit null parent), so the earlier conversation is on no chain",
	"separate-conversation": "in a conversation of its own, apart from the one the head is in",
	"stored-predecessor":    "a row written with flag A on records another predecessor",
	"attach":                "an attach pointer hangs off the row its spawn recorded as the fork (the /spawn command row when that had no parent), which is not where the conversation places it",
	"dangling":              "the walk reaches a parent that is not in the session",
	"past-head":             "written after the row the head is on: the head was moved back (a checkout) or never moved forward (a crash)",
	"head":                  "the stored head is not where the conversation ends: the load starts from another row",
	"folded":                "on the chain's path, but shown inside another row (folded into a reply or absorbed by a card)",
	"not-conversation":      "the loader takes the row after it for a call, not a conversation row",
	"no-head":               "the session has no head to load from",
	"unexplained":           "no rule the audit knows gives the pointer the loader follows",
}

// CauseText is the plain words for a cause key.
func CauseText(key string) string {
	if t, ok := causeText[key]; ok {
		return t
	}
	return key
}

// rule is which of flag A's rules (lane.NewPreds) set a conversation row's
// predecessor, read from the row's own fields.
type rule int

const (
	ruleStored      rule = iota // metadata.predecessor, written with flag A on
	ruleSpawnRoot               // spawn_root
	ruleRetry                   // forked_from: the predecessor of the turn it reruns
	ruleRecorded                // a recorded metadata.parent_id
	ruleAttach                  // an attach pointer hangs off its caller
	ruleDispatch                // a dispatcher user without a parent: a root fork
	ruleSubAgent                // a sub-agent root (source agent_spawn)
	ruleNull                    // an explicit null parent_id: a root fork
	ruleContinues               // no parent recorded: where the head was
	ruleUnexplained             // the fields predict another predecessor than the loader's
)

// ruleOf names the rule behind id's predecessor pred, and checks the
// prediction the fields allow against it: a rule that would give another
// value is not the one the loader used, whatever the fields say.
func ruleOf(st *store.Store, preds *lane.Preds, id, pred string) rule {
	n, ok := st.Get(id)
	if !ok {
		return ruleUnexplained
	}
	check := func(r rule, want string) rule {
		if want != pred {
			return ruleUnexplained
		}
		return r
	}
	if v := n.Meta("predecessor"); v.K == node.String && v.S != "" {
		return check(ruleStored, v.S)
	}
	if n.Meta("spawn_root").Truthy() {
		return check(ruleSpawnRoot, node.RootID)
	}
	if src := n.Meta("forked_from"); src.K == node.String {
		if p, ok := preds.Of(src.S); ok {
			return check(ruleRetry, p)
		}
	}
	if par := n.Meta("parent_id"); par.Truthy() {
		if par.K != node.String {
			return check(ruleRecorded, node.RootID)
		}
		// Flag A takes a recorded parent among the rows written before
		// this one only: a pointer forward could close a cycle.
		return check(ruleRecorded, lane.Anchor(par.S, storedBefore(st, id)))
	}
	if n.Meta("function").Str() == "attach" {
		return check(ruleAttach, lane.Anchor(n.CalledBy, st.Get))
	}
	if n.Role == node.RoleUser {
		switch n.Meta("source").Str() {
		case "cli":
			return check(ruleDispatch, node.RootID)
		case "agent_spawn":
			return check(ruleSubAgent, node.RootID)
		}
		if n.Meta("parent_id").K == node.Null {
			return check(ruleNull, node.RootID)
		}
	}
	return ruleContinues
}

// rootCause names why a conversation starts at row id (its predecessor is
// ROOT or missing): the rule that made it a root. "" is an ordinary start:
// a first turn, which continues where the head was when ROOT was made.
func rootCause(st *store.Store, preds *lane.Preds, id, pred string) string {
	if pred != node.RootID && pred != "" {
		if _, ok := st.Get(pred); !ok {
			return "dangling"
		}
	}
	switch ruleOf(st, preds, id, pred) {
	case ruleStored:
		return "fork-root"
	case ruleSpawnRoot, ruleSubAgent:
		return "sub-agent"
	case ruleDispatch:
		return "fork-dispatch"
	case ruleNull:
		return "fork-null"
	case ruleRecorded:
		if n, ok := st.Get(id); ok {
			par := n.ParentID()
			if _, known := st.Get(par); par != node.RootID && !known {
				return "dangling"
			}
			if par != "" && before(st, id, par) {
				return "parent-later"
			}
		}
		// A dispatcher turn inherits the session head, ROOT on a first
		// turn: that is an ordinary start, not a fork.
		if firstAfterRoot(st, preds, id) {
			return ""
		}
		return "recorded-root"
	case ruleRetry:
		return "retry-sibling"
	case ruleContinues:
		if before(st, id, node.RootID) {
			return "before-root"
		}
		return ""
	}
	return "unexplained"
}

// firstAfterRoot reports whether id is the first conversation row stored
// after ROOT.
func firstAfterRoot(st *store.Store, preds *lane.Preds, id string) bool {
	root, ok := st.Pos(node.RootID)
	i, ok2 := st.Pos(id)
	if !ok || !ok2 || i < root {
		return false
	}
	for j := root + 1; j < i; j++ {
		if _, conv := preds.At(j); conv {
			return false
		}
	}
	return true
}

// storedBefore looks up the rows stored before row id.
func storedBefore(st *store.Store, id string) lane.Lookup {
	i, _ := st.Pos(id)
	return lane.StoredBefore(st, i, st.Get)
}

// before reports whether row a was stored before row b (b known).
func before(st *store.Store, a, b string) bool {
	i, ok := st.Pos(a)
	j, ok2 := st.Pos(b)
	return ok && ok2 && i < j
}

// headRootCause names why a row in an ordinary conversation is on no chain
// when the head is in another conversation, which starts at root: the rule
// that made that one a root.
func headRootCause(st *store.Store, preds *lane.Preds, root string) string {
	pred, _ := preds.Of(root)
	switch c := rootCause(st, preds, root, pred); c {
	case "sub-agent":
		return "head-in-sub-agent"
	case "fork-dispatch", "fork-null", "fork-root", "recorded-root":
		return "head-in-fork"
	case "retry-sibling", "dangling", "unexplained":
		return c
	}
	return "separate-conversation"
}

// stopCause names why row next, which the intended conversation puts right
// after row want, has the predecessor got instead.
func stopCause(st *store.Store, preds *lane.Preds, next, want, got string) string {
	return stopCauseAt(st, preds, next, want, got, 0)
}

func stopCauseAt(st *store.Store, preds *lane.Preds, next, want, got string, depth int) string {
	if got == node.RootID {
		if c := rootCause(st, preds, next, got); c != "before-root" && c != "" {
			return c
		}
		return "continues-head"
	}
	switch ruleOf(st, preds, next, got) {
	case ruleStored:
		return "stored-predecessor"
	case ruleRetry:
		// The retry took the predecessor of the turn it reruns: that
		// turn's own rule is the cause, when it explains the value.
		if n, ok := st.Get(next); ok && depth < 8 {
			src := n.Meta("forked_from").Str()
			if p, _ := preds.Of(src); p == got {
				if c := stopCauseAt(st, preds, src, want, got, depth+1); c != "unexplained" {
					return c
				}
			}
		}
		return "retry-sibling"
	case ruleRecorded:
		if failedReplyOf(st, want, got) {
			return "after-failed-reply"
		}
		return "stale-parent"
	case ruleAttach:
		return "attach"
	case ruleContinues:
		return continuesCause(st, got)
	}
	return "unexplained"
}

// continuesCause refines "continues-head" by the row the derivation took
// for where the head was: two kinds of row look as if they moved the head
// but did not keep it.
func continuesCause(st *store.Store, got string) string {
	n, ok := st.Get(got)
	switch {
	case !ok:
	case n.Role == node.RoleCode && n.Meta("status").Str() == "running":
		return "after-crashed-run"
	case n.Role == node.RoleLLM && taskSubAgent(st, n.CalledBy):
		return "after-task-sub-agent"
	}
	return "continues-head"
}

// taskSubAgent reports whether id is the user row of a sub-agent the
// model's task tool started: its parent is the reply that called the tool
// (a /spawn sub-agent's is the command row, or none).
func taskSubAgent(st *store.Store, id string) bool {
	u, ok := st.Get(id)
	if !ok || u.Role != node.RoleUser || u.Meta("source").Str() != "agent_spawn" {
		return false
	}
	p, ok := st.Get(u.ParentID())
	return ok && p.Role == node.RoleLLM
}

// failedReplyOf reports whether row id is a reply (or a standalone error
// row) that ended in an error, written for the user message user.
func failedReplyOf(st *store.Store, id, user string) bool {
	n, ok := st.Get(id)
	if !ok || n.Role != node.RoleLLM {
		return false
	}
	failed := n.Meta("status").Str() == "error" || n.Meta("role").Str() == "system" || n.Meta("error").IsSet()
	return failed && (n.ParentID() == user || n.CalledBy == user)
}
