package ops

import (
	"fmt"
	"math"
	"strconv"
)

// Seconds is the run time End gives: Duration read as a decimal number, 0.5
// when it is empty.
func (o End) Seconds() (float64, error) {
	if o.Duration == "" {
		return 0.5, nil
	}
	return decimal("duration", o.Duration)
}

// Time is the created_at Clock gives the next node.
func (o Clock) Time() (float64, error) { return decimal("at", o.At) }

// decimal reads a finite decimal number (digits, an optional sign, point
// and exponent: what a JSON number allows).
func decimal(key, text string) (float64, error) {
	if !jsonNumber(text) {
		return 0, fmt.Errorf("%s=%q is not a decimal number", key, text)
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s=%q is out of range", key, text)
	}
	return f, nil
}

// jsonNumber reports whether s has the grammar of a JSON number.
func jsonNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
