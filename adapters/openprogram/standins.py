"""What the adapters put in place of the original's environment.

The original system is driven in-process through its own writers. Only the
things it would reach outside itself are replaced, and each replacement is
here, in one place:

- third-party packages (``install_imports``): pydantic, which the
  original's message types are built on, gets a small data-class
  implementation of the part of its API the original uses; the web framework
  gets module objects whose decorators register nothing; every other
  package behaves as on a machine where it is not installed (the original
  imports them inside ``try``);
- the clock (``Clock``): ``time.time`` reads the op script's clock (each node
  appended 1.5 s after the previous one, ``clock at=T`` sets it), because a
  view shows every node's timestamp;
- random ids (``seed_ids``): ``uuid.uuid4`` draws from a generator seeded by
  the session and the op, so the ids the original mints are the same on every
  run and a finding replays byte for byte;
- threads the original starts for a turn (``Conductor``): they run as real
  threads, but one at a time, and the adapter waits until the original is
  blocked on a stand-in (the language model, a function body written by the
  op script) or done before it answers an op.

Nothing of the original is copied here; the original's source is only ever
imported from the path the adapter is given.
"""
from __future__ import annotations

import _thread
import copy
import hashlib
import importlib.abc
import importlib.machinery
import json
import random
import sys
import threading
import time
import traceback
import types
import typing
import uuid

# ---------------------------------------------------------------------------
# Third-party imports
# ---------------------------------------------------------------------------

_MISSING = object()


class FieldInfo:
    """What ``pydantic.Field(...)`` returns: a default or a factory."""

    def __init__(self, default=_MISSING, *, default_factory=None, **_kw):
        self.default = _MISSING if default is Ellipsis else default
        self.default_factory = default_factory

    def make(self):
        if self.default_factory is not None:
            return self.default_factory()
        if self.default is _MISSING:
            raise TypeError("field required")
        return copy.deepcopy(self.default)


def Field(default=_MISSING, **kw):  # noqa: N802 (pydantic's name)
    return FieldInfo(default, **kw)


class _Validator:
    """A ``field_validator`` / ``model_validator`` method, kept for
    ``BaseModel.__init__`` to run."""

    def __init__(self, fn, fields, mode, kind):
        self.fn, self.fields, self.mode, self.kind = fn, fields, mode, kind

    def call(self, owner, *args):
        fn = self.fn
        if isinstance(fn, (classmethod, staticmethod)):
            fn = fn.__func__
            return fn(owner if isinstance(self.fn, classmethod) else None, *args) \
                if isinstance(self.fn, classmethod) else fn(*args)
        return fn(owner, *args)


def field_validator(*fields, mode="after", **_kw):
    return lambda fn: _Validator(fn, fields, mode, "field")


def model_validator(*, mode="after", **_kw):
    return lambda fn: _Validator(fn, (), mode, "model")


def ConfigDict(**kw):  # noqa: N802
    return dict(kw)


class _ModelMeta(type):
    def __new__(mcs, name, bases, ns, **kw):
        cls = super().__new__(mcs, name, bases, ns, **kw)
        fields: dict[str, FieldInfo] = {}
        for klass in reversed(cls.__mro__):
            for fname in klass.__dict__.get("__annotations__", {}):
                if fname.startswith("_") or fname == "model_config":
                    continue
                ann = klass.__dict__["__annotations__"][fname]
                if isinstance(ann, str) and ann.startswith("ClassVar"):
                    continue
                val = klass.__dict__.get(fname, _MISSING)
                if isinstance(val, FieldInfo):
                    info = val
                elif val is _MISSING:
                    info = fields.get(fname) or FieldInfo()
                else:
                    info = FieldInfo(val)
                fields[fname] = info
        cls.__op_fields__ = fields
        cls.__op_hints__ = None
        validators = []
        for klass in reversed(cls.__mro__):
            for v in klass.__dict__.values():
                if isinstance(v, _Validator):
                    validators.append(v)
        cls.__op_validators__ = validators
        return cls


def _hints(cls):
    if cls.__op_hints__ is None:
        try:
            mod = sys.modules.get(cls.__module__)
            cls.__op_hints__ = typing.get_type_hints(cls, vars(mod) if mod else None)
        except Exception:
            cls.__op_hints__ = {}
    return cls.__op_hints__


def _coerce(hint, value):
    """Nested dicts become the models their field is annotated with, as
    pydantic validates them (the model catalog is read that way)."""
    if isinstance(value, dict) and isinstance(hint, type) and issubclass(hint, BaseModel):
        return hint.model_validate(value)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is list and isinstance(value, list) and args:
        return [_coerce(args[0], v) for v in value]
    if origin in (typing.Union, types.UnionType) and isinstance(value, dict):
        for a in args:
            if isinstance(a, type) and issubclass(a, BaseModel):
                try:
                    return a.model_validate(value)
                except Exception:
                    continue
    return value


