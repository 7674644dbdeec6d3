"""Self-test of the adapters, without the Go harness.

    OPENPROGRAM_SRC=/path/to/OpenProgram@c69b08e49 \\
    OPENPROGRAM_HEAD_SRC=/path/to/OpenProgram@f27be0ee2 \\
        python3 -m unittest discover -s adapters/openprogram -v

Each test feeds op scripts of corpus/ops/shapes/ through an adapter over the
protocol (docs/protocol.md) and compares the view after the last op with
the one corpus/expected/ records for the models: R (OPENPROGRAM_SRC) with
``model.Legacy``'s view (every message key but the adapter's ``unmodelled``
ones, ids renamed through the protocol's mapping), HEAD
(OPENPROGRAM_HEAD_SRC) with ``model.Target``'s chain. Where the original
matches the model the test says so (R_EXACT, HEAD_EXACT); where it differs,
the difference is a finding docs/openprogram.md explains (R_FINDINGS, HEAD_FINDINGS),
and the test holds the adapter to exactly those differences, so a change on
either side shows; a shape the original cannot write is refused at the op
docs/openprogram.md names (R_REFUSED, HEAD_REFUSED). Without the sources the tests
are skipped.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import protocol  # noqa: E402


class Client:
    """The harness's end of the protocol, enough for one script at a time."""

    def __init__(self, adapter: str, src: str):
        env = dict(os.environ, OPENPROGRAM_SRC=src)
        self.p = subprocess.Popen([sys.executable, os.path.join(HERE, adapter)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env, encoding="utf-8",
                                  stderr=None if os.environ.get("OPENPROGRAM_ADAPTER_STDERR") else subprocess.DEVNULL)
        self.hello = self.call({"type": "hello", "protocol": 1})

    def call(self, req: dict) -> dict:
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError(f"the adapter exited ({self.p.wait()})")
        return json.loads(line)

    def run(self, path: str):
        """Every op of a script; the view after the last, the id map and the
        refusals (seq, error)."""
        with open(path, encoding="utf-8") as f:
            text = f.read()
        lines = [ln for ln in text.splitlines()
                 if ln.strip() and not ln.lstrip().startswith("#")]
        kind, f = protocol.parse_op(lines[0])
        sid = f.get("id", "local_0000000000") if kind == "session" else "local_0000000000"
        d = tempfile.mkdtemp(prefix="op-adapter-test-")
        self.tmp = d
        r = self.call({"type": "session", "id": sid, "dir": os.path.join(d, sid), "writer": "off"})
        assert r.get("type") == "session", r
        ids, refused = {}, []
        for seq, line in enumerate(lines, 1):
            if seq == 1 and kind == "session":
                continue
            k, _ = protocol.parse_op(line)
            if k not in self.hello["ops"]:
                refused.append((seq, f"{k}: not declared"))
                continue
            r = self.call({"type": "op", "seq": seq, "op": line})
            if r.get("type") == "error":
                refused.append((seq, r.get("error", "")))
            ids.update(r.get("ids") or {})
        v = self.call({"type": "view", "config": self.hello["configs"][0]})
        return v.get("view"), ids, refused

    def close(self):
        try:
            self.call({"type": "bye"})
        except Exception:
            pass
        self.p.stdin.close()
        self.p.wait(timeout=10)
        self.p.stdout.close()
        shutil.rmtree(getattr(self, "tmp", ""), ignore_errors=True)


def renamer(ids: dict):
    rev = {v: k for k, v in ids.items()}
    pat = re.compile("|".join(re.escape(k) for k in sorted(rev, key=len, reverse=True))) if rev else None

    def ren(x):
        if isinstance(x, str):
            if x in rev:
                return rev[x]
            return pat.sub(lambda m: rev[m.group(0)], x) if pat else x
        if isinstance(x, list):
            return [ren(y) for y in x]
        if isinstance(x, dict):
            return {k: ren(v) for k, v in x.items()}
        return x
    return ren


def strip(x, keys):
    if isinstance(x, list):
        return [strip(y, keys) for y in x]
    if isinstance(x, dict):
        return {k: strip(v, keys) for k, v in x.items() if k not in keys}
    return x


def legacy_differences(model: dict, got: dict, unmodelled) -> list[str]:
    """Where the original's view differs from the model's: one line per view
    key and per message key, naming the row by the script's id."""
    out = []
    for k in ("head_id", "stored_head", "fallback_used"):
        if model.get(k) != got.get(k):
            out.append(f"{k}: model {model.get(k)!r}, original {got.get(k)!r}")
    for view in ("chain", "messages", "all", "branch"):
        mrows = strip(model.get(view) or [], unmodelled)
        grows = strip(got.get(view) or [], unmodelled)
        mids, gids = [m.get("id") for m in mrows], [g.get("id") for g in grows]
        if mids != gids:
            out.append(f"{view} rows: model {mids}, original {gids}")
            continue
        for m, g in zip(mrows, grows):
            for key in dict.fromkeys(list(m) + list(g)):
                if m.get(key, "<absent>") != g.get(key, "<absent>"):
                    out.append(f"{view} {m['id']}.{key}")
            if [k for k in m if k in g] != [k for k in g if k in m]:
                out.append(f"{view} {m['id']}: key order")
    return out


def target_projection(view: dict, ren) -> dict:
    chain = []
    for m in view.get("chain") or []:
        row = {"id": ren(m.get("id")),
               "kind": "card" if m.get("type") == "status" and m.get("display") == "runtime" else "row"}
        calls = [ren(c.get("tool_call_id")) for c in m.get("tool_calls") or []]
        if calls:
            row["calls"] = calls
        chain.append(row)
    return {"head_id": ren(view.get("head_id")) or "", "chain": chain}


SHAPES = os.path.join(ROOT, "corpus", "ops", "shapes")


def added_rows(diffs: list[str], path: str) -> list[str]:
    """The differences with the id of a row no op of the script names (one
    the original adds on its own, such as the turn a finished sub-agent
    task starts, whose id the original draws in a thread of its own) written
    as <added>: which id it draws depends on the order its threads run in."""
    with open(path, encoding="utf-8") as f:
        named = set(re.findall(r"\bid=(\S+)", f.read()))
    # and the ids the models give the rows the ops write without naming them
    shape = os.path.basename(path)[:-len(".ops")]
    named |= set(re.findall(r'"([0-9a-f]{12})(?:_reply)?"', json.dumps(expected(shape))))
    return [re.sub(r"(?<![0-9a-z])[0-9a-f]{12}(?![0-9a-z])", lambda m: m.group(0) if m.group(0) in named else "<added>", d) for d in diffs]
EXPECTED = os.path.join(ROOT, "corpus", "expected")


def expected(shape: str) -> dict:
    with open(os.path.join(EXPECTED, shape + ".json"), encoding="utf-8") as f:
        return json.load(f)

# The shapes where R's view is model.Legacy's, every key (but the adapter's
# unmodelled ones) and every row.
R_EXACT = ["01-plain-web-chat", "05-function-first-L2", "07-manual-variant-B", "08-manual-runs-L1",
           "09-head-on-manual-L3", "11-retry-mid", "13-edit", "14-checkout-branch", "21-legacy-adapter",
           "23-head-on-internal", "28-ambiguous-checkout-manual", "29-dispatcher-callerless"]

# Where R differs from model.Legacy on a shape it writes whole: the
# differences docs/openprogram.md explains.
R_FINDINGS = {
    # script-live-head (r-known.md): a live R reads the head its graph shim
    # moved in memory (meta.json holds none), so its branch is the script's
    # rows and its load falls back to them; the model reads the session as
    # stored, as R does only after a restart
    "24-script-session": [
        "fallback_used: model False, original True",
        "chain rows: model ['s00000000003'], original ['s00000000001', 's00000000002', 's00000000003']",
        "branch rows: model [], original ['s00000000001', 's00000000002', 's00000000003']",
    ],
}

WRITERS_REFUSE = {
    "04-agentic-function": [
        (6, "fn: the original writes an exec row only after its tool loop: a function called from it "
            "precedes the row it hangs off"),
        (12, "end: no function is running"),
    ],
    "12-retry-first": [(7, "retry: a turn is in progress")],
    "19-cancel-crash": [(9, "tool: the original's writers write no legacy tool edge")],
    "20-orphans": [(4, "tool: the original's writers write no legacy tool edge")],
}

# The older writers' forms the shapes hold, which R refuses at the op (the
# adapter's ROOTED and OBJECT_INPUT say why), and the ops of the turn the
# refused op would have started, refused with it.
ROOTED_REFUSED = ("rooted: R's dispatcher stores no user row called by ROOT (its direct write names the unbound "
                  "_shim; the NameError's fallback append_message stores it caller-less)")
OBJECT_REFUSED = "object: R stores a tool's input as the JSON text the model sent, not as an object"


def turn_refused(seq: int, kind: str, why: str, rest: list[str]) -> list[tuple]:
    """A turn refused at its first op (seq) and each op of it after."""
    then = {"reply": "no pending turn", "say": "no open reply", "tool": "no open reply", "done": "no open reply"}
    return [(seq, f"{kind}: {why}")] + [(seq + 1 + i, f"{k}: {then[k]}") for i, k in enumerate(rest)]


R_FORMS_REFUSED = {
    "02-dispatcher-chat": turn_refused(2, "dispatch", ROOTED_REFUSED, ["reply", "say", "done"])
    + turn_refused(6, "dispatch", ROOTED_REFUSED, ["reply", "say", "done"]),
    "03-tool-heavy": [(6, "tool: " + OBJECT_REFUSED), (7, "tool: " + OBJECT_REFUSED), (9, "tool: " + OBJECT_REFUSED)],
    "04-agentic-function": [(13, "tool: " + OBJECT_REFUSED)],
    "06-manual-variant-A": [(4, "tool: " + OBJECT_REFUSED)],
    "10-two-root-users-L4": turn_refused(4, "dispatch", ROOTED_REFUSED, ["reply", "say", "done"]),
    "15-spawn-inherit": [(5, "spawn: " + ROOTED_REFUSED)],
    "16-spawn-clean": [(5, "spawn: " + ROOTED_REFUSED)],
    "17-task-tool": [(4, "task: " + ROOTED_REFUSED), (5, "task: " + ROOTED_REFUSED)],
    "26-fork-root": turn_refused(5, "fork-root", ROOTED_REFUSED, ["reply", "done"]),
    "27-ambiguous-stale-browser": turn_refused(5, "dispatch", ROOTED_REFUSED, ["reply", "done"]),
    # the forms this adapter does not drive yet (docs/openprogram.md, "What is left")
    # after merge, undeclared
    "32-async-task-merge": [(9, "reply: no pending turn"), (10, "say: no open reply"), (11, "done: no open reply")],
    # after run, undeclared: the function's internals have no function
    "31-script-run": [(7, "exec: no function is running"), (8, "fn: no open reply"), (9, "exec: no function is running"),
                      (10, "end: no function is running"), (11, "end: no function is running")],
    "33-web-forms": turn_refused(2, "user", "form=function: this adapter does not drive a web turn in function "
                                 "form", ["reply", "say", "done"]),
    "34-async-task-turn": turn_refused(6, "spawn", "turn: this adapter does not drive a /spawn's sub-agent turn by "
                                       "the ops after it", ["reply", "tool", "say", "done", "reply", "say", "done"]),
}


def refused(undeclared: dict, forms: dict = {}) -> dict:
    """What an adapter refuses of each shape: the writers' refusals, the
    older forms' (forms: shape -> list) and, for each (seq, kind) of
    undeclared (shape -> list), "KIND: not declared"."""
    out = {shape: list(r) for shape, r in WRITERS_REFUSE.items()}
    for shape, r in forms.items():
        out[shape] = sorted(out.get(shape, []) + list(r))
    for shape, ops in undeclared.items():
        out[shape] = sorted(out.get(shape, []) + [(seq, f"{kind}: not declared") for seq, kind in ops])
    return dict(sorted(out.items()))


# The op kinds neither adapter declares, where the shapes hold them.
BOTH_UNDECLARED = {"12-retry-first": [(6, "error-standalone")], "18-errors": [(12, "error-standalone")],
                   "22-rewound": [(11, "rewind")], "25-flag-flip": [(7, "flag")]}
R_REFUSED = refused({**BOTH_UNDECLARED, "30-compaction": [(11, "compact")], "31-script-run": [(6, "run")],
                     "32-async-task-merge": [(8, "merge")]},
                    R_FORMS_REFUSED)

# The shapes where HEAD's chain is model.Target's.
HEAD_EXACT = ["01-plain-web-chat", "02-dispatcher-chat", "03-tool-heavy", "05-function-first-L2", "06-manual-variant-A", "08-manual-runs-L1", "09-head-on-manual-L3", "10-two-root-users-L4", "11-retry-mid", "13-edit", "14-checkout-branch", "15-spawn-inherit", "16-spawn-clean", "17-task-tool", "26-fork-root", "28-ambiguous-checkout-manual"]

# Where it is not: the chain HEAD shows, per shape (docs/openprogram.md, H1–H3).
def rows(*ids: str) -> list[dict]:
    """A projected chain of messages (target_projection), by id."""
    return [{"id": i, "kind": "row"} for i in ids]


HEAD_FINDINGS = {
    "07-manual-variant-B": {"head_id": "u3_reply", "chain": rows("u1", "u1_reply", "u3", "u3_reply")},
    "23-head-on-internal": {"head_id": "e00000000001", "chain": rows("e00000000001")},
    "27-ambiguous-stale-browser": {"head_id": "u3_reply", "chain": rows("u1", "u1_reply", "u3", "u3_reply")},
}

# HEAD drives the legacy rows (an adapter leaves out only what the original
# has no entry point for): its store refuses a legacy user or reply appended
# without a predecessor (the validity rows of docs/openprogram.md's HEAD
# table: a message lost), and writes the orphans and the script's rows.
HEAD_PREDECESSOR = "PredecessorMissingError: append without predecessor: …"
HEAD_REFUSED = refused({**BOTH_UNDECLARED},
                       {"21-legacy-adapter": [(seq, HEAD_PREDECESSOR) for seq in range(3, 8)]})


class Adapter:
    """What a test class of one adapter shares: the adapter (ADAPTER) started
    once over the source tree its environment variable (SRC_ENV) names, and
    the shapes it refuses (REFUSED)."""

    ADAPTER = SRC_ENV = ""
    REFUSED: dict = {}

    @classmethod
    def setUpClass(cls):
        cls.client = Client(cls.ADAPTER, os.environ[cls.SRC_ENV])

    @classmethod
    def tearDownClass(cls):
        cls.client.close()

    def test_refused(self):
        for shape, want in self.REFUSED.items():
            with self.subTest(shape=shape):
                _, _, got = self.client.run(os.path.join(SHAPES, shape + ".ops"))
                # a reason ending in "…" is the start of the original's own
                # error text (which names the node ids it drew)
                got = [[seq, why[:len(w) - 1] + "…" if w.endswith("…") and why.startswith(w[:-1]) else why]
                       for (seq, why), (_, w) in zip(got, want)] + [list(x) for x in got[len(want):]]
                self.assertEqual(got, [list(x) for x in want])


@unittest.skipUnless(os.environ.get("OPENPROGRAM_SRC"), "OPENPROGRAM_SRC names no source of the original at R")
class TestR(Adapter, unittest.TestCase):
    ADAPTER, SRC_ENV, REFUSED = "r.py", "OPENPROGRAM_SRC", R_REFUSED

    def test_handshake(self):
        h = self.client.hello
        self.assertEqual((h["protocol"], h["claims"], h["configs"]), (1, "legacy", ["off"]))
        self.assertIn("load", h["views"])

    def _differences(self, shape):
        path = os.path.join(SHAPES, shape + ".ops")
        view, ids, refused = self.client.run(path)
        self.assertEqual(refused, [])
        model = expected(shape)["legacy"]
        return added_rows(legacy_differences(model, renamer(ids)(view), set(self.client.hello.get("unmodelled", []))), path)

    def test_matches_model_legacy(self):
        for shape in R_EXACT:
            with self.subTest(shape=shape):
                self.assertEqual(self._differences(shape), [])

    def test_findings(self):
        for shape, known in R_FINDINGS.items():
            with self.subTest(shape=shape):
                self.assertEqual(self._differences(shape), known)


@unittest.skipUnless(os.environ.get("OPENPROGRAM_HEAD_SRC"),
                     "OPENPROGRAM_HEAD_SRC names no source of the original at HEAD")
class TestHEAD(Adapter, unittest.TestCase):
    ADAPTER, SRC_ENV, REFUSED = "head.py", "OPENPROGRAM_HEAD_SRC", HEAD_REFUSED

    def test_handshake(self):
        h = self.client.hello
        self.assertEqual((h["protocol"], h["claims"], h["configs"]), (1, "target", ["target"]))

    def _chain(self, shape):
        view, ids, refused = self.client.run(os.path.join(SHAPES, shape + ".ops"))
        self.assertEqual(refused, [])
        want = expected(shape)["target"]
        return want, target_projection(view, renamer(ids))

    def test_matches_model_target(self):
        for shape in HEAD_EXACT:
            with self.subTest(shape=shape):
                want, got = self._chain(shape)
                self.assertEqual(got, want)

    def test_findings(self):
        for shape, known in HEAD_FINDINGS.items():
            with self.subTest(shape=shape):
                want, got = self._chain(shape)
                self.assertNotEqual(got, want)
                self.assertEqual(got, known)


if __name__ == "__main__":
    unittest.main()
