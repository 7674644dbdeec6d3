#!/usr/bin/env python3
"""A legacy implementation of the session DAG, judged by sessiondag over its
implementation protocol (docs/protocol.md). One file, the standard library
only: the original before the rollout (every flag off, `claims: legacy`) for
a handful of op kinds, written from docs/protocol.md, ops/README.md and
docs/legacy.md.

    SESSIONDAG_IMPL='python3 examples/legacy-python/impl.py' go test ./props

SESSIONDAG_EXAMPLE_BUG=checkout-client plants a bug: a checkout moves the
head but leaves the browser's head where it was, so the next web turn
records the old one as its parent.
"""
import copy
import json
import os
import sys

OPS = ["user", "reply", "say", "think", "tool", "done", "checkout", "reload"]
WITHOUT = ["user-form", "tool-legacy"]  # variants of those kinds it does not write
# What the original stores for a tool result with no text (docs/legacy.md): the quoted str() of the result
# object, whose details are None for a tool that returned "" and {} for one that raised.
EMPTY_RESULT = "\"content=[TextContent(type='text', text='', text_signature=None, cache_control=None)] details="
VIEWS = ["load", "stored_head", "messages", "all", "branch"]
BUGS = ["checkout-client"]
BUG = os.environ.get("SESSIONDAG_EXAMPLE_BUG", "")


def parse_op(line):
    """One line of the op language: the kind, then key=value (values plain
    words or Go-quoted strings) and bare keys for booleans."""
    words, i = [], 0
    while i < len(line):
        while i < len(line) and line[i] in " \t":
            i += 1
        start = i
        while i < len(line) and line[i] not in " \t":
            if line[i] == '"':
                i += 1
                while line[i] != '"':
                    i += 2 if line[i] == "\\" else 1
            i += 1
        if i > start:
            words.append(line[start:i])
    fields = {}
    for w in words[1:]:
        key, eq, val = w.partition("=")
        fields[key] = unquote(val) if eq else True
    return words[0], fields


