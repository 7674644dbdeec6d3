package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestScopeOf: a mutant's tests are those of the packages whose test
// binaries link a package it edits — the package itself, one
// importing it directly or through another — and no other.
func TestScopeOf(t *testing.T) {
	deps := map[string][]string{
		"m/site":     {"m/lib"},                     // the site's own tests
		"m/user":     {"m/site", "m/lib"},           // imports the site
		"m/far":      {"m/user", "m/site", "m/lib"}, // go list gives every link, not only the imports
		"m/other":    {"m/lib"},
		"m/otherlib": {},
	}
	sites := map[string][]string{
		"one":  {"m/site"},
		"two":  {"m/lib", "m/otherlib"},
		"none": {"m/untested"},
	}
	require.Equal(t, map[string][]string{
		"one": {"m/far", "m/site", "m/user"},
		"two": {"m/far", "m/other", "m/otherlib", "m/site", "m/user"},
	}, scopeOf(sites, deps))
}

// TestJudgeScopeReachesEveryEdit: every judge's mutant edits code
// in a package whose tests run it, read from this module's own sources.
func TestJudgeScopeReachesEveryEdit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	scope, err := judgeScope()
	require.NoError(t, err)
	all, err := every()
	require.NoError(t, err)
	for _, m := range all {
		if m.pkgs == nil {
			require.NotEmpty(t, scope[m.Name], "mutant %s", m.Name)
		}
	}
}
