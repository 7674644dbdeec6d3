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
	return r.views(r.load())
}

// ViewsOf is Views from l, a Load of s under fl made since s last changed:
// a caller that needs both pays for one load.
func ViewsOf(s *store.Store, fl flags.Set, l *Loaded) View {
	return newReader(s, fl).views(l)
}

func (r *reader) views(l *Loaded) View {
	return View{
		SessionID:    l.SessionID,
		StoredHead:   l.StoredHead,
		HeadID:       l.HeadID,
		FallbackUsed: l.FallbackUsed,
		Messages:     nonNilMsgs(l.Messages),
		All:          nonNilMsgs(l.All),
		Chain:        nonNilMsgs(l.Chain),
		Branch:       nonNilMsgs(r.branch(r.s.Head())),
		Render:       render.Context(r.s.Nodes(), -1, -1, render.NoRange),
	}
}

func nonNilMsgs(m []*adapter.Message) []*adapter.Message {
	if m == nil {
		return []*adapter.Message{}
	}
	return m
}
