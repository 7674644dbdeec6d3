package exhaust

import (
	"fmt"
	"reflect"
	"strings"

	"sessiondag/ops"
)

// Canonical renames a script's ids in the order they are minted: every
// field that mints a name (ref:"new", and a tool call's id) gets the next
// n<k>, and every field that names a node (ref:"node") follows the
// renaming, derived ids included (`n3_reply` of n3, `n3_reply_t_n4` of a
// call). Names never minted (dangling ones) stay as they are. Two scripts
// equal up to a renaming of ids have the same canonical form; the walk
// builds only scripts already in it.
func Canonical(script []ops.Op) []ops.Op {
	names := map[string]string{}
	out := make([]ops.Op, len(script))
	for i, op := range script {
		v := reflect.New(reflect.TypeOf(op)).Elem()
		v.Set(reflect.ValueOf(op))
		for j := 0; j < v.NumField(); j++ {
			f, tag := v.Field(j), v.Type().Field(j).Tag
			switch {
			case f.Kind() != reflect.String || f.String() == "":
			case tag.Get("ref") == "new" || tag.Get("op") == "call":
				name := fmt.Sprintf("n%d", len(names)+1)
				names[f.String()] = name
				f.SetString(name)
			case tag.Get("ref") == "node":
				f.SetString(rename(f.String(), names))
			}
		}
		out[i] = v.Interface().(ops.Op)
	}
	return out
}

// rename maps each "_"-separated part of a (possibly derived) id that is a
// minted name.
func rename(id string, names map[string]string) string {
	parts := strings.Split(id, "_")
	for i, p := range parts {
		if n, ok := names[p]; ok {
			parts[i] = n
		}
	}
	return strings.Join(parts, "_")
}
