package harness

import (
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// Load is webui.Load: the checker side's one way into a load, kept as a
// seam for counting and tracing.
func Load(st *store.Store, fl flags.Set) *webui.Loaded { return webui.Load(st, fl) }

// Views is webui.Views (see Load).
func Views(st *store.Store, fl flags.Set) webui.View { return webui.Views(st, fl) }

// CountParentReads runs f, which reads st, and returns how many times a
// reader read parent_id of st's messages meanwhile. The count is the
// session's own (store.Store.ParentReads), so loads of other sessions on
// other goroutines do not disturb it.
func CountParentReads(st *store.Store, f func()) int64 {
	before := st.ParentReads.Load()
	f()
	return st.ParentReads.Load() - before
}

func load(st *store.Store, fl flags.Set) *webui.Loaded { return Load(st, fl) }

func views(st *store.Store, fl flags.Set) webui.View { return Views(st, fl) }
