"""The implementation protocol (docs/protocol.md) for an adapter of the original.

An adapter is two processes. The **front** (this module's ``serve``) speaks
the protocol on stdin/stdout: the handshake, sessions, ops, views, restart.
It owns what must outlive the original's process: the map from the
script's ids to the ids the original minted, the op clock, and the session
directories. The **worker** (``work``) is one process of the original: it
imports the original's source with the stand-ins of standins.py and runs
each op through the original's own writers (a driver module per commit:
r.py, head.py). A ``crash`` op ends the worker at once, as a killed server
ends; ``restart`` ends it too; the next request starts a new worker over
the same files, which is what a restarted server is.

The front translates the script's ids to the original's before an op
reaches the worker, so the worker sees only the original's ids, and reports
for each op the ids it minted under the names ops/README.md gives
them.
"""
from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

PROTOCOL = 1

# Fields of an op that name an existing node (ops/README.md): the
# front renames them to the original's ids. Values outside the map are
# passed on as they are (a parent that dangles, "none", "null").
REF_FIELDS = {
    "dispatch": ("parent",),
    "retry": ("of",),
    "edit": ("of",),
    "checkout": ("id",),
    "rewind": ("id",),
    "legacy-user": ("parent",),
    "legacy-reply": ("parent",),
    "orphan": ("caller",),
}

# ---------------------------------------------------------------------------
# The op language: one line, the kind, then key=value (values bare words or
# Go-quoted strings), booleans as a bare key, `#` starting a comment.
# ---------------------------------------------------------------------------


class OpError(Exception):
    pass


def _tokens(line: str) -> list[str]:
    toks, i, n = [], 0, len(line)
    while i < n:
        while i < n and line[i] in " \t\r":
            i += 1
        if i >= n or line[i] == "#":
            break
        start = i
        while i < n and line[i] not in " \t":
            if line[i] == '"':
                i += 1
                while i < n and line[i] != '"':
                    i += 2 if line[i] == "\\" else 1
                if i >= n:
                    raise OpError("unterminated quoted string")
            i += 1
        toks.append(line[start:i])
    return toks


_SIMPLE_ESC = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
               "\\": "\\", '"': '"', "'": "'"}


def go_unquote(s: str) -> str:
    """Go's strconv.Unquote for a double-quoted string."""
    if len(s) < 2 or s[0] != '"' or s[-1] != '"':
        raise OpError(f"not a quoted string: {s}")
    body, out, i = s[1:-1], bytearray(), 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        e = body[i + 1]
        if e in _SIMPLE_ESC:
            out += _SIMPLE_ESC[e].encode()
            i += 2
        elif e == "x":
            out.append(int(body[i + 2:i + 4], 16))
            i += 4
        elif e in "uU":
            w = 4 if e == "u" else 8
            out += chr(int(body[i + 2:i + 2 + w], 16)).encode()
            i += 2 + w
        elif e in "01234567":
            out.append(int(body[i + 1:i + 4], 8))
            i += 4
        else:
            raise OpError(f"bad escape \\{e}")
    return out.decode("utf-8", errors="surrogateescape")


def parse_op(line: str) -> tuple[str, dict]:
    toks = _tokens(line)
    if not toks:
        raise OpError("empty op")
    kind, fields = toks[0], {}
    for tok in toks[1:]:
        key, eq, val = tok.partition("=")
        if not eq:
            fields[key] = True
        elif val.startswith('"'):
            fields[key] = go_unquote(val)
        else:
            fields[key] = val
    return kind, fields


# ---------------------------------------------------------------------------
# Front
# ---------------------------------------------------------------------------


class WorkerGone(Exception):
    pass


