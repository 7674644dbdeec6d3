package flags_test

// The flag set of docs/rollout.md §2: parsed from "off", "all", or a list
// such as "A,B"; a set that breaks a prerequisite (B needs A, C needs B, D
// needs A–C) is refused with an error naming what is missing.

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/flags"
)

func TestParseAccepted(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want flags.Set
	}{
		{"off", flags.Off},
		{"all", flags.All},
		{"A", flags.A},
		{"A,B", flags.A | flags.B},
		{"b, a", flags.A | flags.B},
		{"A,B,C", flags.A | flags.B | flags.C},
		{"A,B,C,D", flags.All},
	} {
		got, err := flags.Parse(tc.in)
		require.NoErrorf(t, err, "Parse(%q)", tc.in)
		require.Equalf(t, tc.want, got, "Parse(%q)", tc.in)
		require.NoError(t, got.Validate())
	}
	require.Equal(t, flags.A|flags.B|flags.C|flags.D, flags.All)
	require.False(t, flags.Off.Has(flags.A))
	require.True(t, flags.All.Has(flags.A|flags.D))
}

func TestParseRefusesBrokenPrerequisites(t *testing.T) {
	for _, tc := range []struct {
		in      string
		missing string // the step the error must name
	}{
		{"B", "A"},
		{"A,C", "B"},
		{"C", "A,B"},
		{"D", "A,B,C"},
		{"A,B,D", "C"},
	} {
		got, err := flags.Parse(tc.in)
		require.Errorf(t, err, "Parse(%q) must be refused", tc.in)
		require.Containsf(t, err.Error(), "needs "+tc.missing, "Parse(%q): %v", tc.in, err)
		require.Equal(t, flags.Off, got, "nothing is silently completed")
	}
}

func TestValidateRefusesBrokenSets(t *testing.T) {
	require.ErrorContains(t, flags.B.Validate(), "A")
	require.ErrorContains(t, (flags.A | flags.C).Validate(), "B")
	require.ErrorContains(t, flags.D.Validate(), "A,B,C")
	require.NoError(t, flags.Off.Validate())
}

func TestParseRefusesUnknownStep(t *testing.T) {
	_, err := flags.Parse("A,E")
	require.Error(t, err)
	require.Contains(t, err.Error(), "e")
}

func TestStringRoundTrip(t *testing.T) {
	require.Equal(t, "off", flags.Off.String())
	require.Equal(t, "all", flags.All.String())
	require.Equal(t, "A,B", (flags.A | flags.B).String())
	for _, s := range flags.Rollout {
		got, err := flags.Parse(s.String())
		require.NoError(t, err)
		require.Equal(t, s, got, "round trip of %s", s)
		var v flags.Set
		require.NoError(t, v.Set(s.String()))
		require.Equal(t, s, v)
	}
	require.Equal(t, []flags.Set{flags.Off, flags.A, flags.A | flags.B, flags.A | flags.B | flags.C, flags.All}, flags.Rollout)
}
