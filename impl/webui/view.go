package webui

import (
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/render"
	"sessiondag/impl/store"
)

// View is every reader's output for a session (docs/views.md).
type View struct {
	SessionID    string             `json:"session_id"`
	StoredHead   string             `json:"stored_head"`
	HeadID       Head               `json:"head_id"` // null when there is no head
	FallbackUsed bool               `json:"fallback_used"`
	Messages     []*adapter.Message `json:"messages"`
	All          []*adapter.Message `json:"all"`
	Chain        []*adapter.Message `json:"chain"`
	Branch       []*adapter.Message `json:"branch"`
	Render       []string           `json:"render"`
}

// Views computes every view of a session under a flag set, at its head.
func Views(s *store.Store, fl flags.Set) View {
	r := newReader(s, fl)
	l := r.load()
	return View{
		SessionID:    l.SessionID,
		StoredHead:   l.StoredHead,
		HeadID:       l.HeadID,
		FallbackUsed: l.FallbackUsed,
		Messages:     nonNilMsgs(l.Messages),
		All:          nonNilMsgs(l.All),
		Chain:        nonNilMsgs(l.Chain),
		Branch:       nonNilMsgs(r.branch(s.Head())),
		Render:       render.Context(s.Nodes(), -1, -1, render.NoRange),
	}
}

func nonNilMsgs(m []*adapter.Message) []*adapter.Message {
	if m == nil {
		return []*adapter.Message{}
	}
	return m
}