class Worker:
    """One process of the original, driven over a pipe (JSON lines)."""

    def __init__(self, script: str, home: str, env_extra: dict, deadline: float):
        env = dict(os.environ)
        env.update(env_extra)
        env["HOME"] = home
        env["PYTHONHASHSEED"] = "0"
        # The original's bytecode is cached outside its source tree, so a
        # new worker (after a crash or a restart) starts in a second, not
        # in the seconds it takes to compile every module again.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.environ.get("OPENPROGRAM_ADAPTER_PYCACHE") or os.path.join(
            tempfile.gettempdir(), f"op-adapter-pycache-{os.getuid()}")
        self.deadline = deadline
        self.p = subprocess.Popen(
            [sys.executable, script, "--worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=None, env=env, text=True, encoding="utf-8", bufsize=1)
        self.buf = ""

    def call(self, req: dict, deadline: float | None = None) -> dict:
        self.send(req)
        return self.recv(req, deadline)

    def send(self, req: dict) -> None:
        try:
            self.p.stdin.write(json.dumps(req, ensure_ascii=False) + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise WorkerGone(f"the original's process exited (status {self.p.poll()})")

    def recv(self, req: dict, deadline: float | None = None) -> dict:
        end = time.monotonic() + (deadline or self.deadline)
        fd = self.p.stdout.fileno()
        while "\n" not in self.buf:
            left = end - time.monotonic()
            if left <= 0:
                self.kill()
                raise WorkerGone(f"the original's process did not answer {req.get('cmd')} "
                                 f"within {deadline or self.deadline:g}s")
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                code = self.p.wait()
                raise WorkerGone(f"the original's process exited (status {code})")
            self.buf += chunk.decode("utf-8")
        line, _, self.buf = self.buf.partition("\n")
        return json.loads(line)

    def alive(self) -> bool:
        return self.p.poll() is None

    def kill(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
        try:
            self.p.wait(timeout=5)
        except Exception:
            pass


class Front:
    """Speaks docs/protocol.md on stdin/stdout for one adapter."""

    def __init__(self, script: str, declaration: dict):
        self.script = script
        self.decl = declaration
        src = os.environ.get("OPENPROGRAM_SRC", "")
        if not src or not os.path.isdir(os.path.join(src, "openprogram")):
            sys.exit(f"{os.path.basename(script)}: OPENPROGRAM_SRC must name the original's source "
                     f"tree (a directory holding openprogram/), got {src!r}")
        self.src = os.path.abspath(src)
        self.home = tempfile.mkdtemp(prefix="op-adapter-home-")
        self.deadline = float(os.environ.get("OPENPROGRAM_ADAPTER_DEADLINE", "9"))
        self.worker: Worker | None = None
        # After a restart the views come from a second process of the
        # original that has read the session from disk only (the "cold"
        # one), beside the live one, whose writers go on at the next op: a
        # server restarted in the middle of a turn would lose the turn, which
        # is the crash op, not a restart. A spare process is kept started
        # for the next restart.
        self.cold: Worker | None = None
        self.spare: Worker | None = None
        self.session: dict | None = None
        self.sessions_served = 0
        self.worker_sids: set[str] = set()

    # worker lifecycle -----------------------------------------------------
    def _worker(self) -> Worker:
        if self.worker is None or not self.worker.alive():
            self.worker = self._new_worker()
            self.sessions_served, self.worker_sids = 0, set()
            r = self.worker.call({"cmd": "start"}, deadline=max(self.deadline, 30))
            if not r.get("ok"):
                self._end_worker()
                raise WorkerGone(f"the original did not load: {r.get('error')}")
            if self.session is not None:
                s = self.session
                self.worker.call({"cmd": "session", "id": s["id"], "dir": s["dir"], "resume": True})
                self.worker_sids.add(s["id"])
        return self.worker

    def _end_worker(self) -> None:
        self._end_cold()
        if self.worker is not None:
            self.worker.kill()
            self.worker = None

    def _new_worker(self) -> Worker:
        return Worker(self.script, self.home, {"OPENPROGRAM_SRC": self.src}, self.deadline)

    def _start_spare(self) -> None:
        if self.spare is None or not self.spare.alive():
            self.spare = self._new_worker()
            self.spare.send({"cmd": "start"})

    def _end_cold(self, keep_spare: bool = True) -> None:
        if self.cold is not None:
            self.cold.kill()
            self.cold = None
            if keep_spare:
                self._start_spare()  # starts while the live one works

    # requests ---------------------------------------------------------------
    def hello(self, req):
        if req.get("protocol") != PROTOCOL:
            return {"type": "error", "error": f"protocol {req.get('protocol')!r} not spoken (1 is)"}
        self._worker()  # start the original now: the first op should not pay for it
        return {"type": "hello", "protocol": PROTOCOL, **self.decl}

    def session_req(self, req):
        sid, d = req.get("id"), req.get("dir")
        if not sid or not d:
            return {"type": "error", "error": "session needs id and dir"}
        # A worker whose last session left a turn open, or that has served
        # many sessions, or a session of the same id before, is replaced: the
        # original's threads of a turn that never ended stay blocked in it, and
        # it keeps a session's state in memory by the session's id in more
        # places than an adapter could name.
        if self.worker is not None and (self.sessions_served >= 64 or sid in self.worker_sids
                                        or self.worker.call({"cmd": "busy"}).get("busy")):
            self._end_worker()
        self._end_cold()
        self.session = None  # a worker started now has nothing to resume
        worker = self._worker()
        self.session = {"id": sid, "dir": os.path.abspath(d), "ids": {}, "t": 1782000000.0, "k": 0}
        self.sessions_served += 1
        self.worker_sids.add(sid)
        r = worker.call({"cmd": "session", "id": sid, "dir": self.session["dir"]})
        if not r.get("ok"):
            return {"type": "error", "error": r.get("error", "session refused")}
        out = {"type": "session"}
        if r.get("dir") and r["dir"] != self.session["dir"]:
            out["dir"] = r["dir"]
        return out

    def op(self, req):
        seq = req.get("seq")
        s = self.session
        if s is None:
            return {"type": "error", "seq": seq, "error": "no session"}
        try:
            kind, fields = parse_op(req.get("op", ""))
        except OpError as e:
            return {"type": "error", "seq": seq, "error": f"op {req.get('op')!r}: {e}"}
        if kind == "session":
            return {"type": "op", "seq": seq, "ids": {}}
        if kind == "clock":
            try:
                s["t"], s["k"] = float(fields.get("at", "")), 0
            except ValueError:
                return {"type": "error", "seq": seq, "error": f"clock at={fields.get('at')!r} is not a number"}
            return {"type": "op", "seq": seq, "ids": {}}
        self._end_cold()
        for f in REF_FIELDS.get(kind, ()):
            v = fields.get(f)
            if isinstance(v, str) and v in s["ids"]:
                fields[f] = s["ids"][v]
        try:
            r = self._worker().call({"cmd": "op", "seq": seq, "kind": kind, "fields": fields,
                                     "clock": [s["t"], s["k"]]})
        except WorkerGone as e:
            if kind == "crash":
                self.worker = None
                return {"type": "op", "seq": seq, "ids": {}}
            self.worker = None
            return {"type": "error", "seq": seq, "error": f"{kind}: {e}"}
        if kind == "crash":
            self._end_worker()
        s["k"] = r.get("k", s["k"])
        if not r.get("ok"):
            return {"type": "error", "seq": seq, "error": r.get("error", "refused")}
        ids = r.get("ids") or {}
        s["ids"].update(ids)
        return {"type": "op", "seq": seq, "ids": ids}

    def view(self, req):
        if self.session is None:
            return {"type": "error", "error": "no session"}
        try:
            w = self.cold or self._worker()
            r = w.call({"cmd": "view", "config": req.get("config", "off")})
        except WorkerGone as e:
            if self.cold is not None:
                self.cold = None
            else:
                self.worker = None
            return {"type": "error", "error": f"view: {e}"}
        if not r.get("ok"):
            return {"type": "error", "error": r.get("error", "no view")}
        return {"type": "view", "view": r["view"]}

    def restart(self, req):
        if self.session is None:
            return {"type": "error", "error": "no session"}
        self._end_cold(keep_spare=False)
        if self.worker is None or not self.worker.alive():
            # nothing lives (a crash ended it): the next request starts the
            # one that goes on, from disk
            self.worker = None
            return {"type": "restart"}
        self._start_spare()
        cold, self.spare = self.spare, None
        try:
            r = cold.recv({"cmd": "start"}, deadline=max(self.deadline, 30))
            if not r.get("ok"):
                raise WorkerGone(f"the original did not load: {r.get('error')}")
            s = self.session
            r = cold.call({"cmd": "session", "id": s["id"], "dir": s["dir"], "resume": True, "cold": True})
            if not r.get("ok"):
                raise WorkerGone(r.get("error", "session refused"))
        except WorkerGone as e:
            cold.kill()
            return {"type": "error", "error": f"restart: {e}"}
        self.cold = cold
        return {"type": "restart"}

    def serve(self) -> int:
        out = sys.stdout
        handlers = {"hello": self.hello, "session": self.session_req, "op": self.op,
                    "view": self.view, "restart": self.restart}
        try:
            for line in sys.stdin:
                line = line.strip()
                if not line:
                    continue
                try:
                    req = json.loads(line)
                except json.JSONDecodeError as e:
                    resp = {"type": "error", "error": f"request is not JSON: {e}"}
                else:
                    t = req.get("type")
                    if t == "bye":
                        out.write(json.dumps({"type": "bye"}) + "\n")
                        out.flush()
                        break
                    h = handlers.get(t)
                    if h is None:
                        resp = {"type": "error", "error": f"unknown request type {t!r}"}
                    else:
                        try:
                            resp = h(req)
                        except WorkerGone as e:
                            self.worker = None
                            resp = {"type": "error", "error": str(e)}
                        if "seq" in req and resp.get("type") == "error":
                            resp.setdefault("seq", req["seq"])
                out.write(json.dumps(resp, ensure_ascii=False) + "\n")
                out.flush()
        finally:
            self._end_cold(keep_spare=False)
            self._end_worker()
            if self.spare is not None:
                self.spare.kill()
            shutil.rmtree(self.home, ignore_errors=True)
        return 0


# ---------------------------------------------------------------------------
# Worker
# ---------------------------------------------------------------------------


def work(make_driver) -> int:
    """The worker's loop: requests on stdin, replies on a private copy of
    stdout (the original's own prints go to stderr)."""
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    driver = None
    for line in sys.stdin:
        req = json.loads(line)
        cmd = req.get("cmd")
        try:
            if cmd == "start":
                driver = make_driver(os.environ["OPENPROGRAM_SRC"])
                resp = {"ok": True}
            elif cmd == "busy":
                resp = {"ok": True, "busy": driver.busy()}
            elif cmd == "session":
                where = driver.session(req["id"], req["dir"], resume=req.get("resume", False))
                resp = {"ok": True, "dir": where or req["dir"]}
            elif cmd == "op":
                if req["kind"] == "crash":
                    driver.crash()  # ends the process
                resp = driver.op(req["seq"], req["kind"], req["fields"], req["clock"])
            elif cmd == "view":
                resp = {"ok": True, "view": driver.view(req.get("config", "off"))}
            else:
                resp = {"ok": False, "error": f"unknown worker command {cmd!r}"}
        except Exception as e:  # a failure of the adapter or the original: the op's finding
            import traceback
            traceback.print_exc()
            resp = {"ok": False, "error": f"{type(e).__name__}: {e}"}
            if driver is not None:
                resp["k"] = driver.clock_k()
        proto.write(json.dumps(resp, ensure_ascii=False, default=str) + "\n")
        proto.flush()
    return 0


def main(script: str, declaration: dict, make_driver) -> int:
    if "--worker" in sys.argv[1:]:
        return work(make_driver)
    return Front(script, declaration).serve()
