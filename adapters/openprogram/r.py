#!/usr/bin/env python3
"""The original system at R (commit c69b08e49) behind the implementation protocol.

    OPENPROGRAM_SRC=/path/to/OpenProgram@c69b08e49 python3 adapters/openprogram/r.py

Every op the original can write goes through its own code: the web chat
handler (``handle_chat``) and the turn thread it starts, the dispatcher
(``process_user_turn``), retry and edit (``_fork_user_turn_and_run``), the
WebSocket checkout, the stop button (``handle_stop``), ``/spawn``, the
model's ``task`` tool, LLM-called and manual (fn-form route) runs of
``@agentic_function`` functions through the original's subprocess runner,
``runtime.exec``, ``ask_user`` answered through the question registry, a
script inside ``session_context``, and the store's ``append_message``. The
view is what ``handle_load_session`` sends. Stand-ins (standins.py) take
the place of the language model, the tool and model registries, git, the
clock, random ids and the subprocess (run as a thread of this process with
its own question registry and cancel flags, as a spawned interpreter has).
"""
from __future__ import annotations

import asyncio
import inspect
import io
import json
import math
import os
import shutil
import queue
import re
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import protocol  # noqa: E402
import standins  # noqa: E402

# Message keys the original writes whose values the op language does not
# determine: clock readings outside the op clock, token counts, the
# worker's process id, the agent a row belongs to, a traceback. The harness
# leaves them out of both sides (docs/protocol.md, "unmodelled").
UNMODELLED = ["worker_id", "started_at", "completed_at", "agent_id", "input_tokens", "output_tokens",
              "cache_read_tokens", "cache_write_tokens", "token_source", "trace", "last_update_at",
              "peer_display", "peer_id", "usage", "rewound_at"]

DECLARATION = {
    "name": "openprogram@c69b08e49",
    "claims": "legacy",
    "ops": ["session", "user", "dispatch", "fork-root", "reply", "think", "say", "tool", "task", "done",
            "cancel", "error-folded", "crash", "fn", "manual", "exec", "ask", "end", "retry", "edit",
            "checkout", "reload", "spawn", "script", "legacy-user", "legacy-reply", "orphan", "message", "drop", "clock"],
    # tool-legacy: no writer of R writes a tool edge only in metadata; fn-via-exec: R writes an
    # exec row running and fills it after its tool loop, so the function it calls comes first;
    # end-duration: R measures a run's duration as the difference of two clock readings.
    # rooted, object, rerun-web: the older writers' forms of a dispatcher or sub-agent user row, of a
    # tool input and of a rerun's row (Driver.ROOTED, Driver.OBJECT_INPUT, Driver.RERUN_WEB).
    # orphan-later, later: a row naming an id a later op writes (an orphan's caller, a legacy row's
    # parent): the original mints its own ids, so an id it has not minted yet has no name here.
    # spawn-turn, task-turn: a sub-agent's turn spread over the ops that follow (ops/README.md, `turn`);
    # the adapter drives the sub-agent's turn answered at once (spawn, task), not yet these.
    # followup: a finished async task's follow-up turn has no entry point of its own: R's task runner
    # writes it as the task ends, which `spawn mode=async … followup=F` and `task … async` drive.
    # user-function: a web turn in function form (ws_actions/chat.py, handle_retry_overwrite, which
    # also drops the function's earlier turns from the conversation): not driven yet; it refuses it.
    "without": ["tool-legacy", "fn-via-exec", "end-duration", "rooted", "object", "rerun-web", "followup", "user-function",
                "orphan-later", "later", "spawn-turn", "task-turn"],
    "configs": ["off"],
    "views": ["load", "stored_head", "messages", "all", "branch", "before_cards"],
    "restart": True,
    "unmodelled": UNMODELLED,
}

MODEL_ID, PROVIDER_ID = "model-x", "p"
# Names the tool and function stand-ins answer to from the start of a turn
# (the generator's; a name a script uses is added when first seen).
TOOL_NAMES = ["bash", "read_file", "web_search", "grep"]
FN_NAMES = ["word_count", "plan_next", "gui_step", "summarize", "analyze"]


class Refused(Exception):
    """The original cannot write this op (or refused it): the op's error."""


class _Terminal(io.StringIO):
    """The user's terminal as a script's stdin: a TTY whose next line is
    the user's answer."""

    def __init__(self, line):
        super().__init__(line + "\n")

    def isatty(self):
        return True


class FakeWS:
    """The browser's end of a WebSocket: keeps what the original sends."""

    def __init__(self):
        self.frames = []
        self._focused_session_id = None

    async def send_text(self, text):
        self.frames.append(json.loads(text))

    def of(self, kind):
        return [f for f in self.frames if f.get("type") == kind]


# ---------------------------------------------------------------------------
# The subprocess stand-in: a thread with its own module state where a
# spawned interpreter has its own (question registry, cancel flags).
# ---------------------------------------------------------------------------

_proc_seq = [0]
current_process = standins.current_process


class PerProcess:
    """A dict whose contents depend on which (emulated) process reads it."""

    def __init__(self):
        self._by: dict[int, dict] = {}

    def _d(self):
        return self._by.setdefault(current_process(), {})

    def __getitem__(self, k): return self._d()[k]
    def __setitem__(self, k, v): self._d()[k] = v
    def __delitem__(self, k): del self._d()[k]
    def __contains__(self, k): return k in self._d()
    def __iter__(self): return iter(list(self._d()))
    def __len__(self): return len(self._d())
    def get(self, k, d=None): return self._d().get(k, d)
    def pop(self, k, *d): return self._d().pop(k, *d)
    def setdefault(self, k, d=None): return self._d().setdefault(k, d)
    def items(self): return list(self._d().items())
    def keys(self): return list(self._d().keys())
    def values(self): return list(self._d().values())
    def clear(self): self._d().clear()


class ThreadProcess:
    """``multiprocessing`` Process stand-in for the original's @agentic_function
    runner: the child entry runs on a thread that is its own process for the
    per-process state above; the environment variable the child sets for
    itself is put back when it ends."""

    _env_key = "OPENPROGRAM_IN_AGENTIC_SUBPROCESS"

    def __init__(self, target=None, args=(), kwargs=None, daemon=None, **_):
        self.target, self.args, self.kwargs = target, args, kwargs or {}
        self.exitcode = None
        self.pid = None
        self.t = None

    def start(self):
        _proc_seq[0] += 1
        pid = _proc_seq[0]

        def run():
            standins.set_process(pid)
            saved = os.environ.get(self._env_key)
            try:
                self.target(*self.args, **self.kwargs)
                self.exitcode = 0
            except SystemExit as e:
                self.exitcode = e.code if isinstance(e.code, int) else 1
            finally:
                if saved is None:
                    os.environ.pop(self._env_key, None)
                else:
                    os.environ[self._env_key] = saved

        self.t = threading.Thread(target=run, name=f"subprocess-{pid}")
        self.t.start()
        self.pid_tag = pid

    def join(self, timeout=None):
        if self.t is not None:
            self.t.join(timeout)

    def is_alive(self):
        return self.t is not None and self.t.is_alive()

    def kill(self):
        raise RuntimeError("the subprocess stand-in cannot be killed while it runs")

    terminate = kill


class _MPContext:
    Process = ThreadProcess

    @staticmethod
    def Queue(*a, **kw):  # noqa: N802
        return queue.Queue()


class _MP:
    @staticmethod
    def get_context(*a, **kw):
        return _MPContext


