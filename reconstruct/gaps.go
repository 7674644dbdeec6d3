package reconstruct

// The values the op language does not carry. An op says what a user or the
// system did; the original also stores values it takes from the world:
// when (timing), how much (token usage), which process and model
// (process), which chat channel (channel), a function's docstring (doc),
// the session's own settings in meta.json (meta). No op writes them and no
// reader places a row by them; a reconstruction that differs only in them is
// one up to gaps, and the implementation's loads of the stored and the
// replayed data must then agree under every config (loads.go).

// Gap classes.
const (
	gapMeta = "meta" // meta.json keys besides head_id
)

// gapClass is the class of a field no op carries, "" for a field an op
// writes (a difference there leaves the row unexplained).
func gapClass(r *Row, field, stored, written string) string {
	return ""
}
