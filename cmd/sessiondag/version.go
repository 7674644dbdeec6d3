package main

import (
	"fmt"
	"runtime/debug"
)

// version says which build this is: the module's version, the commit it
// was built from (marked when the tree had changes) and the Go release.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "sessiondag (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	out := "sessiondag " + v
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		out += fmt.Sprintf(" (commit %s %s%s)", rev, at, dirty)
	}
	return out + ", " + bi.GoVersion
}
