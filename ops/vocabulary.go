package ops

import (
	"reflect"
	"strings"
)

// Vocabulary is the vocabulary's text form: a line per op kind, in All's
// order, with the key of each field a script line may give and what it
// takes (a bare key for a boolean, key=text for a string), in the order
// Format writes them. Two builds with one Vocabulary read and write the same
// scripts; a kind or key added, renamed or moved changes it (a claims
// folder of the exhaustive walk is keyed by it, not by the binary).
func Vocabulary() string {
	var b strings.Builder
	for _, op := range All {
		b.WriteString(op.Kind())
		t := reflect.TypeOf(op)
		for i := 0; i < t.NumField(); i++ {
			key := t.Field(i).Tag.Get("op")
			switch t.Field(i).Type.Kind() {
			case reflect.Bool:
				b.WriteString(" " + key)
			default:
				b.WriteString(" " + key + "=" + t.Field(i).Type.Kind().String())
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
