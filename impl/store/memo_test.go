package store_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/store"
)

// LoadOrMake makes a value only for an empty slot, and every caller, racing
// or not, gets the one value stored.
func TestLoadOrMake(t *testing.T) {
	var m store.Memo
	made := 0
	mk := func() any { made++; return new(int) }
	first := m.LoadOrMake(0, mk)
	require.Same(t, first, m.LoadOrMake(0, mk))
	require.Equal(t, 1, made, "a stored value is made again")
	require.Nil(t, m.Load(1), "another slot is filled")

	var race store.Memo
	got := make([]any, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = race.LoadOrMake(1, func() any { return new(int) }) })
	}
	wg.Wait()
	for _, v := range got {
		require.Same(t, got[0], v, "racing callers got different values")
	}
}
