// Package model holds the reference models of sessiondag.
//
// The legacy model's reading half (this file set) computes what the original
// system R (docs/legacy.md) shows for a session given its nodes:
//
//	ReadSessionDir(dir) → *Session   (read.go: history/*.json + meta.json)
//	LegacyView(session) → View       (view.go: the docs/views.md contract)
//
// It is written plainly from the prose of docs/legacy.md, rule by rule,
// keeping what a plain program keeps (an index by id, children lists, a
// message per node version) so that no rule is quadratic, and shares no
// code with impl/:
//
//	json.go       ordered JSON values, Python json.dumps / str()
//	node.go       Node, Session
//	index.go      nodes by id, call children, get_branch's roots
//	reading.go    a session with its index and messages
//	adapter.go    node → message (§2.3), get_messages (§2.1)
//	history.go    linear_history, siblings (§3.1)
//	family.go     sibling_index, children, deepest_leaf (§3.1) over groups
//	branch.go     get_branch (§3.2)
//	render.go     render_context (§3.3)
//	aggregate.go  aggregate_tool_messages (§3.4)
//	load.go       handle_load_session steps 2–10 (§3.5)
//	embed.go      attach rows' embed statistics from context commits (§3.5 step 10)
//	cards.go      _rebuild_runtime_cards and context_tree (§3.6, §2.5)
//
// The writing half runs op scripts (ops/README.md, flags off):
//
//	write.go      LegacyRun: NewLegacy, Apply, Session, View; Legacy(script)
//	writedir.go   writeSessionDir: the on-disk layout, Python indent=2 JSON
package model