class BaseModel(metaclass=_ModelMeta):
    """The part of pydantic's BaseModel the original uses: declared fields
    with defaults, nested models from dicts, copy, dump and validate. Values
    are kept as given (no coercion of scalars)."""

    model_config: dict = {}

    def __init__(self, **data):
        cls = type(self)
        for v in cls.__op_validators__:
            if v.kind == "model" and v.mode == "before":
                data = dict(v.call(cls, data))
        object.__setattr__(self, "__op_set__", set(k for k in data if k in cls.__op_fields__))
        hints = None
        for name, info in type(self).__op_fields__.items():
            if name in data:
                v = data.pop(name)
                if isinstance(v, dict) or isinstance(v, list):
                    if hints is None:
                        hints = _hints(type(self))
                    if name in hints:
                        v = _coerce(hints[name], v)
            else:
                try:
                    v = info.make()
                except TypeError:
                    raise TypeError(f"{type(self).__name__}: field {name!r} required") from None
            object.__setattr__(self, name, v)
        # pydantic ignores unknown keys by default
        for val in cls.__op_validators__:
            if val.kind == "field":
                for name in val.fields:
                    if name in cls.__op_fields__:
                        object.__setattr__(self, name, val.call(cls, getattr(self, name)))
        for val in cls.__op_validators__:
            if val.kind == "model" and val.mode == "after":
                out = val.fn(self) if not isinstance(val.fn, (classmethod, staticmethod)) else val.call(cls, self)
                if out is not None and out is not self:
                    self.__dict__.update(out.__dict__)

    @classmethod
    def model_validate(cls, obj, **_kw):
        if isinstance(obj, cls):
            return obj
        if isinstance(obj, dict):
            return cls(**dict(obj))
        if hasattr(obj, "__dict__"):
            return cls(**dict(vars(obj)))
        raise TypeError(f"cannot validate {type(obj).__name__} as {cls.__name__}")

    @classmethod
    def model_validate_json(cls, text, **_kw):
        return cls.model_validate(json.loads(text))

    @property
    def model_fields_set(self):
        return set(self.__dict__.get("__op_set__", ()))

    @classmethod
    def _fields(cls):
        return cls.__op_fields__

    model_fields = property(lambda self: dict(type(self).__op_fields__))

    def model_dump(self, *, exclude_none=False, exclude=None, include=None, mode=None, _as=None, **_kw):
        out = {}
        cls = _as or type(self)
        hints = _hints(cls)
        for name in cls.__op_fields__:
            if exclude and name in exclude:
                continue
            if include and name not in include:
                continue
            v = _dump(getattr(self, name, None), exclude_none, mode, hints.get(name))
            if exclude_none and v is None:
                continue
            out[name] = v
        return out

    def model_dump_json(self, **kw):
        return json.dumps(self.model_dump(**kw), default=str)

    def model_copy(self, *, update=None, deep=False):
        new = copy.deepcopy(self) if deep else copy.copy(self)
        for k, v in (update or {}).items():
            object.__setattr__(new, k, v)
        return new

    def dict(self, **kw):
        return self.model_dump(**kw)

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n, None) == getattr(other, n, None) for n in type(self).__op_fields__)

    __hash__ = object.__hash__

    def __repr__(self):
        inner = ", ".join(f"{n}={getattr(self, n, None)!r}" for n in type(self).__op_fields__)
        return f"{type(self).__name__}({inner})"

    def __str__(self):
        # pydantic 2's str() of a model: its fields, space-separated, no
        # class name (the original stores it where a tool result has no
        # text: json.dumps(result, default=str)).
        return " ".join(f"{n}={getattr(self, n, None)!r}" for n in type(self).__op_fields__)


def _declared(hint):
    """The model class a field is declared as, when it names one (pydantic
    serialises a value by its declared type, not by its subclass)."""
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return hint
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1:
        return _declared(args[0])
    return None


def _item_hint(hint):
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        hint = args[0] if len(args) == 1 else None
    if typing.get_origin(hint) in (list, tuple, set, frozenset):
        a = typing.get_args(hint)
        return a[0] if a else None
    return None


def _dump(v, exclude_none, mode=None, hint=None):
    if isinstance(v, BaseModel):
        as_ = _declared(hint)
        return v.model_dump(exclude_none=exclude_none, mode=mode,
                            _as=as_ if as_ is not None and isinstance(v, as_) else None)
    if isinstance(v, (list, tuple)) or (mode == "json" and isinstance(v, (set, frozenset))):
        ih = _item_hint(hint)
        return [_dump(x, exclude_none, mode, ih) for x in v]
    if isinstance(v, dict):
        return {k: _dump(x, exclude_none, mode) for k, x in v.items()}
    return v


class AnyUrl(str):
    pass


class _Response:
    def __init__(self, content=None, status_code=200, **kw):
        self.content = content
        self.status_code = status_code
        self.body = json.dumps(content, default=str).encode() if content is not None else b""