# ---------------------------------------------------------------------------
# The driver
# ---------------------------------------------------------------------------


async def _loop_idle():
    """Let the event loop run what is ready (the turn's event consumer, which
    writes tool rows) before the model blocks it: a real model's stream
    awaits the network and lets it run."""
    loop = asyncio.get_running_loop()
    quiet = 0
    for _ in range(10000):
        await asyncio.sleep(0)
        quiet = quiet + 1 if not getattr(loop, "_ready", None) else 0
        if quiet >= 3:
            return


def _caller(node) -> str:
    """A node's call edge: ``called_by`` at R, ``caller`` later."""
    return getattr(node, "called_by", None) or getattr(node, "caller", None) or ""


def _ident(name: str) -> bool:
    return name.isidentifier() and name not in ("runtime", "exec_runtime", "review_runtime")


def _json_safe(v):
    """A view as the protocol carries it: NaN and infinities, which JSON
    cannot hold, become null (as in docs/views.md)."""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if isinstance(v, dict):
        return {k: _json_safe(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_json_safe(x) for x in v]
    return v


def _no_constant(name):
    """JSON has no NaN or Infinity; the op language's keys are JSON."""
    raise ValueError(f"{name} is not JSON")


class Driver:
    VIEWS = DECLARATION["views"]

    # Scripts the front runs once, in a fork, before it serves a session
    # (protocol.Front._warm_up): every op kind, so that the modules the
    # original imports on first use are imported in the warm parent.
    WARMUP = [
        ["user id=u1 text=hello", "reply", "think text=t", "say text=hi",
         'tool call=c1 name=bash args="{}" result=ok', "done",
         "user id=u2 text=more", "reply", 'fn id=f1 name=analyze args="{}"', "exec id=e1 prompt=p reply=r",
         "ask id=q1 question=q answer=a", "end output=1",
         "task call=c2 id=s1 attach=a1 text=t label=l", "task call=c3 id=s2 attach=a2 text=t label=l async",
         "done", "retry of=u2 id=u3", "reply", "error-folded type=RuntimeError msg=boom",
         "edit of=u3 id=u4 text=x", "reply", "cancel", "checkout id=u1", "reload",
         'manual id=f2 name=summarize args="{}"', "end",
         "spawn mode=inherit cmd=c4 id=s3 attach=a3 text=t label=l",
         "spawn mode=clean cmd=c5 id=s4 attach=a4 text=t label=l",
         "dispatch id=d1 text=x", "reply", "done", "fork-root id=d2 text=y", "reply", "done"],
        ["script what=fn id=x1", "script what=exec id=x2", "legacy-user id=l1 text=a",
         "legacy-reply id=l2 text=b parent=l1", "orphan id=o1 name=bash"],
    ]

    def __init__(self, src: str):
        self.src = os.path.abspath(src)
        self.clock = standins.Clock()
        self.conductor = standins.Conductor(float(os.environ.get("OPENPROGRAM_ADAPTER_SETTLE", "8")))
        standins.install_imports(self.src, self.STANDIN_IMPORTS, self.ABSENT_IMPORTS,
                                 real=os.environ.get("OPENPROGRAM_REAL_DEPS") == "1")
        standins.install_ids()
        standins.install_sleep(self.conductor)
        self.appends = 0
        self.conductor.progress = lambda: self.appends
        standins.install_git()
        standins.install_threads(self.conductor, self._deferred_target)
        os.setpgrp = lambda: None  # the subprocess stand-in runs in this process
        sys.path.insert(0, self.src)
        self._configure_home()
        self._wrapper_code = None
        self.durations: dict[str, float] = {}
        import time as _time
        _time.time = self._now  # before the original captures time.time
        self.sid = None
        self.dir = None
        self._reset_session()
        self._import()
        self._patch()
        self._configure()

    # setup ------------------------------------------------------------------
    def _configure_home(self):
        home = Path(os.environ["HOME"]) / ".openprogram"
        home.mkdir(parents=True, exist_ok=True)
        cfg = home / "config.json"
        if not cfg.exists():
            # The user's settings: the stand-in model is the default, so
            # the original seeds the default agent with it on first use.
            cfg.write_text(json.dumps({"default_provider": PROVIDER_ID, "default_model": MODEL_ID}))

    # Third-party packages the original imports unconditionally: pydantic is
    # on the DAG's path (the message types) and gets a working stand-in, the
    # web framework one whose decorators keep the routes.
    STANDIN_IMPORTS = ("pydantic", "fastapi")
    ABSENT_IMPORTS = ()

    # The original's modules the driver reaches, by the name it uses for
    # each (a later commit moves some of them).
    MODULES = {
        "server": "openprogram.webui.server",
        "ws_chat": "openprogram.webui.ws_actions.chat",
        "ws_session": "openprogram.webui.ws_actions.session",
        "ws_branch": "openprogram.webui.ws_actions.branch",
        "ws_runtime": "openprogram.webui.ws_actions.runtime",
        "chat_routes": "openprogram.webui._chat_routes",
        "routes_chat": "openprogram.webui.routes.chat",
        "rtm": "openprogram.webui._runtime_management",
        "pause_stop": "openprogram.webui._pause_stop",
        "persistence": "openprogram.webui.persistence",
        "dispatcher": "openprogram.agent.dispatcher",
        "process_runner": "openprogram.agent.process_runner",
        "questions": "openprogram.agent.questions",
        "session_store": "openprogram.store.session.session_store",
        "memory_index": "openprogram.store.session.memory_index",
        "git_session": "openprogram.store.session.git_session",
        "store": "openprogram.store",
        "store_context": "openprogram.store.session.context",
        "models": "openprogram.providers.models",
        "registry": "openprogram.providers.registry",
        "api_registry": "openprogram.providers.api_registry",
        "ptypes": "openprogram.providers.types",
        "atypes": "openprogram.agent.types",
        "function": "openprogram.agentic_programming.function",
        "runtime": "openprogram.agentic_programming.runtime",
        "contextgit": "openprogram.contextgit",
        "functions": "openprogram.functions",
        "task_tool": "openprogram.functions.tools.task.task",
        "ask_user_mod": "openprogram.functions.agentics.ask_user",
    }

    CATALOG = "MODELS"  # the providers' model catalog, provider/id -> Model
    API = "op-standin"  # the wire API the stand-in model is registered under
    TOOLS_AT = ("dispatcher", "_resolve_tools")  # where a turn resolves its tools
    BRANCH_FIELD = "parent_id"  # the TurnRequest field naming the new user row's parent

    def _import(self):
        import importlib
        self.m = type("M", (), {})()
        for k, name in self.MODULES.items():
            setattr(self.m, k, importlib.import_module(name))
        self.m.ask_user = self.m.ask_user_mod.ask_user
        self.m.session_context = self.m.store_context.session_context

    def _patch(self):
        m = self.m
        drv = self
        import importlib

        # the clock ticks once per node appended (not when rebuilt from disk)
        idx_cls = m.memory_index.SessionMemoryIndex
        base_append, base_rebuild = idx_cls.append, idx_cls.rebuild_from_paths

        def append(idx, node, *, predecessor, caller):
            seq = base_append(idx, node, predecessor=predecessor, caller=caller)
            if not getattr(idx, "_op_rebuilding", False):
                drv.clock.tick()
                drv.appends += 1
                drv.log.append(node)
            return seq

        def rebuild(idx, *a, **kw):
            idx._op_rebuilding = True
            try:
                return base_rebuild(idx, *a, **kw)
            finally:
                idx._op_rebuilding = False
        idx_cls.append, idx_cls.rebuild_from_paths = append, rebuild

        # the model: one provider, one model in the catalog
        getattr(m.models, self.CATALOG)[f"{PROVIDER_ID}/{MODEL_ID}"] = m.ptypes.Model(
            id=MODEL_ID, name=MODEL_ID, api=self.API, provider=PROVIDER_ID, base_url="",
            context_window=200000, max_tokens=64000)  # a model of today's size

        class Provider:
            def stream_simple(self, model, context, options=None):
                return drv._model_stream(model, context, options)
            stream = stream_simple
        self._register_provider(Provider())

        # the settings' list of enabled models, and the runtimes built from it
        m.rtm._enabled_model_keys = lambda: {(PROVIDER_ID, MODEL_ID)}

        def session_runtime(session_id, msg_id=None):
            conv = m.server._sessions.get(session_id)
            if conv and conv.get("runtime"):
                return conv["runtime"]
            rt = drv._runtime()
            if conv is not None:
                conv["runtime"] = rt
                conv["provider_name"] = PROVIDER_ID
            return rt
        m.rtm._get_session_runtime = session_runtime
        m.server._get_session_runtime = session_runtime
        m.registry.create_runtime = lambda *a, **kw: drv._create_runtime()

        # the tool registry a turn draws its tools from
        mod, attr = self.TOOLS_AT
        setattr(getattr(m, mod), attr, lambda profile, override=None, *, source=None: drv._tools())

        # the subprocess runner's processes
        m.process_runner.mp = _MP

        # R's task runner's pool: a thread per task, run once the turn that
        # submitted it is at rest (standins.ThreadPerTask)
        try:
            task_runner = importlib.import_module("openprogram.agent.task.runner")
        except ImportError:
            task_runner = None
        if task_runner is not None and hasattr(task_runner, "ThreadPoolExecutor"):
            task_runner.ThreadPoolExecutor = standins.ThreadPerTask

        # what a spawned interpreter has of its own
        m.pause_stop._cancel_flags = PerProcess()
        m.pause_stop._cancel_events = PerProcess()
        m.pause_stop._active_exec_runtimes = PerProcess()
        registries: dict[int, object] = {}

        def question_registry():
            return registries.setdefault(current_process(), m.questions.QuestionRegistry())
        m.questions.get_question_registry = question_registry

        # the user's model pick in the chat's picker
        m.server._user_pinned_provider = PROVIDER_ID
        m.server._user_pinned_model = MODEL_ID

        # routes of the fn-form endpoint, kept by the web framework stand-in
        app = sys.modules["fastapi"].FastAPI()
        m.routes_chat.register(app)
        self.routes = app.routes

        # the agentic function wrapper's exit reading of the clock
        self._wrapper_code = None
        for c in m.function.agentic_function._make_sync_wrapper.__code__.co_consts:
            if getattr(c, "co_name", None) == "wrapper":
                self._wrapper_code = c

        for name in FN_NAMES:
            self._define_fn(name, {}, "")

    def _configure(self):
        """The user's settings beyond the config file (none at R)."""

    def after_fork(self, cold):
        """What a worker forked from the warm front does before its first
        session (``cold``: one that only loads, after a restart)."""

    def _register_provider(self, provider):
        self.m.api_registry.register_api_provider(self.API, provider, source_id="op-adapter")

    # the clock ----------------------------------------------------------------
    def _now(self):
        f = sys._getframe(1)
        if f.f_code is self._wrapper_code:
            loc = f.f_locals
            if "status" in loc and "_started_at" in loc:
                d = self.durations.pop(loc.get("_pending_call_id"), None)
                if d is not None:
                    return loc["_started_at"] + d
        return self.clock.now()

    def clock_k(self):
        return self.clock.k

    # per session -----------------------------------------------------------------
    def _reset_session(self):
        self.pending = None      # (script id, original id, "web"|"dispatch")
        self.turn = []           # the threads running the pending turn
        self.aborted = False     # the original aborted the open reply's stream
        self.manual = []         # the threads running a manual run
        self.reply = None        # (script id, original id)
        self.frames = []         # [(script id, original id, manual)]
        self.tool_results = {}
        self.exec_replies = []
        self.frame_errors = []
        self.pause_dispatch = False
        self.names = {}          # script id -> original id
        self.tools_seen = list(TOOL_NAMES)
        self.fns_seen = list(FN_NAMES)
        self.log = []

    def busy(self):
        return bool(self.conductor.waiters or self.conductor.has_deferred())

    def session(self, sid, d, resume=False):
        self.conductor.drop_deferred()
        self._reset_session()
        self.sid, self.dir = sid, d
        # The session is an ad-hoc one, kept where the original keeps a chat
        # without a project: in the store's home root, where it also looks for
        # a session it no longer holds in memory (a project's session, kept
        # elsewhere, it does not always find: a finding of its own). So the
        # session's files are not in the directory the harness gave, and the
        # reply names where they are.
        store = self.m.session_store.default_store()
        here = Path(store.root_path) / sid
        if not resume and (here.exists() or here.is_symlink()):
            if here.is_dir() and not here.is_symlink():
                shutil.rmtree(here)
            else:
                here.unlink()
        self.dir = str(here)
        return self.dir

    # ops -------------------------------------------------------------------------
    def op(self, seq, kind, f, clock):
        self.clock.set(*clock)
        standins.seed_ids(self.sid, seq)
        self.log = []
        self.conductor.take_errors()
        handler = getattr(self, "op_" + kind.replace("-", "_"), None)
        if handler is None:
            return {"ok": False, "error": f"{kind}: not an op the original can write", "k": self.clock.k}
        try:
            ids = handler(**{k.replace("-", "_"): v for k, v in f.items()}) or {}
            errs = self.conductor.take_errors()
            if errs:
                raise Refused(errs[0])
        except Refused as e:
            errs = self.conductor.take_errors()
            more = ("; " + errs[0]) if errs else ""
            return {"ok": False, "error": f"{kind}: {e}{more}", "k": self.clock.k}
        self.names.update(ids)
        if os.environ.get("OPENPROGRAM_ADAPTER_DEBUG"):
            with self.conductor.cv:
                alive = [t for t in self.conductor.driven if t.is_alive()]
            sys.stderr.write(f"{self.sid}: after op {seq} {kind}: appended {[n.id for n in self.log]}, held {len(self.conductor.held)}, {len(alive)} threads alive, "
                             f"{len(self.conductor.sleepers)} asleep\n" + standins.dump_stacks(alive) + "\n")
        return {"ok": True, "ids": ids, "k": self.clock.k}

    def crash(self):
        os._exit(137)

    def _run(self, coro):
        """``asyncio.run(coro)`` on one event loop per process: what the
        coroutine leaves running is cancelled when it returns, as
        asyncio.run cancels it, but the loop is not made anew for each
        (a request of the web server runs on the server's one loop)."""
        loop = getattr(self, "_loop", None)
        if loop is None or loop.is_closed():
            loop = self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            return loop.run_until_complete(coro)
        finally:
            try:
                asyncio.runners._cancel_all_tasks(loop)
                loop.run_until_complete(loop.shutdown_default_executor())
            finally:
                asyncio.set_event_loop(None)

    def _settle(self):
        self.conductor.settle()

    def _appended(self, pred):
        return [n for n in self.log if pred(n)]

    def _one(self, what, pred):
        got = self._appended(pred)
        if len(got) != 1:
            raise Refused(f"the original wrote {len(got)} {what} rows, not one "
                          f"({[n.id for n in self.log]})")
        return got[0].id

    def _need(self, cond, why):
        if not cond:
            raise Refused(why)

    # web turns
    # The image a web turn with one attached carries: 72 bytes, 96 characters
    # of base64 (R's manifest records the length of that text, size_b64).
    IMAGE = {"type": "image", "media_type": "image/png", "data": "A" * 96}

    def op_user(self, id, text="", form=""):
        self._need(form in ("", "image"), f"form={form}: this adapter does not drive a web turn in function form")
        self._need(self.pending is None and not self.frames, "a turn is in progress")
        parsed = self.m.server._parse_chat_input(text)
        self._need(text.strip() != "" or form == "image", "the web chat sends no empty message")
        self._need(parsed.get("action") == "query" or not text.strip(), f"the web chat reads {text!r} as a command")
        cmd = {"text": text, "session_id": self.sid, "permission_mode": "bypass"}
        if form == "image":
            cmd["attachments"] = [dict(self.IMAGE)]
        ws = FakeWS()
        self._run(self.m.ws_chat.handle_chat(ws, cmd))
        acks = ws.of("chat_ack")
        self._need(acks, "the web chat did not acknowledge the message")
        mid = acks[0]["data"]["msg_id"]
        self.pending = (id, mid, "web")
        self._settle()
        ids = {id: mid}
        if self._appended(lambda n: n.id == mid + "_reply"):
            ids[id + "_reply"] = mid + "_reply"  # a commit that writes the placeholder with the row
        return ids

    def op_reply(self):
        self._need(self.pending is not None and self.reply is None, "no pending turn")
        pid, porig, how = self.pending
        rorig = porig + "_reply"
        self.reply = (pid + "_reply", rorig)
        self.aborted = False
        if how == "dispatch":
            w = self.conductor.waiting("placeholder")
            self._need(w is not None, "the dispatcher's turn is not waiting")
            self.conductor.give(w, "go")
        else:
            self.turn = self.conductor.start_deferred()
            self._need(self.turn, "the web turn's thread was not started")
        w = self._await_model()
        self._need(self._appended(lambda n: n.id == rorig) or any(n.id == rorig for n in self._nodes()),
                   f"the original wrote no placeholder {rorig}")
        self._need(w is not None, "the turn ended without calling the model")
        return {pid + "_reply": rorig}

    def _await_model(self):
        key = self.reply[1]
        w = self.conductor.expect(lambda w: w.role == "model" and w.key == key, ended=self.turn)
        if w is None and self.turn and not any(t.is_alive() for t in self.turn):
            # the original ended the turn on its own: the ops of this
            # turn that follow have nothing to act on
            why = " (the model's stream was aborted: the session's cancel flag was set)" if self.aborted else ""
            self.pending = self.reply = None
            self.frames, self.turn = [], []
            raise Refused("the original ended the turn" + why)
        return w

    def _await_frame(self, key=None, back=None):
        """The first frame of a function that started (or of ``key``), or,
        with ``back``, that caller's frame waiting again: the call returned
        without a run of its own."""
        known = {f[1] for f in self.frames}
        if key is None:
            pred = lambda w: w.role == "frame" and (w.key not in known or w.key == back)  # noqa: E731
        else:
            pred = lambda w: w.role == "frame" and w.key == key  # noqa: E731
        return self.conductor.expect(pred, ended=self.turn + self.manual)

    def _model(self):
        self._need(self.reply is not None, "no open reply")
        if self.aborted:
            self._need(False, "the original ended the turn: the model's stream was aborted (the "
                              "session's cancel flag was set when the turn started)")
        w = self.conductor.waiting("model", self.reply[1])
        if w is None and os.environ.get("OPENPROGRAM_ADAPTER_DEBUG"):
            sys.stderr.write(f"waiters: {[(x.role, x.key) for x in self.conductor.waiters]}\n"
                             + standins.dump_stacks(self.conductor.driven) + "\n")
        self._need(w is not None, "the turn is not waiting for the model")
        return w

    def op_think(self, text=""):
        self.conductor.give(self._model(), ("think", text))
        self._need(self._await_model(), "the turn ended")

    def op_say(self, text=""):
        self.conductor.give(self._model(), ("say", text))
        self._need(self._await_model(), "the turn ended")

    def op_tool(self, call, name, args="{}", result="", error=False, legacy=False, object=False):
        self._need(not legacy, "the original's writers write no legacy tool edge")
        self._need(not object or self.OBJECT_INPUT is None, self.OBJECT_INPUT or "")
        self._need(not self.frames, "a function is running")
        w = self._model()
        self._need(name in self.offered_tools, f"the turn offered no tool {name!r}")
        self.tool_results[call] = (result, bool(error))
        self.conductor.give(w, ("tool", call, name, json.loads(args)))
        self._need(self._await_model(), "the turn ended")
        rid = self.reply[1] + "_t_" + call
        self._need(self._appended(lambda n: n.id == rid), f"the original wrote no tool row {rid} (wrote {[n.id for n in self.log]})")
        return {self.reply[0] + "_t_" + call: rid}

    def op_task(self, call, id, attach="", text="", label="", rooted=False, followup="", task="", **kw):
        self._need(not rooted or self.ROOTED is None, self.ROOTED or "")
        self._need(not self.frames, "a function is running")
        run_async = kw.get("async", False)
        # the runner's form (R's task runner: no attach pointer, a follow-up
        # turn); the rooted one is the older writers', which an adapter whose
        # original still writes it (HEAD) drives as the plain tool call
        runner = run_async and not rooted
        self._need(not runner or (followup and not attach),
                   "R's task runner writes no attach pointer and a follow-up turn: task async needs followup=, not attach=")
        # R's task tool finds its parent turn through the web chat's session
        # ContextVar (functions/tools/task/task.py, _resolve_parent), which
        # the dispatcher does not set: it answers with an error text and runs
        # no sub-agent, the row of a tool op
        self._need(not (self.pending and self.pending[2] == "dispatch"),
                   "R's task tool answers a dispatcher turn with an error and runs no sub-agent (a tool op)")
        w = self._model()
        self.conductor.give(w, ("tool", call, self.TASK_TOOL, self._task_args(text, label, run_async)))
        if runner:
            # the runner's sub-agent and its follow-up run once the turn
            # waits on the model again
            self._await_runner()
        self._need(self._await_model(), "the turn ended")
        rid = self.reply[1] + "_t_" + call
        ids = self._subagent_ids({self.reply[0] + "_t_" + call: rid} if self._appended(lambda n: n.id == rid) else {},
                                 id, attach)
        if runner:
            row = self._appended(lambda n: n.id == rid)
            m = row and re.match(r"\[task spawned async\] task_id=(\S+)\n", str(row[0].output or ""))
            if m:  # the task id R's runner drew, under the script's name (or t_<sub>)
                ids[task or "t_" + id] = m.group(1)
            self._followup_ids(ids, followup)
        return ids

    def _followup_ids(self, ids, followup):
        """Name the follow-up turn R's runner dispatched, and its reply."""
        fus = self._appended(lambda n: n.role == "user" and (n.metadata or {}).get("source") == "task_followup")
        if followup and fus:
            ids[followup] = fus[0].id
            if self._appended(lambda n: n.id == fus[0].id + "_reply"):
                ids[followup + "_reply"] = fus[0].id + "_reply"

    def _await_runner(self, seconds=30.0):
        """Wait for R's task runner to have written an async task's follow-up
        reply: the conductor may find the runner's thread at rest between
        its steps (a timed join of its progress poller) before the task has
        run."""
        done = lambda: bool(self._appended(lambda n: n.role == "llm"  # noqa: E731
                                           and (n.metadata or {}).get("source") == "task_followup"))
        end = time.monotonic() + seconds
        while not done() and time.monotonic() < end:
            self.conductor.settle(until=done)
            if not done():
                standins._real_sleep(0.005)

    def _subagent_ids(self, ids, sub, attach):
        """Name what a sub-agent run wrote: the sub-agent's user row, its
        reply and the attach row, each where the original wrote one (what it
        did not write, a view shows missing)."""
        users = self._appended(lambda n: n.role == "user" and (n.metadata or {}).get("source") == "agent_spawn")
        if users:
            ids[sub] = users[0].id
            if self._appended(lambda n: n.id == users[0].id + "_reply"):
                ids[sub + "_reply"] = users[0].id + "_reply"
        att = self._appended(lambda n: (n.metadata or {}).get("function") == "attach")
        if att:
            ids[attach] = att[0].id
        return ids

    TASK_TOOL = "task"  # the model's tool that runs a sub-agent

    def _task_args(self, text, label, run_async):
        """What the model passes the task tool for the op: the prompt, the
        label, the sub-agent forked off this turn, and, for ``async``, not
        waiting for it."""
        args = {"prompt": text, "description": label, "context": "inherit"}
        if run_async:
            args["wait"] = False
        return args

    def _end_turn(self, instruction):
        self._need(not self.frames, "a function is running")
        self.conductor.give(self._model(), instruction)
        self.conductor.expect(None, ended=self.turn)
        self.pending = self.reply = None
        self.turn = []

    def op_done(self):
        self._end_turn(("done",))

    def op_cancel(self):
        self._need(not self.frames, "a function is running")
        w = self._model()
        if self.pending and self.pending[2] == "dispatch":
            self.cancel_event.set()
        else:
            self._run(self.m.ws_runtime.handle_stop(FakeWS(), {"session_id": self.sid}))
        self.conductor.give(w, ("cancel",))
        self.conductor.expect(None, ended=self.turn)
        self.pending = self.reply = None
        self.turn = []

    def op_error_folded(self, **f):
        import builtins
        # the op's type, even none: Python makes a class of any name, and the
        # original stores type(e).__name__ as it is
        name, msg = f.get("type", ""), f.get("msg", "")
        cls = getattr(builtins, name, None)
        if not (isinstance(cls, type) and issubclass(cls, Exception)):
            cls = type(name, (Exception,), {})
        self._end_turn(("error", cls(msg)))

    # dispatcher turns
    def _dispatch(self, id, text, parent):
        self._need(self.pending is None and not self.frames, "a turn is in progress")
        D = self.m.dispatcher
        if parent == "":
            pid = D.INHERIT_PARENT
        elif parent == "none":
            pid = None
        else:
            pid = parent
        req = D.TurnRequest(session_id=self.sid, user_text=text, agent_id="main", source="cli",
                            permission_mode="bypass", model_override=f"{PROVIDER_ID}/{MODEL_ID}",
                            **{self.BRANCH_FIELD: pid}, **self._cli_request_fields())
        self.pause_dispatch = True
        # the channel's own cancel: R's dispatcher stops a turn on its
        # cancel_event (the web stop button reaches only web turns)
        self.cancel_event = threading.Event()
        t = threading.Thread(target=D.process_user_turn, args=(req,), kwargs={"cancel_event": self.cancel_event},
                             name="dispatch")
        t.start()
        self.turn = [t]
        w = self.conductor.expect(lambda w: w.role == "placeholder", ended=self.turn)
        self._need(w is not None, "the dispatcher's turn ended before its placeholder")
        uid = self._one("user", lambda n: n.role == "user" and n.id != "ROOT")
        self.pending = (id, uid, "dispatch")
        return {id: uid}

    def _cli_request_fields(self):
        """What the original's terminal chat adds to its turn request."""
        return {}

    # The dispatcher's direct write of the user row (a Call called by ROOT)
    # goes through ``_shim``, a name R never binds (the import binds
    # ``_GShim``): the NameError is caught and the fallback append_message
    # stores the row caller-less with an explicit parent
    # (agent/dispatcher/__init__.py). The ``rooted`` form, the direct write
    # of older versions, is one R cannot write. None: the commit writes it.
    ROOTED = ("rooted: R's dispatcher stores no user row called by ROOT (its direct write names the unbound "
              "_shim; the NameError's fallback append_message stores it caller-less)")
    # R's tool rows hold the input as the JSON text the model sent; the
    # ``object`` form is an older writer's.
    OBJECT_INPUT = "object: R stores a tool's input as the JSON text the model sent, not as an object"

    def op_dispatch(self, id, text="", parent="", rooted=False, source=""):
        self._need(not source, f"source={source}: this adapter does not drive the dispatcher's own turns "
                               "(a finished async task's follow-up, a merge turn)")
        self._need(not rooted or self.ROOTED is None, self.ROOTED or "")
        return self._dispatch(id, text, parent)

    def op_fork_root(self, id, text="", rooted=False):
        self._need(not rooted or self.ROOTED is None, self.ROOTED or "")
        return self._dispatch(id, text, "none")

    # retry, edit, checkout, reload
    def _fork(self, of, id, text):
        self._need(self.pending is None and not self.frames, "a turn is in progress")
        if self.m.server._sessions.get(self.sid) is None:
            self.m.server._get_or_create_session(self.sid)
        out = self.m.chat_routes._fork_user_turn_and_run(self.sid, of, text)
        if "__error__" in out:
            raise Refused(f"{out['__error__'][0]} ({out['__error__'][1]})")
        mid, src = out["msg_id"], out["forked_from"]
        self._settle()
        if mid == src:
            script = next((k for k, v in self.names.items() if v == src), src)
            self.pending = (script, src, "web")
            return {}
        self.pending = (id, mid, "web")
        return {id: mid}

    # The older writers stored a rerun's row with the web source; R's
    # _fork_user_turn_and_run (webui/_chat_routes.py) stores none.
    RERUN_WEB = "web: R stores a retry's or an edit's row with no source"

    def op_retry(self, of, id="", web=False):
        self._need(not web or self.RERUN_WEB is None, self.RERUN_WEB or "")
        return self._fork(of, id, None)

    def op_edit(self, of, id, text="", web=False):
        self._need(not web or self.RERUN_WEB is None, self.RERUN_WEB or "")
        return self._fork(of, id, text)

    def op_checkout(self, id):
        self._need(self.pending is None and not self.frames, "a turn is in progress")
        ws = FakeWS()
        self._run(self.m.ws_branch.handle_checkout_branch(ws, {"session_id": self.sid, "head_msg_id": id}))
        res = ws.of("branch_checked_out")
        self._need(res and res[0]["data"].get("ok"), f"checkout refused: {res and res[0]['data'].get('error')}")
        self._settle()

    def op_reload(self):
        self._run(self.m.ws_session.handle_load_session(FakeWS(), {"session_id": self.sid}))
        self._settle()

    # sub-agents
    def op_spawn(self, mode, cmd, id, attach, text="", label="", rooted=False, turn=False, followup="", task=""):
        self._need(not rooted or self.ROOTED is None, self.ROOTED or "")
        # R runs the sub-agent's turn (and an async task's follow-up) on its
        # own threads within the command; this adapter does not yet hold
        # them for the ops that follow
        self._need(not turn, "turn: this adapter does not drive a /spawn's sub-agent turn by the ops after it")
        self._need(self.pending is None and not self.frames, "a turn is in progress")
        self._need(":" not in label, "a /spawn label cannot hold a colon")
        # R's _run_spawn answers an empty prompt with an error and runs no
        # sub-agent: not the op (ops/README.md refuses it too)
        self._need(text.strip(), "/spawn needs a prompt")
        # the user's command as R parses it (webui/_chat_helpers.py): the
        # label before the first colon; async is /task --async
        line = {"clean": f"/spawn --clean {label}: {text}", "async": f"/task --async {label}: {text}"}.get(
            mode, f"/spawn {label}: {text}")
        ws = FakeWS()
        mark = self.conductor.mark()
        self._run(self.m.ws_chat.handle_chat(ws, {"text": line, "session_id": self.sid, "permission_mode": "bypass"}))
        acks = ws.of("chat_ack")
        self._need(acks, "the web chat did not acknowledge /spawn")
        c = acks[0]["data"]["msg_id"]
        self.conductor.expect(None, ended=self.conductor.started_since(mark))
        if mode == "async" and followup:
            self._await_runner()
        ids = self._subagent_ids({cmd: c}, id, attach)
        if mode == "async":
            # R's task runner: the task id it drew (on the card) and the
            # follow-up turn it dispatched when the task completed
            card = self._appended(lambda n: (n.metadata or {}).get("function") == "attach")
            tid = card and ((card[-1].metadata or {}).get("attach") or {}).get("task_id")
            if tid:  # the script's task id, or the one it derives from the card's (t_<attach>)
                ids[task or "t_" + attach] = tid
            self._followup_ids(ids, followup)
        return ids

    # functions
    def _define_fn(self, name, args, expose, script=False):
        """The user's @agentic_function ``name``: parameters the names of
        ``args`` (annotated with their values' types, so the original's
        argument coercion keeps them), then ``runtime``; its body does what
        the ops say."""
        drv = self
        F = self.m.function
        params = []
        for k, v in args.items():
            self._need(_ident(k), f"argument {k!r} is not a Python parameter name")
            params.append(inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None,
                                            annotation=type(v) if v is not None else type(None)))
        if not script:
            params.append(inspect.Parameter("runtime", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None))

        sig = inspect.Signature(params)

        def body(*a, **kw):
            return drv._frame_body(sig.bind(*a, **kw).arguments)
        body.__name__ = body.__qualname__ = name
        body.__doc__ = None
        body.__signature__ = inspect.Signature(params)
        if script:
            def body(*a, **kw):  # noqa: F811 (a script's function returns at once)
                return "ok"
            body.__name__ = body.__qualname__ = name
            body.__doc__ = None
            body.__signature__ = inspect.Signature(params)
        dec = F.agentic_function(expose=expose) if expose else F.agentic_function
        fn = dec(body) if expose else dec(body)
        if name not in self.fns_seen:
            self.fns_seen.append(name)
        return fn

    def _frame_body(self, kw):
        from openprogram.agentic_programming.function import _call_id
        node = _call_id.get()
        rt = kw.get("runtime")
        while True:
            ins = self.conductor.wait("frame", node)
            k = ins[0]
            if k == "exec":
                self.exec_replies.append(ins[2])
                try:
                    rt.exec(content=[{"type": "text", "text": ins[1]}])
                except BaseException as e:
                    self.frame_errors.append(f"exec raised {type(e).__name__}: {e}")
                    raise
            elif k == "ask":
                self.m.ask_user(ins[1])
            elif k == "call":
                try:
                    ins[1](**ins[2])
                except Exception as e:  # the nested run ended with an error
                    self.frame_errors.append(f"{type(e).__name__}: {e}")
            elif k == "end":
                if ins[2] is not None:
                    raise RuntimeError(ins[2])
                return ins[1]

    def _frame(self):
        self._need(self.frames, "no function is running")
        sid, orig, _ = self.frames[-1]
        w = self.conductor.waiting("frame", orig)
        self._need(w is not None, f"the function {sid} is not waiting")
        return w

    def _started(self, id, manual, node):
        self.frames.append((id, node, manual))
        return {id: node}

    def op_fn(self, id, name, args="{}", expose="", via_exec=False):
        self._need(not via_exec, "the original writes an exec row only after its tool loop: a function "
                                 "called from it precedes the row it hangs off")
        a = json.loads(args)
        fn = self._define_fn(name, a, expose)
        self.frame_errors = []
        caller = None
        if self.frames:
            caller = self.frames[-1][1]
            self.conductor.give(self._frame(), ("call", fn, a))
        else:
            w = self._model()
            self._need(name in self.offered_fns, f"the turn offered no function {name!r}")
            self.conductor.give(w, ("tool", "call_" + id, name, a))
        w = self._await_frame(back=caller)
        # The caller waiting for its next step again: the call raised before
        # the function's body ran (R's recursion guard, function.py), which
        # its caller's body caught.
        self._need(w is not None and w.key != caller, "the function did not start" +
                   (f": {self.frame_errors[-1]}" if self.frame_errors else ""))
        return self._started(id, False, w.key)

    def op_manual(self, id, name, args="{}", expose=""):
        self._need(self.pending is None and not self.frames, "a turn is in progress")
        a = json.loads(args)
        self._define_fn(name, a, expose)
        self.frame_errors = []
        route = self.routes[("POST", "/api/function/{name}")]
        mark = self.conductor.mark()
        resp = self._run(route(name, {"session_id": self.sid, "kwargs": a}))
        self._need(getattr(resp, "status_code", 200) == 200, f"fn-form refused: {getattr(resp, 'content', None)}")
        self.manual = self.conductor.started_since(mark)
        w = self._await_frame()
        self._need(w is not None, "the function did not start")
        return self._started(id, True, w.key)

    def op_exec(self, id, prompt="", reply=""):
        w = self._frame()
        frame = self.frames[-1][1]
        self.conductor.give(w, ("exec", prompt, reply))
        self._need(self._await_frame(frame), "the function ended" +
                   (f": {self.frame_errors[-1]}" if self.frame_errors else ""))
        return {id: self._one("exec", lambda n: n.role == "llm" and _caller(n) == frame)}

    def op_ask(self, id, question="", answer="", declined=False):
        self._need(not (declined and answer), "a declined question has no answer")
        w = self._frame()
        frame = self.frames[-1][1]
        self.conductor.give(w, ("ask", question))
        reg = self.m.questions.get_question_registry()
        # the question reaches this process's registry once the original's
        # threads have come to rest (the function's, in its subprocess, and
        # the bridge that forwards its question); they rest no further: the
        # function's wait for the answer is timed (runtime.ask, 300 s), and
        # the user answers within it, so the conductor's clock must not run
        # it out before the answer is given
        self.conductor.settle(until=lambda: reg.list_pending(self.sid))
        pending = reg.list_pending(self.sid)
        self._need(pending, "the original asked no question of the browser")
        qid = self._one("ask_user", lambda n: n.role == "user" and _caller(n) == frame)
        ws = FakeWS()
        # the browser's answer (an empty one too: ask_user stores "") or its
        # reject, after which ask_user stores None
        if declined:
            self._run(self.m.ws_session.handle_question_reject(ws, {"id": pending[-1].id}))
        else:
            self._run(self.m.ws_session.handle_question_reply(ws, {"id": pending[-1].id, "answer": answer}))
        self._need(self._await_frame(frame), "the function ended")
        return {id: qid}

    def op_end(self, output="", error="", duration=""):
        w = self._frame()
        sid, orig, manual = self.frames[-1]
        d = float(duration) if duration else 0.5
        start = next((n.created_at for n in self._nodes() if n.id == orig), None)
        if start is not None and (start + d) - start != d:
            raise Refused(f"the original records a run's duration as the difference of two clock readings: "
                          f"a run started at {start!r} cannot last {duration} (it would record "
                          f"{(start + d) - start!r})")
        self.durations[orig] = d
        value = json.loads(output) if output else None
        self.conductor.give(w, ("end", value, error if error else None))
        self.frames.pop()
        if self.frames:
            self._need(self._await_frame(self.frames[-1][1]), "the calling function ended")
        elif manual:
            self.conductor.expect(None, ended=self.manual)
            self.manual = []
        else:
            self._need(self._await_model(), "the turn ended")

    def _nodes(self):
        pair = self.m.session_store.default_store()._open(self.sid)
        return pair[1].all_nodes() if pair else []

    # rows outside a turn
    def op_script(self, what, id, name="", prompt=""):
        self._need(self.pending is None and not self.frames, "a turn is in progress")
        box = {}

        self._need(what in ("fn", "exec", "ask"), f"script what={what!r}: want fn, exec or ask")
        self._need(not prompt or what == "exec", f"script what={what}: only a model call sends a prompt")

        def program():
            with self.m.session_context(self.sid, source="cli") as h:
                if what == "fn":
                    box["fn"] = self._define_fn(name, {}, "", script=True)()
                elif what == "ask":
                    box["answer"] = self.m.ask_user("proceed?")
                else:
                    self.exec_replies.append("script reply")
                    h.runtime.exec(content=[{"type": "text", "text": prompt}])
        t = threading.Thread(target=program, name="script")
        # A script runs in the user's terminal: a top-level ask_user, which
        # has no function's runtime to ask through, reads the answer from
        # it (ask_user: input() when stdin is a TTY); the user types yes.
        saved_stdin = sys.stdin
        if what == "ask":
            sys.stdin = _Terminal("yes")
        try:
            t.start()
            self.conductor.expect(None, ended=[t])
        finally:
            sys.stdin = saved_stdin
        role = {"fn": "code", "exec": "llm", "ask": "user"}[what]
        got = self._appended(lambda n: n.role == role)
        self._need(len(got) <= 1, f"the original wrote {len(got)} {what} rows, not one")
        # A row the original did not write is not refused: the op was the
        # user's, and the views show what it lost.
        return {id: got[0].id} if got else {}

    def _append(self, msg, save=True):
        """append_message, then (save) the commit that persists meta.json."""
        db = self.m.session_store.default_store()
        db.append_message(self.sid, msg)
        if save:
            db.commit_turn(self.sid, "append")

    def op_legacy_user(self, id, text="", parent=""):
        msg = {"role": "user", "content": text}
        if parent == "null":
            msg["parent_id"] = None
        elif parent:
            msg["parent_id"] = parent
        self._append(msg)
        return {id: self._one("user", lambda n: n.role == "user")}

    def op_legacy_reply(self, id, text="", parent="", blocks=False):
        msg = {"role": "assistant", "content": text, "parent_id": parent}
        if blocks:  # the message's extra holds its calls and blocks (_msg_to_node lands them in metadata)
            msg["extra"] = json.dumps({"tool_calls": [], "blocks": [{"type": "text", "text": text}]})
        self._append(msg)
        return {id: self._one("reply", lambda n: n.role == "llm")}

    def op_orphan(self, id, name="", caller=""):
        oid = standins._uuid4().hex[:12]
        self._append({"role": "tool", "id": oid, "content": "orphan", "function": name,
                      "tool_call_id": oid, "is_error": False,
                      "extra": json.dumps({"tool_use": {"name": name, "arguments": {}, "called_by": caller}})})
        return {id: oid}

    def op_message(self, id, role="", text="", parent="", caller="", keys="", unsaved=False):
        """append_message of the dict the op spells (ops/README.md: message):
        id, role, content, parent_id, called_by, then keys' keys in order;
        unsaved, the append alone (no commit persists meta.json)."""
        # What the op language refuses (the models refuse it too): a role
        # it does not name, keys that are no object or repeat a field's key,
        # names that are no strings. What R's adapter raises on (an extra of
        # JSON text holding no object, a tool_use that is no object) R
        # raises on here.
        self._need(role in ("", "user", "assistant", "system", "tool"), f"message role={role!r}")
        try:
            extra = json.loads(keys, parse_constant=_no_constant) if keys else {}
        except ValueError as e:
            raise Refused(f"message keys: {e}")
        self._need(isinstance(extra, dict), "message keys: want a JSON object")
        for key, given in (("id", True), ("role", True), ("content", text), ("parent_id", parent), ("called_by", caller)):
            self._need(not (given and key in extra), f"message keys give {key}, which a field gives")
        names = ("function",) if role == "tool" else ("token_model", "called_by")
        for key in names:
            v = extra.get(key)
            self._need(not v or isinstance(v, str), f"message {key} is no string")
        raw = extra.get("extra")
        decoded = {}
        if raw and isinstance(raw, dict):
            decoded = raw
        elif raw and isinstance(raw, str):
            try:
                decoded = json.loads(raw)
            except ValueError:
                decoded = {}
            self._need(isinstance(decoded, dict), "message extra: JSON text of no object (R's adapter raises)")
        use = decoded.get("tool_use") if role == "tool" else None
        self._need(not use or isinstance(use, dict), "message tool_use: no object (R's adapter raises)")
        for key in ("name", "called_by", "tool_call_id"):
            v = (use or {}).get(key)
            self._need(not v or isinstance(v, str), f"message tool_use.{key} is no string")
        msg = {"id": id}
        if role:
            msg["role"] = role
        if "content" not in extra:
            msg["content"] = text
        if parent == "null":
            msg["parent_id"] = None
        elif parent:
            msg["parent_id"] = parent
        if caller:
            msg["called_by"] = caller
        msg.update(extra)
        self._append(msg, save=not unsaved)
        got = self._appended(lambda n: n.id == id)
        self._need(len(got) == 1, f"the original wrote no row {id}")
        return {id: id}

    def op_drop(self, id):
        """R's drop_message of an attach pointer, as process_merge_turn
        retires the pointers it wrote (ops/README.md: drop): what the op
        language refuses is refused here before R is asked."""
        self._need(self.pending is None and not self.frames, "a turn is in progress")
        db = self.m.session_store.default_store()
        git, idx = db._open(self.sid)
        meta_file = git.path / "meta.json"
        persisted = json.loads(meta_file.read_text()).get("head_id") if meta_file.exists() else None
        node = idx.nodes_by_id.get(id)
        self._need(node is not None, f"drop: no row {id}")
        meta = node.metadata or {}
        self._need(meta.get("function") == "attach", f"drop {id}: no attach pointer")
        self._need(id not in (idx.head_id, persisted), f"drop {id}: a head rests on it")
        self._need(idx.nodes_by_seq[-1].id != id, f"drop {id}: the last row stored")
        for n in idx.nodes_by_seq:
            m = n.metadata or {}
            self._need(id not in (n.called_by, m.get("parent_id"), m.get("called_by")), f"drop {id}: row {n.id} names it")
        self._need(db.drop_message(self.sid, id), f"drop {id}: the original dropped nothing")

    # stand-ins the original calls ------------------------------------------------
    def _deferred_target(self, thread):
        """The web chat's turn thread (a query) waits for the op that runs it."""
        target = getattr(thread, "_target", None)
        args = getattr(thread, "_args", ())
        return getattr(target, "__name__", "") == "_execute_in_context" and len(args) > 2 and args[2] == "query"

    def _runtime(self):
        return self.m.runtime.Runtime(call=self._exec_llm, model=MODEL_ID)

    def _create_runtime(self):
        """The providers' registry; a dispatcher turn's first registry lookup
        comes between its user row and its placeholder, where the op script
        puts the ``reply`` op."""
        if self.pause_dispatch:
            from openprogram.store import _current_turn_id
            turn = _current_turn_id.get(None)
            if turn is not None and threading.current_thread().name == "dispatch":
                self.pause_dispatch = False
                self.conductor.wait("placeholder", turn)
        return self._runtime()

    def _exec_llm(self, content, model=None, response_format=None):
        return self.exec_replies.pop(0) if self.exec_replies else "sub done"

    def _tools(self):
        """What the tool registry offers a turn: a stand-in for each tool name
        (the real tools run commands), the user's functions and the real
        ``task`` tool."""
        A, P, F = self.m.atypes, self.m.ptypes, self.m.functions
        drv = self
        out = []
        for name in self.tools_seen:
            async def execute(call_id, args, cancel=None, on_update=None, _n=name):
                result, err = drv.tool_results.pop(call_id, (None, False))
                if result is None:
                    raise RuntimeError(f"no result for tool call {call_id}")
                if err:
                    raise RuntimeError(result)
                # as the original's own tools return: its wrapper
                # (functions/_runtime.py, _normalize_result) makes a str
                # one text block and details None when it has none
                return A.AgentToolResult(content=[P.TextContent(text=result)], details=None)
            out.append(A.AgentTool(name=name, description=f"{name} (stand-in)",
                                   parameters={"type": "object", "properties": {}}, label=name,
                                   execute=execute))
        for name in self.fns_seen:
            self._define_fn(name, {}, "")
        agentic = F.agent_tools(names=list(self.fns_seen) + [self.TASK_TOOL]) or []
        out += list(agentic)
        self.offered_tools = set(self.tools_seen)
        self.offered_fns = {t.name for t in agentic}
        return out

    def _model_stream(self, model, context, options):
        drv = self
        P = self.m.ptypes

        def message(content, stop):
            return P.AssistantMessage(content=content, api=drv.API, provider=PROVIDER_ID, model=MODEL_ID,
                                      usage=P.Usage(input=1, output=1, total_tokens=2), stop_reason=stop,
                                      timestamp=int(drv.clock.now() * 1000))

        async def gen():
            from openprogram.store import _current_turn_id
            turn = _current_turn_id.get(None)
            if drv.reply is None or turn != drv.reply[1]:
                yield P.EventDone(reason="stop", message=message([P.TextContent(text="sub done")], "stop"))
                return
            blocks = []
            while True:
                await _loop_idle()
                ins = drv.conductor.wait("model", turn)
                k = ins[0]
                if os.environ.get("OPENPROGRAM_ADAPTER_DEBUG"):
                    sys.stderr.write(f"model <- {ins!r}\n")
                if k == "think":
                    blocks.append(P.ThinkingContent(thinking=ins[1]))
                elif k == "say":
                    blocks.append(P.TextContent(text=ins[1]))
                elif k in ("tool", "done"):
                    if k == "tool":
                        blocks.append(P.ToolCall(id=ins[1], name=ins[2], arguments=ins[3]))
                    sig = getattr(options, "signal", None)
                    await _loop_idle()  # callbacks queued while the model waited
                    if sig is not None and sig.is_set():
                        # a provider checks the turn's abort signal as its
                        # stream ends (the anthropic and openai streams do)
                        drv.aborted = True
                        yield P.EventError(reason="aborted", error=message(blocks, "aborted"))
                        return
                    stop = "toolUse" if k == "tool" else "stop"
                    yield P.EventDone(reason=stop, message=message(blocks, stop))
                    return
                elif k == "cancel":
                    sig = getattr(options, "signal", None)
                    await _loop_idle()  # the stop's callbacks
                    if sig is None or not sig.is_set():
                        # the stop reached no stream (R's task runner removed
                        # the turn's cancel event): the model ends its answer
                        yield P.EventDone(reason="stop", message=message(blocks, "stop"))
                        return
                    # the stop button set the turn's cancel event; the
                    # provider ends the stream as aborted
                    yield P.EventError(reason="aborted",
                                       error=message(blocks or [P.TextContent(text="")], "aborted"))
                    return
                elif k == "error":
                    raise ins[1]
        return gen()

    # the view ------------------------------------------------------------------
    def view(self, config):
        m = self.m
        sid = self.sid
        conv_before = m.server._sessions.get(sid)
        saved = None if conv_before is None else (conv_before.get("messages"), conv_before.get("head_id"))
        seen = {}
        lh, gb = m.contextgit.linear_history, m.session_store.SessionStore.get_branch

        def linear_history(msgs, head):
            out = lh(msgs, head)
            seen["chain"] = len(out)
            return out

        def get_branch(store, session_id, head_msg_id=None):
            out = gb(store, session_id, head_msg_id)
            if "chain" in seen and "fallback" not in seen and head_msg_id is None:
                seen["fallback"] = len(out) > seen["chain"]
            return out
        cards = m.ws_session._rebuild_runtime_cards

        def rebuild_cards(chain, all_msgs, session_id):
            seen["before_cards"] = [dict(x) for x in chain]
            return cards(chain, all_msgs, session_id)
        m.contextgit.linear_history, m.session_store.SessionStore.get_branch = linear_history, get_branch
        m.ws_session._rebuild_runtime_cards = rebuild_cards
        ws = FakeWS()
        try:
            self._run(m.ws_session.handle_load_session(ws, {"session_id": sid}))
        finally:
            m.contextgit.linear_history, m.session_store.SessionStore.get_branch = lh, gb
            m.ws_session._rebuild_runtime_cards = cards
            # a view is a look, not a reload: the browser's head stays
            if conv_before is None:
                m.server._sessions.pop(sid, None)
            else:
                conv_before["messages"], conv_before["head_id"] = saved
        frames = ws.of("session_loaded")
        data = frames[-1]["data"] if frames else {}
        db = m.session_store.default_store()
        meta = Path(self.dir) / "meta.json"
        stored = ""
        if meta.exists():
            stored = json.loads(meta.read_text(encoding="utf-8")).get("head_id") or ""
        msgs = db.get_messages(sid)
        view = {
            "session_id": sid,
            "stored_head": stored,
            "head_id": data.get("head_id"),
            "fallback_used": bool(seen.get("fallback", False)),
            "chain": data.get("messages", []),
            "before_cards": seen.get("before_cards", []),
            "messages": msgs,
            "all": m.persistence.aggregate_tool_messages(db.get_messages(sid)),  # it folds in place
        }
        if "branch" in self.VIEWS:
            view["branch"] = db.get_branch(sid)
        text = json.dumps(view, default=str)
        if "NaN" not in text and "Infinity" not in text:
            return json.loads(text)  # nothing JSON cannot hold: no walk over every value
        return _json_safe(json.loads(text))


def make_driver(src):
    return Driver(src)


if __name__ == "__main__":
    sys.exit(protocol.main(os.path.abspath(__file__), DECLARATION, make_driver))
