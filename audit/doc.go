// Package audit is the rollout-readiness report: it walks the directories
// it is given for session directories (walk.go), loads each under every
// config of the rollout path, checks the invariants and says what each step
// changes — fix, regression or unchanged — with the rows it adds and
// removes (classify.go) and where each removed row went under the new
// config: still on the chain, on a branch a user reaches with the sibling
// arrows or the branch list, only at its own head, or nowhere (nav.go,
// place.go). The verdict rules are small functions of rules.go
// (docs/rollout.md §8): with an op script the intended view decides;
// without one a step is a regression when it loses a row or puts a user's
// message where no user finds it. It also says what the last config still
// does not show, and why (residual.go, cause.go), accepts reviewed
// exceptions (exceptions.go), is never ready on nothing or on part of its
// input, reports progress (progress.go), and renders a run as one
// self-contained HTML page of what needs a look (page.go). Summaries of
// disjoint shards merge (totals.go). It never writes to what it reads.
package audit
