// Package harness runs the implementation beside the reference models and
// decides what counts as a failure. It is what the property tests,
// `sessiondag replay`, `hunt`, `exhaust` and `audit` share:
//
//   - Session: one op script applied to the implementation's writers,
//     model.Legacy and model.Target side by side, op by op (the one loop);
//   - Check: a property checked after every op (P1 legacy fidelity, P2
//     target correctness, P3 rollout safety, …), returning a Finding;
//   - the kinds of data a check holds on (Data: where the writers' flags
//     start, how they change — Flips, read from flag and writer ops — and
//     whether the intent must be in the data);
//   - the verdict of a rollout step (ViewGap, IsFix) and how a loaded chain
//     is projected onto the intended conversation;
//   - Cold: the cold load of a damaged directory against the model's reader;
//   - Reduce: shrinking a failing script, following how ops nest and which
//     ids they name;
//   - Replay: a script file with its `#!` directives, reproducing exactly
//     the check that saved it.
package harness
