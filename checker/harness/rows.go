package harness

import (
	"fmt"

	"github.com/google/go-cmp/cmp"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
)

// loadedRows renders every list of a load, a row per line, for a diff.
func loadedRows(l *webui.Loaded) []string {
	out := []string{loadedHeader(l)}
	for _, list := range loadedLists(l) {
		out = append(out, fmt.Sprintf("%s: %d rows", list.name, len(list.rows)))
		for _, m := range list.rows {
			out = append(out, messageRow(m))
		}
	}
	return out
}

// messageRow is a message as the web UI sends it. It calls the message's
// own encoder: json.Marshal would re-validate and compact its output, which
// was the larger part of rendering a load.
func messageRow(m *adapter.Message) string {
	if m == nil {
		return "null"
	}
	b, err := m.MarshalJSON()
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// LoadDiff is "" when two loads show the same rows, else the diff of their
// loadedRows (-a +b). Loads are compared value by value first and rendered
// only when that cannot show them equal.
func LoadDiff(a, b *webui.Loaded) string {
	if sameLoaded(a, b) {
		return ""
	}
	return cmp.Diff(loadedRows(a), loadedRows(b))
}

func loadedHeader(l *webui.Loaded) string {
	return fmt.Sprintf("head %q (stored %q), fallback %v", l.HeadID, l.StoredHead, l.FallbackUsed)
}

type namedList struct {
	name string
	rows []*adapter.Message
}

func loadedLists(l *webui.Loaded) []namedList {
	return []namedList{{"messages", l.Messages}, {"all", l.All}, {"linear", l.Linear}, {"before cards", l.BeforeCards}, {"chain", l.Chain}}
}

// sameLoaded reports whether two loads certainly render the same
// loadedRows, compared value by value without writing the rows out (false:
// not shown equal here; render them to see).
func sameLoaded(a, b *webui.Loaded) bool {
	if loadedHeader(a) != loadedHeader(b) {
		return false
	}
	la, lb := loadedLists(a), loadedLists(b)
	for i := range la {
		if len(la[i].rows) != len(lb[i].rows) {
			return false
		}
		for j, m := range la[i].rows {
			if m == nil || lb[i].rows[j] == nil || !sameImpl(m, node.ObjV(lb[i].rows[j].F)) {
				return false
			}
		}
	}
	return true
}
