package process

import (
	"fmt"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
	"sessiondag/protocol"
)

// shown is one view reply read into the harness's types: the views and the
// load they hold.
type shown struct {
	views  webui.View
	loaded *webui.Loaded
}

// readView reads the view object of a reply: the load's keys, which every
// implementation returns, and each view it declared, each of the type
// docs/views.md gives it. ids are renamed to the script's first.
func readView(v node.Value, a protocol.About, r renamer) (*shown, error) {
	if v.K != node.Object || v.O == nil {
		return nil, fmt.Errorf("view %s: want an object", clipValue(v))
	}
	if len(r) > 0 {
		v, _ = r.value(v)
	}
	o := v.O
	var sv webui.View
	var err error
	if sv.SessionID, err = str(o, "session_id"); err != nil {
		return nil, err
	}
	switch h := o.Get("head_id"); h.K {
	case node.Null:
	case node.String:
		sv.HeadID = webui.HeadAt(h.S)
	default:
		return nil, fmt.Errorf("view: head_id %s: want a string or null", clipValue(h))
	}
	fb := o.Get("fallback_used")
	if fb.K != node.Bool {
		return nil, fmt.Errorf("view: fallback_used %s: want true or false", clipValue(fb))
	}
	sv.FallbackUsed = fb.B
	if sv.Chain, err = messages(o, "chain", a.Unmodelled); err != nil {
		return nil, err
	}
	l := &webui.Loaded{SessionID: sv.SessionID, HeadID: sv.HeadID, FallbackUsed: sv.FallbackUsed, Chain: sv.Chain}
	for _, name := range a.Views {
		if !o.Has(name) {
			return nil, fmt.Errorf("view: no %s, which the handshake declared", name)
		}
		switch name {
		case protocol.ViewStoredHead:
			sv.StoredHead, err = str(o, name)
			l.StoredHead = sv.StoredHead
		case protocol.ViewMessages:
			sv.Messages, err = messages(o, name, a.Unmodelled)
			l.Messages = sv.Messages
		case protocol.ViewAll:
			sv.All, err = messages(o, name, a.Unmodelled)
			l.All = sv.All
		case protocol.ViewBranch:
			sv.Branch, err = messages(o, name, a.Unmodelled)
		case protocol.ViewRender:
			sv.Render, err = strs(o, name)
		case protocol.ViewBeforeCards:
			l.BeforeCards, err = messages(o, name, a.Unmodelled)
		}
		if err != nil {
			return nil, err
		}
	}
	return &shown{views: sv, loaded: l}, nil
}

func str(o *node.Obj, key string) (string, error) {
	v := o.Get(key)
	if v.K != node.String {
		return "", fmt.Errorf("view: %s %s: want a string", key, clipValue(v))
	}
	return v.S, nil
}

func strs(o *node.Obj, key string) ([]string, error) {
	v := o.Get(key)
	if v.K != node.Array {
		return nil, fmt.Errorf("view: %s %s: want a list of strings", key, clipValue(v))
	}
	out := make([]string, len(v.A))
	for i, e := range v.A {
		if e.K != node.String {
			return nil, fmt.Errorf("view: %s[%d] %s: want a string", key, i, clipValue(e))
		}
		out[i] = e.S
	}
	return out, nil
}

// messages reads a list of message objects, keys in the order sent, the
// keys the implementation declared unmodelled left out.
func messages(o *node.Obj, key string, unmodelled []string) ([]*adapter.Message, error) {
	v := o.Get(key)
	if v.K != node.Array {
		return nil, fmt.Errorf("view: %s %s: want a list of messages", key, clipValue(v))
	}
	out := make([]*adapter.Message, len(v.A))
	for i, e := range v.A {
		if e.K != node.Object || e.O == nil {
			return nil, fmt.Errorf("view: %s[%d] %s: want a message object", key, i, clipValue(e))
		}
		for _, k := range unmodelled {
			e.O.Delete(k)
		}
		out[i] = adapter.New(e.O)
	}
	return out, nil
}

func clipValue(v node.Value) string {
	if v.K == node.Missing {
		return "(missing)"
	}
	return clip([]byte(node.Dumps(v)))
}
