package protocol

import (
	"fmt"
	"slices"
	"strings"
)

// Judged are the keys the checks are about: an implementation may not
// declare one of them unmodelled (ParseHello refuses the hello), since a
// key left out of the comparison is never evidence either way, and a
// check about a key that is left out would pass on anything. They are
// what the checks compare by name, beyond the whole views:
//
//   - the view's own keys (docs/views.md): session_id, head_id (and the
//     stored head), fallback_used, and the lists themselves;
//   - a message's identity and what it says: id, session_id, role,
//     content;
//   - the pointers the DAG is made of, which P1's fix-up, P2's chain, P4's
//     walks and flag A's and D's loads follow: parent_id, called_by,
//     caller, predecessor, and extra (its tool_use carries the call edge
//     of a tool row, tool_call_id and the function's name);
//   - what decides how a row is shown, read by the target's projection
//     (harness.Project), the card pass (P5) and aggregation: type,
//     display, status, function, context_tree, tool_calls, tool_call_id,
//     blocks.
//
// What is not here may be unmodelled: values the op language does not
// determine for an implementation, such as its own clock's timestamp,
// the model name it records, token counts or a process id.
var Judged = []string{
	// the views
	"session_id", "head_id", "stored_head", "fallback_used", "chain", "messages", "all", "branch", "render", "before_cards",
	// a message's identity and text
	"id", "role", "content",
	// the pointers
	"parent_id", "called_by", "caller", "predecessor", "extra",
	// how a row is shown
	"type", "display", "status", "function", "context_tree", "tool_calls", "tool_call_id", "blocks",
}

// unmodelledKey reports why a key may not be declared unmodelled, or nil.
func unmodelledKey(k string) error {
	switch {
	case k == "":
		return fmt.Errorf("unmodelled: an empty key")
	case slices.Contains(Judged, k):
		return fmt.Errorf("unmodelled: %q is a key the checks are about (docs/protocol.md, \"What the checks compare\"): left out, "+
			"it would be compared on neither side, and a check about it would pass on anything", k)
	}
	return nil
}

// LeftOut says what the comparisons leave out for this implementation:
// the message keys it declared unmodelled and the views it does not
// return (both sides lose them alike); nil when nothing is left out.
// Every verdict against it says so.
func (a About) LeftOut() []string {
	if a.InProcess {
		return nil
	}
	var out []string
	if len(a.Unmodelled) > 0 {
		out = append(out, "message keys "+strings.Join(a.Unmodelled, ", ")+" (declared unmodelled)")
	}
	var views []string
	for _, w := range OptionalViews {
		if !a.Returns(w) {
			views = append(views, w)
		}
	}
	if len(views) > 0 {
		out = append(out, "views "+strings.Join(views, ", ")+" (not returned)")
	}
	return out
}

// LeftOutNote is the reason a verdict gives for what its comparisons left
// out (About.LeftOut), "" when nothing.
func LeftOutNote(leftOut []string) string {
	if len(leftOut) == 0 {
		return ""
	}
	return "left out of the comparison: " + strings.Join(leftOut, "; ")
}
