// Package repo holds tests over the repository's own files: that every
// document the project names exists in it, that the continuous-fuzzing build
// names every fuzz target. It has no code of its own.
package repo
