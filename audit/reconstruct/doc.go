// Package reconstruct recovers, from a session directory alone, an op script
// whose writes reproduce it: the join between the users' data (files) and
// what the proof is about (op scripts).
//
// It reads the rows in seq order and, for each row or group of rows one op
// writes, infers the op from the row's shape (role, caller, the metadata keys
// the writers set, the ids the op language derives: `U_reply`, `R_t_C`,
// `S_k1`, …), with what the rows around it need first (the turn or function
// it belongs to ended, the browser on the row it records, the clock on its
// timestamp), and confirms each op by applying it to model.Legacy (through
// model.TargetRun) and comparing what it wrote with the stored rows. Every
// row has a bounded number of candidate ops, each decided from the row and
// the writer's state, so the work is linear in the rows; nothing searches
// over whole scripts.
//
// A session is reconstructed when the script's writes equal the stored files
// (exact), or equal them except in the values the op language does not carry
// (gaps.go: timing, token counts, process and channel names, a function's
// doc, meta.json's own keys), each gap named, and the implementation loads
// the replayed data to the same chain as the stored data under every config
// (the readers confirm that nothing they follow differs). It is ambiguous
// when another script explains the same data with another intended view
// (model.Target): a web turn typed in a stale browser, a checkout whose
// place the data does not fix (ambiguity.go). Else it is unexplained, with
// the first row no script explains and why: the op that would have written
// it and the field that differs.
//
// Where the original leaves the folder otherwise than its writes alone
// would (a run the model called numbered by its function subprocess, no
// meta.json before a turn ended), the reconstruction names the folder edits
// the project's cold check writes for it (checker/campaign) beside the
// script (folder.go, subprocess.go).
//
// It never writes to the directory it reads.
package reconstruct
