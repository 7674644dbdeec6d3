package driver

// AppendState appends an unambiguous binary encoding of the implementation's
// session state to b: the writer's own state (the browser's head, the
// pending turn, the open reply, the running functions, the clock, its flags)
// and its store's (writer.Writer.AppendState, store.Store.AppendState).
// What loads keep in the store's memos is not part of it.
func (r *Run) AppendState(b []byte) []byte {
	return r.W.S.AppendState(r.W.AppendState(b))
}