class _Router:
    """A web app or router whose route decorators keep the handlers, so a
    route can be called directly; nothing is served."""

    def __init__(self, *a, **kw):
        self.routes: dict[tuple[str, str], typing.Callable] = {}

    def _route(self, method):
        def deco_factory(path, *a, **kw):
            def deco(fn):
                self.routes[(method, path)] = fn
                return fn
            return deco
        return deco_factory

    def __getattr__(self, name):
        if name in ("get", "post", "put", "delete", "patch", "websocket", "api_route"):
            return self._route(name.upper())
        if name in ("on_event", "middleware", "exception_handler"):
            return lambda *a, **kw: (lambda fn: fn)
        if name in ("include_router", "mount", "add_middleware"):
            return lambda *a, **kw: None
        raise AttributeError(name)


def _module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    m.__path__ = []  # a package, so submodule imports resolve through the finder
    m.__op_standin__ = True
    return m


def _standin_modules():
    pyd = _module("pydantic", BaseModel=BaseModel, Field=Field, FieldInfo=FieldInfo, AnyUrl=AnyUrl,
                  field_validator=field_validator, model_validator=model_validator,
                  ConfigDict=ConfigDict, StrictBool=bool, StrictStr=str, StrictInt=int,
                  ValidationError=ValueError, VERSION="stand-in")
    responses = _module("fastapi.responses", JSONResponse=_Response, HTMLResponse=_Response,
                        Response=_Response, FileResponse=_Response, StreamingResponse=_Response,
                        RedirectResponse=_Response, PlainTextResponse=_Response)

    class HTTPException(Exception):
        def __init__(self, status_code=500, detail=None, **kw):
            super().__init__(detail)
            self.status_code, self.detail = status_code, detail

    fastapi = _module("fastapi", FastAPI=_Router, APIRouter=_Router, HTTPException=HTTPException,
                      Request=object, WebSocket=object, WebSocketDisconnect=Exception,
                      Body=lambda *a, **kw: None, Query=lambda *a, **kw: None,
                      Depends=lambda *a, **kw: None, UploadFile=object, File=lambda *a, **kw: None,
                      Form=lambda *a, **kw: None, responses=responses)
    class SchemaError(Exception):
        pass

    class ValidationError(Exception):
        pass

    class Validator:
        """A JSON-schema validator that accepts every instance: the tool
        arguments the stand-in model sends are the op script's, which the
        original's own coercion has already shaped."""

        def __init__(self, schema=None, *a, **kw):
            self.schema = schema

        @classmethod
        def check_schema(cls, schema):
            return None

        def validate(self, instance):
            return None

        def iter_errors(self, instance):
            return iter(())

        def is_valid(self, instance):
            return True

    jvalidators = _module("jsonschema.validators", validator_for=lambda schema, default=None: Validator,
                          extend=lambda cls, *a, **kw: cls, create=lambda *a, **kw: Validator)
    jsonschema = _module("jsonschema", SchemaError=SchemaError, ValidationError=ValidationError,
                         validators=jvalidators, Draft7Validator=Validator,
                         Draft202012Validator=Validator, validate=lambda *a, **kw: None)
    return {"pydantic": pyd, "fastapi": fastapi, "fastapi.responses": responses,
            "jsonschema": jsonschema, "jsonschema.validators": jvalidators,
            "jsonschema.exceptions": _module("jsonschema.exceptions", SchemaError=SchemaError,
                                             ValidationError=ValidationError)}


