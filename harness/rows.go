package harness

import (
	"encoding/json"
	"fmt"

	"sessiondag/impl/adapter"
	"sessiondag/impl/webui"
)

// LoadedRows renders every list of a load, a row per line, for a diff.
func LoadedRows(l *webui.Loaded) []string {
	out := []string{fmt.Sprintf("head %q (stored %q), fallback %v", l.HeadID, l.StoredHead, l.FallbackUsed)}
	for _, list := range []struct {
		name string
		rows []*adapter.Message
	}{{"messages", l.Messages}, {"all", l.All}, {"linear", l.Linear}, {"before cards", l.BeforeCards}, {"chain", l.Chain}} {
		out = append(out, fmt.Sprintf("%s: %d rows", list.name, len(list.rows)))
		for _, m := range list.rows {
			b, err := json.Marshal(m)
			if err != nil {
				b = []byte(err.Error())
			}
			out = append(out, string(b))
		}
	}
	return out
}
