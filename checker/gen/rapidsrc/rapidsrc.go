// Package rapidsrc lets rapid drive the generators: a gen.Source whose
// choices are rapid draws, so rapid records and shrinks every one. Only
// tests import it, which keeps rapid and the testing package out of the
// command-line tool.
package rapidsrc

import (
	"pgregory.net/rapid"

	"sessiondag/checker/gen"
)

// Source is a gen.Source drawing from a rapid.T.
type Source struct{ T *rapid.T }

var _ gen.Source = Source{}

// IntN implements gen.Source.
func (r Source) IntN(n int, label string) int {
	return rapid.IntRange(0, n-1).Draw(r.T, label)
}
