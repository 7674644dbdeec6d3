"""The implementation protocol (docs/protocol.md) for an adapter of the original.

The **front** (this module's ``serve``) speaks the protocol on stdin/stdout:
the handshake, sessions, ops, views, restart. It imports the original's
source once, with the stand-ins of standins.py in place (a driver module
per commit: r.py, head.py), and is from then on the warm parent of every
**worker**: a fork of it that runs a session's ops through the original's
own writers and answers the views (``work``). A session gets a new fork;
a ``crash`` op ends the fork at once, as a killed server ends; ``restart``
forks another that reads the session from disk. Forking instead of starting
an interpreter makes a worker cost milliseconds, not the seconds an import
of the original takes, and every worker starts from the same state: the
front never runs an op, and nothing the original starts (threads) runs
before an op does, in the fork.

The front owns what must outlive a worker: the map from the script's ids
to the ids the original minted, the op clock, and the session directories.
It translates the script's ids to the original's before an op reaches the
worker, so the worker sees only the original's ids, and reports for each op
the ids it minted under the names ops/README.md gives them.
"""
from __future__ import annotations

import gc
import json
import os
import select
import shutil
import signal
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
    "drop": ("id",),
    "legacy-user": ("parent",),
    "legacy-reply": ("parent",),
    "orphan": ("caller",),
    "message": ("parent", "caller"),
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
# Workers: forks of the warm front
# ---------------------------------------------------------------------------


class WorkerGone(Exception):
    pass


