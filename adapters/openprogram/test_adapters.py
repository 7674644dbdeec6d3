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
differs from the model, the difference is a finding, listed in FINDINGS
with what it is; the test holds the adapter to exactly those differences,
so a change on either side shows. Without the sources the tests are skipped.
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
                                  stdout=subprocess.PIPE, text=True, env=env, encoding="utf-8")
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
        lines = [ln for ln in open(path, encoding="utf-8").read().splitlines()
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
EXPECTED = os.path.join(ROOT, "corpus", "expected")

# What R does that model.Legacy does not, per shape (docs: adapters/openprogram/README.md,
# "What R differs in"). Each entry is a difference legacy_differences reports.
R_FINDINGS = {
    "01-plain-web-chat": [],
    "02-dispatcher-chat": [],
    "03-tool-heavy": [],
    "05-function-first-L2": [],
    "06-manual-variant-A": [],
    "10-two-root-users-L4": [],
    "11-retry-mid": [],
    "13-edit": [],
    "14-checkout-branch": [],
    "15-spawn-inherit": [],
    "16-spawn-clean": [],
    "17-task-tool": [],
    "24-script-session": [],
    "26-fork-root": [],
    "27-ambiguous-stale-browser": [],
    "07-manual-variant-B": [],
    "08-manual-runs-L1": [],
    "09-head-on-manual-L3": [],
    "21-legacy-adapter": [],
    "28-ambiguous-checkout-manual": [],
}

# Where HEAD's chain is not model.Target's, per shape.
HEAD_FINDINGS = {
    "01-plain-web-chat": None,
    "02-dispatcher-chat": None,
    "03-tool-heavy": None,
    "05-function-first-L2": None,
    "06-manual-variant-A": None,
    "10-two-root-users-L4": None,
    "11-retry-mid": None,
    "13-edit": None,
    "14-checkout-branch": None,
    "15-spawn-inherit": None,
    "16-spawn-clean": None,
    "26-fork-root": None,
    "07-manual-variant-B": None,
    "17-task-tool": None,
    "23-head-on-internal": None,
    "27-ambiguous-stale-browser": None,
}


@unittest.skipUnless(os.environ.get("OPENPROGRAM_SRC"), "OPENPROGRAM_SRC names no source of the original at R")
class TestR(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = Client("r.py", os.environ["OPENPROGRAM_SRC"])

    @classmethod
    def tearDownClass(cls):
        cls.client.close()

    def test_handshake(self):
        h = self.client.hello
        self.assertEqual((h["protocol"], h["claims"], h["configs"]), (1, "legacy", ["off"]))
        self.assertIn("load", h["views"])

    def test_shapes(self):
        for shape, known in R_FINDINGS.items():
            with self.subTest(shape=shape):
                view, ids, refused = self.client.run(os.path.join(SHAPES, shape + ".ops"))
                self.assertEqual(refused, [])
                model = json.load(open(os.path.join(EXPECTED, shape + ".json"), encoding="utf-8"))["legacy"]
                got = renamer(ids)(view)
                self.assertEqual(legacy_differences(model, got, set(self.client.hello.get("unmodelled", []))),
                                 known)


@unittest.skipUnless(os.environ.get("OPENPROGRAM_HEAD_SRC"),
                     "OPENPROGRAM_HEAD_SRC names no source of the original at HEAD")
class TestHEAD(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = Client("head.py", os.environ["OPENPROGRAM_HEAD_SRC"])

    @classmethod
    def tearDownClass(cls):
        cls.client.close()

    def test_handshake(self):
        h = self.client.hello
        self.assertEqual((h["protocol"], h["claims"], h["configs"]), (1, "target", ["target"]))

    def test_shapes(self):
        for shape, known in HEAD_FINDINGS.items():
            with self.subTest(shape=shape):
                view, ids, refused = self.client.run(os.path.join(SHAPES, shape + ".ops"))
                self.assertEqual(refused, [])
                want = json.load(open(os.path.join(EXPECTED, shape + ".json"), encoding="utf-8"))["target"]
                got = target_projection(view, renamer(ids))
                if known is None:
                    self.assertEqual(got, want)
                else:
                    self.assertEqual((want, got), known)


if __name__ == "__main__":
    unittest.main()
