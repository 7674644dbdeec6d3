package harness

import (
	"bytes"
	"encoding/json"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// sameBytes reports whether two views certainly marshal to the same JSON
// document, without encoding/json: the parts around the message lists are
// marshalled as before (a small document), and each message is written with
// its own side's encoder into a reused buffer and compared byte for byte.
// Identical bytes part by part make identical documents; false only means
// "not shown equal here", and ViewDiff then compares the whole documents.
// It knows the view types the checks compare (model.View and webui.View);
// other values are never shown equal here.
func sameBytes(want, got any) bool {
	w, ok := viewParts(want)
	if !ok {
		return false
	}
	g, ok := viewParts(got)
	if !ok {
		return false
	}
	we, err1 := json.Marshal(w.envelope)
	ge, err2 := json.Marshal(g.envelope)
	if err1 != nil || err2 != nil || !bytes.Equal(we, ge) || len(w.lists) != len(g.lists) {
		return false
	}
	var wb, gb []byte
	for i := range w.lists {
		if w.lists[i].len() != g.lists[i].len() {
			return false
		}
		for j := 0; j < w.lists[i].len(); j++ {
			var ok1, ok2 bool
			wb, ok1 = w.lists[i].append(wb[:0], j)
			gb, ok2 = g.lists[i].append(gb[:0], j)
			if !ok1 || !ok2 || !bytes.Equal(wb, gb) {
				return false
			}
		}
	}
	return true
}

// parts is a view split into its envelope (the view with its message lists
// left out) and the lists, in the order the view document lists them.
type parts struct {
	envelope any
	lists    []messages
}

func viewParts(v any) (parts, bool) {
	switch x := v.(type) {
	case model.View:
		lists := []messages{modelMessages(x.Messages), modelMessages(x.All), modelMessages(x.Chain), modelMessages(x.Branch)}
		x.Messages, x.All, x.Chain, x.Branch = nil, nil, nil, nil
		return parts{x, lists}, true
	case webui.View:
		lists := []messages{implMessages(x.Messages), implMessages(x.All), implMessages(x.Chain), implMessages(x.Branch)}
		x.Messages, x.All, x.Chain, x.Branch = nil, nil, nil, nil
		return parts{x, lists}, true
	}
	return parts{}, false
}

// messages is one message list with the encoder of its side.
type messages interface {
	len() int
	// append writes message i as its MarshalJSON does; ok is false when
	// it cannot.
	append(b []byte, i int) ([]byte, bool)
}

type modelMessages []*model.Object

func (ms modelMessages) len() int { return len(ms) }

func (ms modelMessages) append(b []byte, i int) ([]byte, bool) {
	b, err := model.AppendJSON(b, ms[i])
	return b, err == nil
}

type implMessages []*adapter.Message

func (ms implMessages) len() int { return len(ms) }

// append writes the message in node.Compact, which is what its MarshalJSON
// writes except where a number is not finite: MarshalJSON writes null there,
// Compact NaN, Infinity or -Infinity, tokens neither the model's encoder nor
// Compact writes for anything else. So equal bytes mean equal MarshalJSON
// bytes: against the model no such number was there; against another Compact
// encoding the same token stands at the same place and is null on both.
func (ms implMessages) append(b []byte, i int) ([]byte, bool) {
	if ms[i] == nil {
		return append(b, "null"...), true
	}
	return node.AppendJSON(b, node.ObjV(ms[i].F), node.Compact), true
}