class Worker:
    """One fork of the warm front, driven over a pair of pipes (JSON lines)."""

    def __init__(self, pid: int, rfd: int, wfd: int, deadline: float):
        self.pid, self.rfd, self.wfd = pid, rfd, wfd
        self.deadline = deadline
        self.status: int | None = None
        self.buf = b""
        self.where: str | None = None  # where the original keeps the session's files

    def call(self, req: dict, deadline: float | None = None) -> dict:
        self.send(req)
        return json.loads(self.recv_line(req, deadline))

    def send(self, req: dict) -> None:
        data = (json.dumps(req, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            while data:
                data = data[os.write(self.wfd, data):]
        except OSError:
            raise WorkerGone(f"the original's process exited ({self._status()})")

    def recv_line(self, req: dict, deadline: float | None = None) -> bytes:
        end = time.monotonic() + (deadline or self.deadline)
        while b"\n" not in self.buf:
            left = end - time.monotonic()
            if left <= 0:
                self.kill()
                raise WorkerGone(f"the original's process did not answer {req.get('cmd')} "
                                 f"within {deadline or self.deadline:g}s")
            r, _, _ = select.select([self.rfd], [], [], left)
            if not r:
                continue
            chunk = os.read(self.rfd, 1 << 16)
            if not chunk:
                self.kill()
                raise WorkerGone(f"the original's process exited ({self._status()})")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def _status(self) -> str:
        if self.status is None:
            return "still running"
        if self.status == -1:
            return "killed"
        if os.WIFSIGNALED(self.status):
            return f"signal {os.WTERMSIG(self.status)}"
        return f"status {os.waitstatus_to_exitcode(self.status)}"

    def alive(self) -> bool:
        if self.status is None:
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = st
        return self.status is None

    def close_fds(self) -> None:
        for fd in (self.rfd, self.wfd):
            try:
                os.close(fd)
            except OSError:
                pass
        self.rfd = self.wfd = -1

    def kill(self) -> None:
        """End the worker; it is reaped later (``reap``): an ending process
        of the original takes the kernel a while to take down."""
        if self.alive():
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.status = -1
            _dying.append(self.pid)
        self.close_fds()


_dying: list[int] = []  # workers killed and not yet reaped


def reap(block: bool = False) -> None:
    for pid in list(_dying):
        try:
            done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _dying.remove(pid)


# ---------------------------------------------------------------------------
# Front
# ---------------------------------------------------------------------------


# A worker's reply to a view is the protocol's reply, which the front passes on.
VIEW_PREFIX = b'{"type": "view", '


class Raw:
    """A reply line to pass on as it is."""

    def __init__(self, line: bytes):
        self.line = line


class Front:
    """Speaks docs/protocol.md on stdin/stdout for one adapter.

    The front imports the original once (the driver: the original's modules
    with the stand-ins in place) and then never runs an op itself: it is the
    warm parent every worker is forked from. A session gets a fresh fork;
    a crash ends the fork, and the next request forks another that reads the
    session from disk; a restart forks one that reads the session from disk
    (the "cold" one) and serves the views until the next op, beside the live
    one, whose writers go on at that op (a server restarted in the middle of
    a turn would lose the turn, which is the crash op, not a restart).
    Nothing the original started runs in the front: its threads are started
    by ops, in the forks."""

    def __init__(self, script: str, declaration: dict, make_driver):
        self.script = script
        self.decl = declaration
        self.make_driver = make_driver
        src = os.environ.get("OPENPROGRAM_SRC", "")
        if not src or not os.path.isdir(os.path.join(src, "openprogram")):
            sys.exit(f"{os.path.basename(script)}: OPENPROGRAM_SRC must name the original's source "
                     f"tree (a directory holding openprogram/), got {src!r}")
        self.src = os.path.abspath(src)
        os.environ["OPENPROGRAM_SRC"] = self.src
        self.home = tempfile.mkdtemp(prefix="op-adapter-home-")
        os.environ["HOME"] = self.home  # before the original is imported: it reads its paths from it
        self.template = self.home + ".template"
        self.deadline = float(os.environ.get("OPENPROGRAM_ADAPTER_DEADLINE", "9"))
        self.driver = None
        self.worker: Worker | None = None
        self.cold: Worker | None = None
        self.session: dict | None = None

    # the warm parent --------------------------------------------------------
    def _warm(self):
        if self.driver is None:
            self.driver = self.make_driver(self.src)
            self._warm_up()
            # What the original wrote to its home, but sessions, is what every
            # session starts with (sessions never see each other's files: the
            # registry of sessions is left out; the default agent it seeded,
            # its projects, usage and memory are an installation's).
            shutil.rmtree(self.template, ignore_errors=True)
            state = os.path.abspath(self._state())
            shutil.copytree(self.home, self.template, symlinks=True,
                            ignore=lambda d, names: ["sessions"] if os.path.abspath(d) == state else [])
            # The objects of the warm parent are never collected in a fork:
            # a collection would touch, and so copy, every page of them.
            gc.collect()
            gc.freeze()
        return self.driver

    def _state(self) -> str:
        return os.path.join(self.home, ".openprogram")

    def _warm_up(self) -> None:
        """Run the driver's warm-up scripts in a fork and import, here, the
        modules of the original they imported (the original imports many of
        them inside functions, on first use): a fork then finds them
        imported instead of importing them again, each time."""
        scripts = getattr(self.driver, "WARMUP", ())
        if not scripts or os.environ.get("OPENPROGRAM_ADAPTER_WARMUP") == "0":
            return
        before = set(sys.modules)
        r, w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 70
            try:
                os.close(r)
                null = os.open(os.devnull, os.O_RDWR)
                os.dup2(null, 0)
                if not os.environ.get("OPENPROGRAM_ADAPTER_DEBUG"):
                    os.dup2(null, 2)  # what the original prints while warming up is no finding's
                os.dup2(2, 1)
                sys.stdout = sys.stderr
                warm_up(self.driver, scripts, os.path.join(self.home, "warm-up"))
                names = [n for n in sys.modules if n not in before]
                with os.fdopen(w, "w", encoding="utf-8") as f:
                    json.dump(names, f)
                code = 0
            except BaseException:
                import traceback
                traceback.print_exc()
            finally:
                os._exit(code)
        os.close(w)
        with os.fdopen(r, "r", encoding="utf-8") as f:
            data = f.read()
        os.waitpid(pid, 0)
        shutil.rmtree(os.path.join(self._state(), "sessions"), ignore_errors=True)
        shutil.rmtree(os.path.join(self.home, "warm-up"), ignore_errors=True)
        try:
            names = json.loads(data) if data else []
        except json.JSONDecodeError:
            names = []
        import importlib
        for name in names:
            if name in sys.modules or not name.startswith("openprogram"):
                continue
            try:
                importlib.import_module(name)
            except Exception:  # a module that imports only where it was first used
                pass

    def _fresh_home(self) -> None:
        for name in sorted(os.listdir(self.home)):
            p = os.path.join(self.home, name)
            if os.path.isdir(p) and not os.path.islink(p):
                shutil.rmtree(p)
            else:
                os.unlink(p)
        shutil.copytree(self.template, self.home, symlinks=True, dirs_exist_ok=True)

    def _fork(self, first: dict) -> Worker:
        """A worker forked from the warm parent, its first request answered."""
        driver = self._warm()
        r1, w1 = os.pipe()
        r2, w2 = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the worker
            code = 70
            try:
                os.close(w1)
                os.close(r2)
                for w in (self.worker, self.cold):
                    if w is not None:
                        w.close_fds()
                code = work(driver, r1, w2)
            except BaseException:
                import traceback
                traceback.print_exc()
            finally:
                os._exit(code)
        os.close(r1)
        os.close(w2)
        w = Worker(pid, r2, w1, self.deadline)
        r = w.call(first)
        if not r.get("ok"):
            w.kill()
            raise WorkerGone(f"the original did not take the session: {r.get('error')}")
        w.where = r.get("dir")
        return w

    def _resume(self, cold: bool = False) -> Worker:
        s = self.session
        # the script's names of the original's ids go with it: an op the
        # resumed worker answers with a row an earlier worker wrote (a retry
        # that reuses its user row after a crash) reports it by that name
        return self._fork({"cmd": "session", "id": s["id"], "dir": s["dir"], "resume": True, "cold": cold,
                           "names": s["ids"]})

    def _worker(self) -> Worker:
        if self.worker is None or not self.worker.alive():
            if self.worker is not None:
                self.worker.kill()
            self.worker = None
            self.worker = self._resume()
        return self.worker

    def _end_worker(self) -> None:
        self._end_cold()
        if self.worker is not None:
            self.worker.kill()
            self.worker = None

    def _end_cold(self) -> None:
        if self.cold is not None:
            self.cold.kill()
            self.cold = None

    # requests ---------------------------------------------------------------
    def hello(self, req):
        if req.get("protocol") != PROTOCOL:
            return {"type": "error", "error": f"protocol {req.get('protocol')!r} not spoken (1 is)"}
        try:
            self._warm()  # import the original now: the first session should not pay for it
        except Exception as e:
            return {"type": "error", "error": f"the original did not load: {type(e).__name__}: {e}"}
        return {"type": "hello", "protocol": PROTOCOL, **self.decl}

    def session_req(self, req):
        sid, d = req.get("id"), req.get("dir")
        if not sid or not d:
            return {"type": "error", "error": "session needs id and dir"}
        self._end_worker()
        self.session = None
        self._warm()
        self._fresh_home()
        d = os.path.abspath(d)
        r = self._fork({"cmd": "session", "id": sid, "dir": d})
        self.worker = r
        self.session = {"id": sid, "dir": d, "ids": {}, "t": 1782000000.0, "k": 0}
        out = {"type": "session"}
        if r.where and r.where != d:
            out["dir"] = r.where
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
            self._end_worker()
            if kind == "crash":
                return {"type": "op", "seq": seq, "ids": {}}
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
            w.send({"cmd": "view", "config": req.get("config", "off")})
            line = w.recv_line(req)
        except WorkerGone as e:
            if self.cold is not None:
                self._end_cold()
            else:
                self._end_worker()
            return {"type": "error", "error": f"view: {e}"}
        if line.startswith(VIEW_PREFIX):
            return Raw(line)  # the worker wrote the protocol's reply: passed on as it is
        r = json.loads(line)
        return {"type": "error", "error": r.get("error", "no view")}

    def restart(self, req):
        if self.session is None:
            return {"type": "error", "error": "no session"}
        self._end_cold()
        if self.worker is None or not self.worker.alive():
            # nothing lives (a crash ended it): the next request forks the
            # one that goes on, from disk
            self._end_worker()
            return {"type": "restart"}
        try:
            self.cold = self._resume(cold=True)
        except WorkerGone as e:
            return {"type": "error", "error": f"restart: {e}"}
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
                            self._end_worker()
                            resp = {"type": "error", "error": str(e)}
                        if "seq" in req and resp.get("type") == "error":
                            resp.setdefault("seq", req["seq"])
                if isinstance(resp, Raw):
                    out.flush()
                    out.buffer.write(resp.line + b"\n")
                    out.buffer.flush()
                else:
                    out.write(json.dumps(resp, ensure_ascii=False) + "\n")
                    out.flush()
                reap()
        finally:
            self._end_worker()
            reap(block=True)
            shutil.rmtree(self.home, ignore_errors=True)
            shutil.rmtree(self.template, ignore_errors=True)
        return 0


# ---------------------------------------------------------------------------
# Worker
# ---------------------------------------------------------------------------


def work(driver, rfd: int, wfd: int) -> int:
    """A forked worker's loop: requests on one pipe, replies on the other;
    the original's own prints go to stderr, and it reads nothing of the
    front's stdin."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull, encoding="utf-8")
    inp = os.fdopen(rfd, "r", encoding="utf-8")
    proto = os.fdopen(wfd, "w", encoding="utf-8", buffering=1)
    forked = True
    prof = None
    if os.environ.get("OPENPROGRAM_ADAPTER_PROFILE"):
        import cProfile
        prof = cProfile.Profile()
    for line in inp:
        req = json.loads(line)
        cmd = req.get("cmd")
        if prof is not None:
            prof.enable()
        try:
            if forked:
                forked = False
                driver.after_fork(bool(req.get("cold")))
            if cmd == "session":
                where = driver.session(req["id"], req["dir"], resume=req.get("resume", False))
                driver.names.update(req.get("names") or {})
                resp = {"ok": True, "dir": where or req["dir"]}
            elif cmd == "op":
                if req["kind"] == "crash":
                    driver.crash()  # ends the process
                resp = driver.op(req["seq"], req["kind"], req["fields"], req["clock"])
            elif cmd == "view":
                resp = {"type": "view", "view": driver.view(req.get("config", "off"))}
            else:
                resp = {"ok": False, "error": f"unknown worker command {cmd!r}"}
        except Exception as e:  # a failure of the adapter or the original: the op's finding
            import traceback
            traceback.print_exc()
            resp = {"ok": False, "error": f"{type(e).__name__}: {e}"}
            resp["k"] = driver.clock_k()
        if prof is not None:
            prof.disable()
            prof.dump_stats(os.path.join(os.environ["OPENPROGRAM_ADAPTER_PROFILE"], f"{os.getpid()}.prof"))
        proto.write(json.dumps(resp, ensure_ascii=False, default=str) + "\n")
        proto.flush()
    return 0


def warm_up(driver, scripts, tmp: str) -> None:
    """Each warm-up script through the driver, as the front would send it
    (ids translated, a view after every op, a restart's load at the end);
    what the original refuses is of no matter here."""
    for n, script in enumerate(scripts):
        sid = f"local_warm{n:06d}"
        d = os.path.join(tmp, sid)
        os.makedirs(d, exist_ok=True)
        try:
            driver.session(sid, d)
        except Exception:
            continue
        ids, k = {}, 0
        for seq, line in enumerate(script, 2):
            kind, fields = parse_op(line)
            for f in REF_FIELDS.get(kind, ()):
                v = fields.get(f)
                if isinstance(v, str) and v in ids:
                    fields[f] = ids[v]
            try:
                r = driver.op(seq, kind, fields, [1782000000.0, k])
                k = r.get("k", k)
                ids.update(r.get("ids") or {})
                driver.view("off")
            except Exception:
                pass
        try:
            driver.session(sid, d, resume=True)
            driver.view("off")
        except Exception:
            pass


# The interpreter the front runs in: string hashing fixed (set and dict
# orders of the original's, the same in every fork and every run), and the
# original's bytecode cached outside its source tree.
_ENV = {"PYTHONHASHSEED": "0"}


def main(script: str, declaration: dict, make_driver) -> int:
    want = dict(_ENV)
    want.setdefault("PYTHONPYCACHEPREFIX", os.environ.get("OPENPROGRAM_ADAPTER_PYCACHE") or os.path.join(
        tempfile.gettempdir(), f"op-adapter-pycache-{os.getuid()}"))
    if any(os.environ.get(k) != v for k, v in want.items()) or os.environ.get("PYTHONDONTWRITEBYTECODE"):
        env = dict(os.environ)
        env.update(want)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        os.execve(sys.executable, [sys.executable, script] + sys.argv[1:], env)
    return Front(script, declaration, make_driver).serve()
