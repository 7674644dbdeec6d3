// Package harness is what the property tests, `sessiondag replay` and
// `sessiondag audit` share: comparing views section by section, projecting a
// loaded chain onto the intended conversation (model.Target's shape), and
// measuring how far a view is from it.
package harness