def unquote(v):
    """A Go-quoted string (strconv.Quote) or a plain word."""
    if not v.startswith('"'):
        return v
    out, i, s = bytearray(), 0, v[1:-1]
    simple = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, '"': 34, "'": 39}
    while i < len(s):
        c = s[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        e = s[i + 1]
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e == "x":
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        elif e in "uU":
            n = 4 if e == "u" else 8
            out += chr(int(s[i + 2:i + 2 + n], 16)).encode("utf-8", "surrogatepass")
            i += 2 + n
        else:  # octal
            out.append(int(s[i + 1:i + 4], 8))
            i += 4
    return out.decode("utf-8", "surrogateescape")


def dumps(v):
    """Python's json.dumps as the original calls it: ", " and ": ", non-ASCII kept."""
    return json.dumps(v, ensure_ascii=False)


class Session:
    """One session: its nodes and meta.json (on disk in dir), and the writer's
    state beside them (ops/README.md, "The writer's state")."""

    def __init__(self, sid, folder):
        self.sid, self.dir = sid, folder
        self.nodes, self.head, self.clock = [], "", 1782000000.0
        self.meta = {"id": sid, "agent_id": "main", "title": "generated", "source": "web",
                     "created_at": 1782000000.0, "updated_at": 1782000000.0, "head_id": "",
                     "status": "idle", "branches": {}, "merged_heads": []}
        self.client = None  # the browser's head CH
        self.pending, self.source, self.reply = "", "", ""
        self.blocks, self.calls = [], []
        if folder:
            os.makedirs(os.path.join(folder, "history"), exist_ok=True)
        self.write_meta()

    def node(self, nid):
        return next((n for n in self.nodes if n["id"] == nid), None)

    def save(self, path, value):
        if self.dir:
            tmp = os.path.join(self.dir, path + ".tmp")
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(dumps(value))
            os.replace(tmp, os.path.join(self.dir, path))

    def save_node(self, n):
        self.save(os.path.join("history", "%04d-%s-%s.json" % (n["seq"], n["role"][0], n["id"])), n)

    def append(self, nid, role, name, inp, output, called_by, metadata):
        if self.node(nid):
            return
        n = {"id": nid, "created_at": self.clock + 1.5 * len(self.nodes), "seq": len(self.nodes), "role": role,
             "name": name, "input": inp, "output": output, "called_by": called_by, "reads": [],
             "metadata": metadata}
        self.nodes.append(n)
        self.save_node(n)
        if called_by == "":
            self.head = nid  # a caller-less append moves the in-memory head

    def write_meta(self):
        self.meta["head_id"] = self.head
        self.save("meta.json", self.meta)

    def set_head(self, nid):
        self.head = nid
        self.write_meta()

    def restart(self):
        """A new worker: the store read back from disk, the browser's state kept."""
        if not self.dir:
            return
        folder = os.path.join(self.dir, "history")
        nodes = []
        for name in os.listdir(folder):
            if name.endswith(".json"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    nodes.append(json.load(f))
        self.nodes = sorted(nodes, key=lambda n: n["seq"])
        with open(os.path.join(self.dir, "meta.json"), encoding="utf-8") as f:
            self.meta = json.load(f)
        self.head = self.meta.get("head_id") or ""

    # ---- the ops (ops/README.md, flags off)

    def apply(self, kind, f):
        busy = self.pending or self.reply
        if kind in ("user", "checkout") and busy:
            raise ValueError("a turn is in progress")
        if kind in ("say", "think", "tool", "done") and not self.reply:
            raise ValueError("no open reply")
        if kind == "user":
            text = f.get("text", "").strip()  # the web chat strips a message and sends no empty one
            if self.node(f["id"]) or "form" in f or not text:
                raise ValueError("id %s exists, a form (without: user-form) or no text" % f["id"])
            self.append("ROOT", "user", "", None, "", "", {"display": "root"})
            meta = {"source": "web"}
            if self.client is not None:
                meta["parent_id"] = self.client
            self.append(f["id"], "user", "", None, text, "ROOT", meta)
            self.set_head(f["id"])
            self.client, self.pending, self.source = f["id"], f["id"], "web"
        elif kind == "reply":
            rid = self.pending + "_reply"
            if not self.pending or self.reply or self.node(rid):
                raise ValueError("no pending turn, or a reply is open")
            self.append(rid, "llm", "", None, "", self.pending, {"parent_id": self.pending, "source": self.source,
                                                                  "status": "running", "worker_id": "w1"})
            self.set_head(rid)
            self.reply = rid
        elif kind in ("say", "think"):
            self.blocks.append({"type": "text" if kind == "say" else "thinking", "text": f.get("text", "")})
        elif kind == "tool":
            self.tool(f)
        elif kind == "done":
            self.done()
        elif kind == "checkout":
            if not self.node(f["id"]):
                raise ValueError("no node %s" % f["id"])
            self.set_head(f["id"])
            if BUG != "checkout-client":
                self.client = f["id"]
        elif kind == "reload":
            # the load's head: one on a tool row its aggregation folds climbs to the reply
            if self.head:
                raw = self.messages()
                self.client = fixed_head(self.head, aggregate(raw), raw)
            else:
                self.client = None
        else:
            raise ValueError("%s ops are not written here" % kind)

    def tool(self, f):
        tid = self.reply + "_t_" + f["call"]
        if self.node(tid):
            raise ValueError("id %s exists" % tid)
        args, name, result, err = json.loads(f["args"]), f.get("name", ""), f.get("result", ""), "error" in f
        if not result:  # a result with no text is stored as the quoted str() of the tool's result object
            result = EMPTY_RESULT + ("{}" if err else "None") + '"'
        text = json.dumps(args)  # as the original's dispatcher: its defaults, non-ASCII as \uXXXX
        self.append(tid, "code", name, args if "object" in f else text, result, self.reply,
                    {"tool_call_id": f["call"], "is_error": err})
        self.calls.append({"id": f["call"], "tool_call_id": f["call"], "tool": name, "input": text,
                           "result": result, "is_error": err})
        self.blocks.append({"type": "tool", "tool": name, "tool_call_id": f["call"], "input": text,
                            "result": result, "is_error": err})

    def done(self):
        n = self.node(self.reply)
        n["output"] = "".join(b["text"] for b in self.blocks if b["type"] == "text").strip()
        m = n["metadata"]
        m.update({"status": "completed", "model": "model-x", "provider": "p", "token_model": "model-x"})
        if self.calls or self.blocks:  # the original writes extra only then
            m["extra"] = json.dumps({"tool_calls": self.calls, "blocks": self.blocks})  # ensure_ascii, as the original
        self.save_node(n)
        self.set_head(self.reply)
        if self.source == "web":
            self.client = self.reply
        self.pending, self.source, self.reply, self.blocks, self.calls = "", "", "", [], []

    # ---- the load (docs/legacy.md §2.3, §3.1–§3.5)

    def message(self, n):
        meta = copy.deepcopy(n["metadata"])
        meta.setdefault("status", "done")
        cb = n["called_by"]
        m = {"id": n["id"], "session_id": self.sid}
        if n["role"] == "user":
            m.update({"role": "user", "content": n["output"] or "", "parent_id": cb, "caller": cb,
                      "timestamp": n["created_at"]})
        elif n["role"] == "code":
            mcb, tcid = meta.pop("called_by", None), meta.pop("tool_call_id", None)
            use = {"name": n["name"], "arguments": n["input"] or {}, "called_by": mcb or ""}
            if tcid:
                use["tool_call_id"] = tcid
            out = n["output"]
            m.update({"role": "tool", "content": out if isinstance(out, str) else dumps(out), "parent_id": cb,
                      "caller": cb or mcb or "", "timestamp": n["created_at"], "function": n["name"],
                      "extra": dumps({"tool_use": use})})
        else:
            m.update({"role": meta.pop("role", None) or "assistant", "content": n["output"] or "", "parent_id": cb,
                      "caller": cb, "timestamp": n["created_at"], "token_model": n["name"]})
        m.update(meta)
        if n["role"] == "llm" and cb:
            m["called_by"] = cb
        return m

    def messages(self):
        return [self.message(n) for n in self.nodes if n["metadata"].get("display") != "root"]

    def branch(self, head):
        """get_branch over the nodes, from head (§3.2)."""
        by_id = {n["id"]: n for n in self.nodes}
        roots = [n for n in self.nodes if n["called_by"] in ("", "ROOT") and not n["metadata"].get("parent_id")
                 and n["id"] != "ROOT"]
        named = {n["metadata"]["parent_id"] for n in self.nodes if isinstance(n["metadata"].get("parent_id"), str)}
        walk, cur = [], head
        while cur and cur in by_id and by_id[cur] not in walk:
            n = by_id[cur]
            walk.append(n)
            p = n["metadata"].get("parent_id")
            if p:
                cur = p if isinstance(p, str) else ""
            elif n["called_by"] not in ("", "ROOT"):
                cur = n["called_by"]
            else:
                before = [r for r in roots if r["seq"] < n["seq"]]
                cur = before[-1]["id"] if before and before[-1]["id"] not in named else ""
        return [self.message(n) for n in reversed(walk) if n["metadata"].get("display") != "root"]

    def view(self):
        """handle_load_session steps 2-6 and 10 (§3.5): no row this example writes is an attach
        pointer, a runtime row or a top-level run, so steps 7-9 change nothing here."""
        raw = self.messages()
        everything = aggregate(raw)
        stored = self.meta["head_id"]
        head = fixed_head(stored, everything, raw)
        chain = linear_history(everything, head) if head else list(everything)
        branch, fallback = self.branch(stored), False
        if len(chain) < len(everything) and len(branch) > len(chain):
            chain, fallback = branch, True
        return {"session_id": self.sid, "stored_head": stored, "head_id": head, "fallback_used": fallback,
                "chain": [with_siblings(row, everything) for row in chain], "messages": raw, "all": everything,
                "branch": branch}


def fixed_head(stored, everything, raw):
    """The stored head, else the last row's; one that is no row of the list follows parent_id (§3.5 3-4)."""
    in_all = {m["id"] for m in everything}
    head = stored or (everything[-1]["id"] if everything else None)
    if head and head not in in_all:
        raw_by_id, cur = {m["id"]: m for m in raw}, head
        for _ in range(100):
            nxt = raw_by_id[cur]["parent_id"] if cur in raw_by_id else ""
            if not isinstance(nxt, str) or nxt in ("", cur):
                break
            cur = nxt
            if cur in in_all:
                return cur
    return head


def linear_history(msgs, head):
    by_id, rows, cur = {m["id"]: m for m in msgs}, [], head
    while isinstance(cur, str) and cur in by_id and by_id[cur] not in rows:
        rows.insert(0, by_id[cur])
        cur = by_id[cur]["parent_id"]
    return rows


def with_siblings(row, everything):
    """A copy of a chain row with its sibling keys (§3.5 step 10)."""
    row = dict(row)
    sibs = [m["id"] for m in everything if m["parent_id"] == row["parent_id"]]
    i = sibs.index(row["id"]) + 1 if row["id"] in sibs else 0
    row["sibling_index"], row["sibling_total"] = i, len(sibs) if i else 0
    many = i and len(sibs) > 1
    row["prev_sibling_id"] = deepest_leaf(everything, sibs[i - 2]) if many and i > 1 else None
    row["next_sibling_id"] = deepest_leaf(everything, sibs[i]) if many and i < len(sibs) else None
    return row


def deepest_leaf(msgs, start):
    seen, cur = {start}, start
    while True:
        kids = [m["id"] for m in msgs if m["parent_id"] == cur]
        if not kids:
            return cur
        if kids[-1] in seen:
            return start
        cur = kids[-1]
        seen.add(cur)


def aggregate(msgs):
    """aggregate_tool_messages (§3.4): tool rows folded into the assistant that called them."""
    parents = {m["id"]: i for i, m in enumerate(msgs) if m["role"] == "assistant" and m["id"]}
    folded, kept = {}, []
    for i, m in enumerate(msgs):
        if m["role"] == "tool":
            use = json.loads(m["extra"]).get("tool_use") or {}
            target = m.get("called_by") or m["parent_id"] or use.get("called_by")
            if isinstance(target, str) and target in parents:
                args = use.get("arguments")
                folded.setdefault(parents[target], []).append({
                    "tool_call_id": m["id"], "tool": m["function"] or "",
                    "input": "" if args is None else args if isinstance(args, str) else dumps(args),
                    "result": m["content"], "is_error": bool(m.get("is_error"))})
                continue
        kept.append(i)
    out = []
    for i in kept:
        m = msgs[i]
        if m["role"] == "assistant":
            blocks = json.loads(m["extra"]).get("blocks") if m.get("extra") else None
            if folded.get(i) or blocks:
                m = dict(m)
                if folded.get(i):
                    m["tool_calls"] = (m.get("tool_calls") or []) + folded[i]
                if blocks:
                    m["blocks"] = blocks
        out.append(m)
    return out


def main():
    if BUG and BUG not in BUGS:
        sys.exit("SESSIONDAG_EXAMPLE_BUG=%s: no such bug (%s)" % (BUG, ", ".join(BUGS)))
    session = None
    for line in sys.stdin.buffer:
        req = json.loads(line)
        kind = req.get("type")
        reply = {"type": kind}
        if kind == "hello":
            reply = hello()
        elif kind == "session":
            session = Session(req.get("id"), req.get("dir"))
        elif kind == "op":
            op, fields = parse_op(req.get("op"))
            try:
                session.apply(op, fields)
                reply = {"type": "op", "seq": req.get("seq")}
            except (ValueError, KeyError) as e:
                reply = {"type": "error", "seq": req.get("seq"), "error": str(e)}
        elif kind == "view":
            reply = {"type": "view", "view": session.view()}
        elif kind == "restart":
            session.restart()
        sys.stdout.buffer.write((json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n").encode())
        sys.stdout.flush()
        if kind == "bye":
            return


def hello():
    return {"type": "hello", "protocol": 1, "name": "legacy-python example", "claims": "legacy", "ops": OPS,
            "configs": ["off"], "views": VIEWS, "restart": True, "without": WITHOUT}


if __name__ == "__main__":
    main()