class _AbsentModule(types.ModuleType):
    """A package the original imports at module level but uses only off the
    DAG's paths (an HTTP client, a schema registry): every name is a
    class that refuses to be used."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        mod = self.__name__

        def refuse(*a, **kw):
            raise NotImplementedError(f"{mod}.{name} is not available to the adapter")
        v = type(name, (Exception,), {"__init__": refuse, "__call__": refuse})
        setattr(self, name, v)
        return v


class _ImportStandins(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, src: str, names, absent, real: bool):
        self.src = src
        self.real = real
        self.modules = {k: v for k, v in _standin_modules().items() if k.split(".")[0] in names}
        self.absent = set(absent)

    def find_spec(self, name, path, target=None):
        top = name.split(".")[0]
        if top == "openprogram" or top in sys.stdlib_module_names or top.startswith("_"):
            return None
        if path is not None and any(str(p).startswith(self.src) for p in path):
            return None  # a submodule of a package of the source tree
        if top in sys.modules and getattr(sys.modules[top], "__file__", "") and \
                str(sys.modules[top].__file__).startswith(self.src):
            return None
        if name in self.modules or top in self.absent:
            if self.real and importlib.machinery.PathFinder.find_spec(top) is not None:
                return None
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        # Only imports made by the original are answered: the standard
        # library's own optional imports keep their normal behaviour.
        if not _imported_from(self.src):
            return None
        if self.real:
            return None
        raise ModuleNotFoundError(f"No module named {name!r} (not available to the adapter)", name=name)

    def create_module(self, spec):
        if spec.name in self.modules:
            return self.modules[spec.name]
        m = _AbsentModule(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


def _imported_from(src: str) -> bool:
    f = sys._getframe(2)
    while f is not None:
        fn = f.f_code.co_filename
        if not (fn.startswith("<frozen") or "importlib" in fn):
            return fn.startswith(src)
        f = f.f_back
    return False


def install_imports(src: str, names=("pydantic", "fastapi"), absent=(), real: bool = False) -> None:
    """Put the import stand-ins in place: ``names`` get the stand-ins above,
    ``absent`` the refusing module; every other third-party import of the
    original fails as on a machine without it. With ``real``
    (OPENPROGRAM_REAL_DEPS=1) installed packages are used where present,
    to check the stand-ins against the real ones."""
    sys.meta_path.insert(0, _ImportStandins(src, set(names), absent, real))


# ---------------------------------------------------------------------------
# Processes: git
# ---------------------------------------------------------------------------

def install_git() -> None:
    """The original keeps each session and project in a git repository and
    runs ``git`` for every commit; none of it is read back by a load. A
    ``git`` command succeeds with no output (``init`` makes the ``.git``
    directory its callers test for); other commands run as they are."""
    import subprocess
    from pathlib import Path
    real = subprocess.run

    def run(args, *a, **kw):
        if isinstance(args, (list, tuple)) and args and args[0] == "git":
            argv = list(args[1:])
            path = None
            if len(argv) >= 2 and argv[0] == "-C":
                path, argv = argv[1], argv[2:]
            if argv[:1] == ["init"]:
                Path(path or kw.get("cwd") or ".", ".git").mkdir(parents=True, exist_ok=True)
            text = kw.get("text") or kw.get("encoding") or kw.get("universal_newlines")
            empty = "" if text else b""
            return subprocess.CompletedProcess(args, 0, empty, empty)
        return real(args, *a, **kw)
    subprocess.run = run


# ---------------------------------------------------------------------------
# Clock
# ---------------------------------------------------------------------------

class Clock:
    """The op script's clock: T + 1.5·k, k the nodes appended since T was set
    (ops/README.md, "clock"). ``tick`` is called once per node the
    original appends (not for a rebuild from disk)."""

    def __init__(self):
        self.t = 1782000000.0
        self.k = 0
        self.real = time.time

    def now(self) -> float:
        return self.t + 1.5 * self.k

    def set(self, t: float, k: int = 0) -> None:
        self.t, self.k = float(t), int(k)

    def tick(self) -> None:
        self.k += 1

    def install(self) -> None:
        time.time = self.now


# ---------------------------------------------------------------------------
# Ids
# ---------------------------------------------------------------------------

_rng = random.Random(0)
_seed = [""]         # the session and op the main thread's draws are seeded with
_thread_rngs: dict = {}  # a thread's name in the tree of threads -> its generator


def _uuid4():
    """A random id, from the generator of the thread that draws it: the
    adapter's own thread (the one that applies an op) draws from the
    generator seeded for the op; every thread the original starts from
    one of its own (``_op_ident``: its place in the tree of threads started
    since the op that started the first of them) draws from a generator of
    its own, so ids do not depend on how the threads interleave."""
    ident = getattr(threading.current_thread(), "_op_ident", None)
    if ident is None:
        return uuid.UUID(bytes=_rng.randbytes(16), version=4)
    rng = _thread_rngs.get(ident)
    if rng is None:
        h = hashlib.sha256(f"{_seed[0]}:{ident}".encode()).digest()
        rng = _thread_rngs[ident] = random.Random(int.from_bytes(h[:8], "big"))
    return uuid.UUID(bytes=rng.randbytes(16), version=4)


def seed_ids(*parts) -> None:
    """Seed the generator ``uuid.uuid4`` draws from in the adapter's own
    thread; the adapter seeds it with the session id and the op's seq
    before every op. The first part names the session the threads' own
    generators are seeded for."""
    h = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    _rng.seed(int.from_bytes(h[:8], "big"))
    if parts and _seed[0] != str(parts[0]):
        _thread_rngs.clear()
    _seed[0] = str(parts[0]) if parts else ""
    _op[0] = ":".join(str(p) for p in parts[1:])


_op = [""]  # the op now applied, naming the threads the adapter's thread starts


def thread_ident(parent, name: str) -> str:
    """The name of a thread about to be started by ``parent`` in the tree of
    threads: the parent's, then the target's name and how many threads of
    that name the parent started before (the adapter's own thread counts
    per op)."""
    pid = getattr(parent, "_op_ident", None)
    base = f"op{_op[0]}" if pid is None else pid
    counts = _child_counts.setdefault(base, {})
    n = counts.get(name, 0)
    counts[name] = n + 1
    return f"{base}/{name}#{n}"


_child_counts: dict = {}


def install_ids() -> None:
    uuid.uuid4 = _uuid4


# ---------------------------------------------------------------------------
# Threads
# ---------------------------------------------------------------------------

class Waiter:
    """A driven thread blocked on a stand-in until the adapter hands it the
    next instruction."""

    def __init__(self, role: str, key: str, thread: threading.Thread):
        self.role, self.key, self.thread = role, key, thread
        self.instruction = None
        self.given = False


# How long the conductor waits between two looks at the threads it drives.
POLL = float(__import__("os").environ.get("OPENPROGRAM_ADAPTER_POLL", "0.0005"))


class Conductor:
    """Runs the original's threads one step at a time.

    A stand-in (the model, a function body) calls ``wait(role, key)`` and
    blocks; the adapter calls ``give(waiter, instruction)`` and then
    ``settle()``, which returns once every thread the original started is
    blocked (on a stand-in, a lock, a queue, a join) or has ended. A deferred
    thread (the web chat's turn, which the original starts right after
    writing the user row) is held until the op that makes it run
    (``reply``)."""

    def __init__(self, deadline: float = 8.0):
        self.cv = threading.Condition()
        self.driven: list[threading.Thread] = []
        self.waiters: list[Waiter] = []
        self.deferred: list[threading.Thread] = []
        self.errors: list[str] = []
        self.adopted: list[threading.Thread] = []
        self.held: list[threading.Thread] = []
        self.deadline = deadline
        self.dead = False
        # threads of the original asleep (time.sleep): they wake when the
        # conductor says, earliest first, on a clock of their own
        self.sleepers: list = []
        self.sleep_now = 0.0
        self._sleep_n = 0
        # thread ident -> the thread it is joining: a join on a thread that
        # has ended is not a blocked thread, whatever its frame says
        self.joins: dict = {}
        self.progress = lambda: 0  # the driver's count of rows appended

    # thread bookkeeping -------------------------------------------------
    def adopt(self, t: threading.Thread) -> None:
        with self.cv:
            self.driven.append(t)
            self.adopted.append(t)

    def started_since(self, mark: int) -> list:
        with self.cv:
            return self.adopted[mark:]

    def mark(self) -> int:
        with self.cv:
            return len(self.adopted)

    def defer(self, t: threading.Thread) -> None:
        with self.cv:
            self.deferred.append(t)

    def has_deferred(self) -> bool:
        with self.cv:
            return bool(self.deferred)

    def start_deferred(self) -> list:
        with self.cv:
            ts, self.deferred = self.deferred, []
        for t in ts:
            t.start_now()
        return ts

    def drop_deferred(self) -> None:
        with self.cv:
            self.deferred = []

    def failed(self, text: str) -> None:
        with self.cv:
            self.errors.append(text)
            self.cv.notify_all()

    def take_errors(self) -> list[str]:
        with self.cv:
            e, self.errors = self.errors, []
            return e

    # the stand-ins' side --------------------------------------------------
    def wait(self, role: str, key: str = ""):
        w = Waiter(role, key, threading.current_thread())
        with self.cv:
            self.waiters.append(w)
            self.cv.notify_all()
            while not w.given:
                self.cv.wait()
            self.waiters.remove(w)
        if isinstance(w.instruction, BaseException):
            raise w.instruction
        return w.instruction

    def sleep(self, seconds: float) -> None:
        """A driven thread's ``time.sleep``: it sleeps until the conductor
        wakes it, which it does only when every other thread is blocked, so
        a poll loop sees the state a schedule left, not a race with it."""
        with self.cv:
            self._sleep_n += 1
            s = _Sleeper(self.sleep_now + max(float(seconds or 0), 0.0), self._sleep_n)
            self.sleepers.append(s)
            self.cv.notify_all()
            while not s.woken:
                self.cv.wait()

    def timed_wait(self, cond, timeout: float) -> bool:
        """A driven thread's ``Condition.wait(timeout)`` (an Event's, a
        queue's): it waits until notified, or until the conductor times it
        out, which it does as it wakes a sleeper (the earliest deadline on
        the conductor's clock first, once every other thread is blocked);
        the real clock never times it out, so a poll loop or a watchdog
        runs at the same point of every run. The wait is
        ``Condition.wait``'s own, with no timeout: the conductor times it
        out by waking its waiter alone (``_time_out``), so the thread sits
        in one blocking call until then instead of polling, and every look
        at the threads finds it where the last one did."""
        if not cond._is_owned():
            raise RuntimeError("cannot wait on un-acquired lock")
        waiter = _thread.allocate_lock()
        waiter.acquire()
        cond._waiters.append(waiter)
        with self.cv:
            self._sleep_n += 1
            s = _Sleeper(self.sleep_now + max(float(timeout), 0.0), self._sleep_n)
            s.cond, s.waiter = cond, waiter
            self.sleepers.append(s)
            self.cv.notify_all()
        saved = cond._release_save()
        resting = True  # for _woken: the thread is in its one blocking call
        try:
            waiter.acquire()
            resting = False
        finally:
            cond._acquire_restore(saved)
            with self.cv:
                if s in self.sleepers:
                    self.sleepers.remove(s)
        return not s.timed_out

    def _time_out(self, s) -> None:
        """Wake a timed wait as its timeout would: its waiter leaves the
        condition's waiters and is released, as a notify releases one,
        unless a notify took it first (the wait then returns True)."""
        cond = s.cond
        if not cond.acquire(timeout=self.deadline):
            raise TimeoutError(f"a timed wait's condition stayed held for {self.deadline:g}s")
        try:
            if s.waiter in cond._waiters:
                cond._waiters.remove(s.waiter)
                s.timed_out = True
                s.waiter.release()
        finally:
            cond.release()

    def joining(self, t: threading.Thread, target) -> None:
        with self.cv:
            if target is None:
                self.joins.pop(t.ident, None)
            else:
                self.joins[t.ident] = target

    def _wake_one(self, among=None) -> bool:
        with self.cv:
            pool = [s for s in self.sleepers if among is None or s in among]
            if not pool:
                return False
            s = min(pool, key=lambda x: (x.at, x.n))
            self.sleepers.remove(s)
            self.sleep_now = max(self.sleep_now, s.at)
            s.woken = True
            self.cv.notify_all()
        if s.cond is not None:
            # outside cv: the waiting thread took its condition before cv
            self._time_out(s)
        return True

    def _joins(self) -> dict:
        with self.cv:
            return dict(self.joins)

    def _signature(self):
        with self.cv:
            return (self.progress(), len(self.adopted), len(self.held), len(self.deferred),
                    tuple(id(w) for w in self.waiters), len(self.errors),
                    tuple(t.ident for t in self.driven if _live(t)))

    # the adapter's side ---------------------------------------------------
    def waiting(self, role: str = None, key: str = None):
        with self.cv:
            for w in reversed(self.waiters):
                if (role is None or w.role == role) and (key is None or w.key == key) and not w.given:
                    return w
        return None

    def give(self, w: Waiter, instruction) -> None:
        with self.cv:
            w.instruction, w.given = instruction, True
            self.cv.notify_all()

    def hold(self, t: threading.Thread) -> None:
        with self.cv:
            self.held.append(t)

    def is_driven(self, t: threading.Thread) -> bool:
        with self.cv:
            return t in self.driven

    def holds(self, t) -> bool:
        with self.cv:
            return t in self.held

    def release(self, t) -> None:
        with self.cv:
            if t not in self.held:
                return
            self.held.remove(t)
        t.start_now()

    def _release_one(self) -> bool:
        with self.cv:
            if not self.held:
                return False
            t = self.held.pop(0)
        t.start_now()
        return True

    def expect(self, waiter=None, ended=()) -> "Waiter | None":
        """Wait until a waiter ``waiter(w)`` accepts is blocked on a stand-in,
        or every thread of ``ended`` has ended (then None), or no thread the
        original started is alive (None). Then let the rest come to rest."""
        found = self._run_until(waiter, ended)
        self.settle()
        return found

    def _run_until(self, waiter, ended):
        end = time.monotonic() + self.deadline
        last, same = None, 0
        while True:
            with self.cv:
                if self.errors:
                    return None
                if waiter is not None:
                    for w in reversed(self.waiters):
                        if not w.given and waiter(w):
                            return w
                self.driven = [t for t in self.driven if _live(t)]
                alive = list(self.driven)
            if ended and not any(_live(t) for t in ended):
                return None
            if not alive and not ended and not self.held:
                return None
            snap = _blocked_snapshot(alive, self._joins())
            same = same + 1 if snap is not None and snap == last else 0
            last = snap
            if same >= 3 and (self._release_one() or self._wake_one()):
                last, same = None, 0
                continue
            if time.monotonic() > end:
                raise TimeoutError(
                    f"the original did not come to rest within {self.deadline:g}s:\n"
                    + dump_stacks(alive))
            with self.cv:
                self.cv.wait(POLL)

    def settle(self, until=None) -> None:
        """Wait until every thread the original started is blocked or done.
        A thread one of them started runs once they all are: one schedule
        of the many real ones, the same on every run. With ``until``, stop
        at the first rest at which ``until()`` holds, before any sleeper is
        woken: what the op waits for is there, and the clock stays put."""
        end = time.monotonic() + self.deadline
        last, same = None, 0
        # A round wakes every sleeper once; a round in which nothing happened
        # (no row, no thread, no waiter) means the rest is idle polling.
        round_, sig = None, None
        while True:
            with self.cv:
                self.driven = [t for t in self.driven if _live(t)]
                alive = list(self.driven)
            snap = _blocked_snapshot(alive, self._joins()) if alive else ()
            same = same + 1 if snap is not None and snap == last else 0
            last = snap
            if same >= 3 or (not alive and same >= 1):
                if until is not None and until():
                    return
                if self._release_one():
                    last, same, round_ = None, 0, None
                    continue
                now = self._signature()
                if round_ is None or now != sig:
                    with self.cv:
                        round_ = list(self.sleepers)
                    sig = now
                if self._wake_one(round_):
                    last, same = None, 0
                    continue
                if _DEBUG:
                    frames = sys._current_frames()
                    for t in alive:
                        f = frames.get(t.ident)
                        if f is not None:
                            sys.stderr.write(f"[conductor] settled: {t.name} at {f.f_code.co_filename.rsplit('/', 1)[-1]}:"
                                             f"{f.f_lineno} {f.f_code.co_name} <- {f.f_back.f_code.co_name if f.f_back else ''}"
                                             f" <- {f.f_back.f_back.f_code.co_name if f.f_back and f.f_back.f_back else ''}\n")
                return
            if time.monotonic() > end:
                raise TimeoutError(
                    f"the original did not come to rest within {self.deadline:g}s:\n"
                    + dump_stacks(alive))
            _real_sleep(POLL)


_real_sleep = time.sleep


class _Sleeper:
    """A sleeping thread (``cond`` None) or a timed wait on ``cond``."""
    __slots__ = ("at", "n", "woken", "cond", "waiter", "timed_out")

    def __init__(self, at, n):
        self.at, self.n, self.woken = at, n, False
        self.cond = self.waiter = None
        self.timed_out = False


_sleep_conductor = None


def _sleep(seconds):
    """``time.sleep`` as the original calls it: a thread the conductor drives
    sleeps until the conductor wakes it; any other a real sleep, in a Python
    frame so the conductor sees the thread as blocked."""
    c = _sleep_conductor
    if c is not None and not c.dead and c.is_driven(threading.current_thread()):
        return c.sleep(seconds)
    _real_sleep(seconds)


def install_sleep(conductor=None) -> None:
    global _sleep_conductor
    _sleep_conductor = conductor
    time.sleep = _sleep


_BLOCKING = {
    "threading.py": {"wait", "_wait_for_tstate_lock", "acquire"},
    "queue.py": {"get", "put"},
    "selectors.py": {"select"},
    "thread.py": {"_worker"},  # concurrent.futures: an idle pool thread
    "standins.py": {"timed_wait"},  # Conductor.timed_wait: a driven thread's timed wait
}


def _blocked_snapshot(threads, joins=None):
    """The top frame of every thread if all of them are blocked (waiting on
    a condition, event, join, queue, selector, sleep, or an idle pool
    thread), else None. A thread joining one that has ended (``joins``:
    ident -> the thread joined) is not blocked: it is about to go on."""
    frames = sys._current_frames()
    snap = []
    for t in threads:
        f = frames.get(t.ident) if t.ident is not None else None
        if f is None:
            if _live(t):
                return None  # started and not yet running, or about to end
            continue
        target = (joins or {}).get(t.ident)
        if target is not None and getattr(target, "_op_finished", False):
            return None
        code = f.f_code
        base = code.co_filename.rsplit("/", 1)[-1]
        if code is _sleep.__code__ or (code.co_name in _BLOCKING.get(base, ()) and not _woken(f, base)):
            snap.append((t.ident, id(code), f.f_lasti))
        else:
            return None
    return tuple(snap)


def _live(t) -> bool:
    """Whether a thread is alive for the conductor: from the moment it is
    started (before the interpreter has run it: ``is_alive`` is false until
    then) until its target has returned."""
    if getattr(t, "_op_started", False):
        return not getattr(t, "_op_finished", False)
    return t.is_alive()


def _woken(f, base: str) -> bool:
    """Whether a thread whose top frame is a blocking call has in fact been
    woken and not yet run: a condition that was notified (its waiter lock
    released), a join whose thread has ended, a selector with an event
    ready (an event loop another thread has just handed a result), an idle
    pool thread whose work queue holds an item. A loaded machine can leave
    such a thread unscheduled for milliseconds."""
    try:
        loc = f.f_locals
        if base == "threading.py" and f.f_code.co_name == "wait":
            w = loc.get("waiter")
            return w is not None and not w.locked()
        if base == "standins.py" and f.f_code.co_name == "timed_wait":
            w = loc.get("waiter")
            return not loc.get("resting") or w is None or not w.locked()
        if base == "threading.py" and f.f_code.co_name == "_wait_for_tstate_lock":
            lock = loc.get("lock")
            return lock is not None and not lock.locked()
        if base == "selectors.py" and f.f_code.co_name == "select":
            sel = getattr(loc.get("self"), "_selector", None)
            return sel is not None and bool(sel.poll(0))
        if base == "thread.py" and f.f_code.co_name == "_worker":
            # An idle pool thread with work queued (R's task runner has
            # just submitted a task): its get has returned or will, but the
            # thread has not run since, so its frame has not moved.
            q = loc.get("work_queue")
            return q is not None and not q.empty()
    except Exception:
        return False
    return False


def dump_stacks(threads) -> str:
    frames = sys._current_frames()
    out = []
    for t in threads:
        f = frames.get(t.ident)
        if f is not None:
            out.append(f"--- {t.name}\n" + "".join(traceback.format_stack(f)[-12:]))
    return "\n".join(out)


# Threads the original starts that the conductor does not drive: the
# deferred flush of the sessions' registry (index.json, no view reads it).
# Every other thread, the ones that only wait on something (a cancel bridge,
# queue pumps) included, is driven: when one wakes is part of the one order
# the threads run in.
HELPER_THREADS = {"_do_deferred_flush"}


_process = threading.local()
_DEBUG = bool(__import__("os").environ.get("OPENPROGRAM_ADAPTER_DEBUG"))


def current_process() -> int:
    """Which emulated process the calling thread belongs to: 0 is the
    worker itself; a subprocess stand-in gives its thread a new number, and
    threads inherit their starter's."""
    return getattr(_process, "id", 0)


def set_process(pid: int) -> None:
    _process.id = pid


def install_threads(conductor: Conductor, deferred_targets) -> None:
    """Replace ``threading.Thread`` so threads the original starts are
    adopted by the conductor (and the turn threads in ``deferred_targets``
    held until their op). ``deferred_targets(thread)`` says whether a
    thread is one of them."""
    base = threading.Thread

    class Thread(base):
        def __init__(self, *a, **kw):
            # threading.Timer calls threading.Thread.__init__ on itself
            base.__init__(self, *a, **kw)
            self._op_process = current_process()
            self._op_tracked = False
            target = getattr(self, "_target", None)
            self._op_ident = thread_ident(threading.current_thread(),
                                          getattr(target, "__name__", "") or type(self).__name__)

        def start(self):
            target = getattr(self, "_target", None)
            name = getattr(target, "__name__", "")
            if _DEBUG:
                sys.stderr.write(f"[conductor] {threading.current_thread().name} starts {self.name} ({name})\n")
            if isinstance(self, threading.Timer) or name in HELPER_THREADS:
                return base.start(self)
            if deferred_targets(self):
                conductor.defer(self)
                return None
            if conductor.is_driven(threading.current_thread()):
                conductor.hold(self)
                return None
            return self.start_now()

        def start_now(self):
            self._op_tracked = True
            self._op_started = True
            conductor.adopt(self)
            if _DEBUG:
                sys.stderr.write(f"[conductor] start {self.name} ({getattr(getattr(self, '_target', None), '__name__', '')})\n")
            return base.start(self)

        def join(self, timeout=None):
            conductor.release(self)  # a held thread someone waits for runs now
            me = threading.current_thread()
            conductor.joining(me, self)
            try:
                return base.join(self, timeout)
            finally:
                conductor.joining(me, None)

        def is_alive(self):
            return conductor.holds(self) or base.is_alive(self)

        def run(self):
            set_process(self._op_process)
            try:
                super().run()
            except BaseException as e:  # the original's thread died: a finding for the op
                text = f"{type(e).__name__} in the original's thread {self.name}:\n" + traceback.format_exc()
                if self.daemon:
                    # a daemon thread's exception ends that thread only:
                    # threading.excepthook prints it and the server goes on
                    # (R's dispatcher _watch thread calls into its turn's
                    # event loop when a later stop sets the turn's cancel
                    # event, after the loop closed); what it changed on
                    # disk is judged by the views
                    sys.stderr.write(text)
                elif self._op_tracked and not conductor.dead:
                    conductor.failed(text)
            finally:
                self._op_finished = True
                if _DEBUG:
                    sys.stderr.write(f"[conductor] end {self.name}\n")
                with conductor.cv:
                    conductor.cv.notify_all()

    threading.Thread = Thread

    # A driven thread's timed wait on a condition (an Event's, a queue's) is
    # timed out by the conductor's clock, not the real one (timed_wait).
    base_wait = threading.Condition.wait

    def wait(cond, timeout=None):
        if timeout is None or conductor.dead or not conductor.is_driven(threading.current_thread()):
            return base_wait(cond, timeout)
        return conductor.timed_wait(cond, timeout)
    threading.Condition.wait = wait
    # threading.Timer subclasses the original class; keep it working.


class ThreadPerTask:
    """A thread pool that starts a thread of its own for every task: the
    original's pool reuses an idle worker, which then runs beside the thread
    that submitted the task, in whatever order the interpreter picks; a new
    thread the conductor holds until every other one is at rest, the same
    order on every run (the first task of a pool's, every time)."""

    def __init__(self, max_workers=None, thread_name_prefix="", **kw):
        self._prefix = thread_name_prefix or "pool"
        self._n = 0

    def submit(self, fn, /, *args, **kwargs):
        import concurrent.futures
        fut = concurrent.futures.Future()

        def run():
            if not fut.set_running_or_notify_cancel():
                return
            try:
                fut.set_result(fn(*args, **kwargs))
            except BaseException as e:  # noqa: BLE001 (the future carries it, as the pool's does)
                fut.set_exception(e)
        self._n += 1
        threading.Thread(target=run, name=f"{self._prefix}_{self._n}", daemon=True).start()
        return fut

    def shutdown(self, wait=True, *, cancel_futures=False):
        pass
