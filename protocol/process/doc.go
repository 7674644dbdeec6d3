// Package process is the harness's side of the implementation protocol
// (docs/protocol.md): it starts an implementation under test as a process
// (`sh -c CMD`), shakes hands with it, and drives sessions through it as a
// protocol.Impl — one request per op, views when a check asks for them,
// restarts — so that the checks judge any implementation that speaks the
// protocol as they judge the one in this repository.
//
// An implementation runs in a session of its own, and it ends with what
// it started on every path — bye, a deadline, a broken reply, the harness
// stopped (EndAll) — its process group and, on Linux, every process left
// in its session killed; the directories made for its sessions are
// removed.
//
// Every request has a deadline. An implementation that does not answer in
// time is killed (with what it started); one that exits, closes its
// output or writes what is not the reply is stopped too: each is a
// protocol.Broken naming the request and the op it was for, with the last
// lines of its stderr, which the harness reports as a finding. The harness
// never waits past a deadline.
//
// The implementation may mint its own ids: the ids it reports for each op
// rename its ids back to the script's in every view before any comparison,
// inside the JSON text a view carries (a tool row's extra) too.
//
// A Pool keeps processes between sessions (a property's thousand cases do
// not start a thousand processes) and starts another for each session that
// runs beside the others.
package process
