package webui

import (
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
)

// Rules are the pointer rules of one flag set: which edge each reader of
// the web UI follows. R reads parent_id (its call-edge copy where it stands
// for the caller); under flag D every reader uses called_by and the stored
// conversation predecessor and never reads parent_id.
type Rules struct {
	Flags flags.Set
	Preds *lane.Preds // flag A's predecessors; nil when A is off
	// Walks is set when the chain follows the predecessors (flag B): the
	// rows placed around it (attach pointers, card internals) then follow
	// them too.
	Walks bool
}

// RulesFor returns the rules of a flag set. preds may be nil when A is off.
func RulesFor(fl flags.Set, preds *lane.Preds) Rules {
	return Rules{Flags: fl, Preds: preds, Walks: preds != nil && fl.Has(flags.B)}
}

func (r Rules) d() bool { return r.Flags.Has(flags.D) }

// ToolTarget is the assistant a tool row folds into: the top-level
// called_by, else parent_id (R) or the node's caller (D), else the edge in
// extra.tool_use.called_by.
func (r Rules) ToolTarget(m *adapter.Message) string {
	if t := m.TopCalledBy; t.Truthy() {
		return t.Str()
	}
	if r.d() {
		if m.CalledBy != "" {
			return m.CalledBy
		}
	} else if p := m.LegacyParentID(); p != "" {
		return p
	}
	return ToolUse(m).Get("called_by").Str()
}

// cardTarget decides whether a tool row is a top-level run.
func (r Rules) cardTarget(m *adapter.Message) string {
	if cb := m.TopCalledBy; cb.Truthy() {
		return cb.Str()
	}
	if r.d() {
		return m.CalledBy
	}
	return m.LegacyParentID()
}

// childOf is the key under which the card pass absorbs a row: the top-level
// called_by, ROOT ignored (R, commit 476aa8f6). Under flag A conversation
// rows (an attach pointer whose fork anchor is a run, say) are not absorbed
// once the chain walks predecessors (flag B).
func (r Rules) childOf(m *adapter.Message) string {
	if r.Walks && m.IsConv {
		return "" // a conversation row is never a run's internal
	}
	if cb := m.TopCalledBy; cb.Truthy() && cb.Str() != node.RootID {
		return cb.Str()
	}
	return ""
}

// fixEdge is the pointer the head fix-up climbs.
func (r Rules) fixEdge(m *adapter.Message) string {
	if r.d() {
		if m.CalledBy != "" && m.CalledBy != node.RootID {
			return m.CalledBy
		}
		return m.Pred
	}
	return m.LegacyParentID()
}

// attachParent is where an attach pointer is spliced: R uses its caller or
// parent_id; once the chain walks predecessors (flag B) its predecessor,
// the row the spawn was issued from.
func (r Rules) attachParent(m *adapter.Message) string {
	if r.Walks && m.IsConv {
		return m.Pred
	}
	if cb := m.TopCalledBy; cb.Truthy() {
		return cb.Str()
	}
	return m.LegacyParentID() // R's, not the predecessor flag A shows in its place
}

// runtimeRowParent is where a legacy runtime status row is spliced.
func (r Rules) runtimeRowParent(m *adapter.Message) string {
	if r.d() {
		if m.IsConv {
			return m.Pred
		}
		return m.CalledBy
	}
	return m.ParentID()
}

// siblingKey groups rows into sibling sets.
func (r Rules) siblingKey(m *adapter.Message) node.Value {
	if r.d() {
		if m.IsConv {
			return node.Str(m.Pred)
		}
		return node.Str(m.CalledBy)
	}
	return m.ParentValue()
}
