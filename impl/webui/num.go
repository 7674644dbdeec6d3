package webui

import (
	"strconv"

	"sessiondag/impl/node"
)

// numberOf reads a number value; anything else counts as 0, as the
// original's `or 0` does for missing timestamps.
func numberOf(v node.Value) float64 {
	if v.K != node.Number {
		return 0
	}
	f, _ := strconv.ParseFloat(v.S, 64)
	return f
}

func itoa(i int) string { return strconv.Itoa(i) }
