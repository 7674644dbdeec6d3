// Package gate is the benchmark regression gate: it compares two
// files in the Go benchmark format (OLD and NEW, e.g. from
// scripts/benchcmp.sh) and fails when NEW is worse in sec/op, B/op or
// allocs/op by a statistically significant amount (Mann-Whitney U test,
// p < alpha) AND by more than a threshold percentage (median vs
// median).
//
// Requiring both keeps the gate quiet on noise (a big but insignificant
// delta) and on tiny but real drifts (a significant delta below the
// threshold). See README.md for the rule, flags and exit codes.
//
// Parsing, grouping and statistics come from golang.org/x/perf
// (benchfmt, benchmath, benchunit) so the numbers match what benchstat
// prints for the same files.
package gate
