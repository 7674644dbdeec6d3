package model

import "strconv"

// View is the view contract of docs/views.md: what every reader of a session
// shows at its stored head. encoding/json on it gives the contract document.
type View struct {
	SessionID    string    `json:"session_id"`
	StoredHead   string    `json:"stored_head"`   // index head, before the fix-up
	HeadID       *string   `json:"head_id"`       // after the load fix-up (§3.5 step 4); nil: none, null
	FallbackUsed bool      `json:"fallback_used"` // get_branch replaced the chain (step 6)
	Messages     []*Object `json:"messages"`      // get_messages
	All          []*Object `json:"all"`           // aggregate_tool_messages(messages)
	Chain        []*Object `json:"chain"`         // rows shown after load (steps 5–10)
	Branch       []*Object `json:"branch"`        // get_branch(stored head), raw
	Render       []string  `json:"render"`        // render_context(graph, max seq) ids
}

// LegacyView computes R's views for a session (docs/legacy.md).
// Every part is computed from fresh adapter output, so no step's in-place
// mutation (aggregation, sibling keys) leaks into another part.
func LegacyView(s *Session) View {
	all := aggregateToolMessages(getMessages(s))
	ld := handleLoadSession(s, getMessages(s), aggregateToolMessages(getMessages(s)))
	return View{
		SessionID:    s.ID,
		StoredHead:   s.HeadID,
		HeadID:       ld.head,
		FallbackUsed: ld.fallback,
		Messages:     nonNil(getMessages(s)),
		All:          nonNil(all),
		Chain:        nonNil(ld.chain),
		Branch:       nonNil(getBranch(s, s.HeadID)),
		Render:       renderContext(s),
	}
}

func nonNil(ms []*Object) []*Object {
	if ms == nil {
		return []*Object{}
	}
	return ms
}

func itoa(i int) string { return strconv.Itoa(i) }
