package model

import "strconv"

// View is the view contract of docs/views.md: what every reader of a session
// shows at its stored head. encoding/json on it gives the contract document.
// Views share message objects with each other (and a writer's views with its
// later ones): read them, never change them.
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

// LegacyView computes R's views for a session (docs/legacy.md). It is a
// function of the session alone: everything it keeps is built for the call.
func LegacyView(s *Session) View { return newReading(s).view() }

// view computes every view from one reading. No step changes a message it
// was given (aggregation folds into copies, the load sets sibling keys on
// copies), so the parts share the adapter's messages.
func (rd *reading) view() View {
	raw := rd.messages()
	all := aggregate(raw, rd.memo)
	branch := rd.branch(rd.s.HeadID)
	ld := rd.load(raw, all, branch)
	return View{
		SessionID:    rd.s.ID,
		StoredHead:   rd.s.HeadID,
		HeadID:       ld.head,
		FallbackUsed: ld.fallback,
		Messages:     nonNil(raw),
		All:          nonNil(all),
		Chain:        nonNil(ld.chain),
		Branch:       nonNil(branch),
		Render:       rd.render(),
	}
}

func nonNil(ms []*Object) []*Object {
	if ms == nil {
		return []*Object{}
	}
	return ms
}

func itoa(i int) string { return strconv.Itoa(i) }
