package driver

import (
	"fmt"

	"sessiondag/impl/writer"
)

// Fork copies the session and every writer of it (writer.Fork): ops
// applied to the copy leave r alone. A session written to a directory has
// no fork.
func (r *Run) Fork() (*Run, error) {
	ws := []*writer.Writer{r.W}
	for _, p := range r.parked {
		ws = append(ws, p.w)
	}
	c, err := writer.Fork(ws...)
	if err != nil {
		return nil, fmt.Errorf("driver: %w", err)
	}
	out := &Run{W: c[0], name: r.name, parked: make([]namedWriter, len(r.parked))}
	for i, p := range r.parked {
		out.parked[i] = namedWriter{p.name, c[i+1]}
	}
	return out, nil
}
