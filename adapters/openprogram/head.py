#!/usr/bin/env python3
"""The original system at its HEAD (commit f27be0ee2) behind the implementation protocol.

    OPENPROGRAM_SRC=/path/to/OpenProgram@f27be0ee2 python3 adapters/openprogram/head.py

At HEAD the original's maintainers reached the target state: ``called_by``
became ``caller``, the conversation edge a node field ``predecessor`` with a
``"ROOT"`` sentinel, and the load shows the rows ``get_branch(head)`` walks.
The entry points are the ones R has (the web chat handler and its turn
thread, the dispatcher, retry and edit, the WebSocket checkout, the stop
button, ``/spawn``, the fn-form route, the subprocess runner, ``ask_user``,
``session_context``, ``append_message``), most of them moved into the
server application (``apps/server``) and the function registry into
``openprogram.programs``; the model's sub-agent tool is ``agent``. This
driver is R's (r.py) with what HEAD changed.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import protocol  # noqa: E402
import r  # noqa: E402
from r import Refused  # noqa: E402

DECLARATION = dict(r.DECLARATION)
DECLARATION.update({
    "name": "openprogram@f27be0ee2",
    "claims": "target",
    "configs": ["target"],
    # Every op kind R writes: HEAD has an entry point for each. Where it
    # drops, refuses or loses what the op does, the adapter still drives it
    # and the harness reports the loss: a top-level runtime.exec of a script
    # that HEAD records no llm row for, a row appended through the message
    # adapter that HEAD's store refuses ("append without predecessor").
    "ops": list(r.DECLARATION["ops"]),
    # branch (get_branch at the stored head) is a legacy view: the target is
    # judged on the load; and HEAD's get_branch raises on a head its own
    # checkout puts on a function's internal row (docs/openprogram.md, H2), where the
    # load shows an empty chat.
    "views": [v for v in r.DECLARATION["views"] if v != "branch"],
    # The web chat's handler stores the user's message and its reply's
    # placeholder (insert_placeholder, the row U_reply) before it
    # acknowledges the message (ws_actions/chat.py); the dispatcher's turn
    # stores its user row and opens the placeholder (TurnWriter, the one
    # mover of the turn's head) before it calls the model. Nothing from
    # outside comes between the two, and the head moves once, to the
    # placeholder (docs/protocol.md, "together").
    "together": [["user", "reply"], ["dispatch", "reply"], ["fork-root", "reply"]],
    # rooted, object and rerun-web are how the legacy stored a row, which
    # model.Target does not read: HEAD writes its own form for each.
    "without": [w for w in r.DECLARATION["without"] if w not in ("rooted", "object", "rerun-web")],
})


class Driver(r.Driver):
    VIEWS = DECLARATION["views"]

    # HEAD imports these at module level: the schema validator and its
    # registry for structured output (the validator stand-in accepts every
    # instance: tool arguments come from the op script), the HTTP client for
    # web tools and auth.
    STANDIN_IMPORTS = ("pydantic", "fastapi", "jsonschema")
    ABSENT_IMPORTS = ("referencing", "httpx", "httpcore")

    CATALOG = "ENABLED_MODELS"
    # A wire API HEAD's budget knows how to bound (a sub-agent's requests are
    # metered); the stand-in takes the place of that API's implementation.
    API = "openai-completions"
    TOOLS_AT = ("loop_runner", "_resolve_tools")
    BRANCH_FIELD = "branch_from"
    MODULES = dict(r.Driver.MODULES)
    MODULES.update({
        "contextgit": "openprogram.context.git",
        "loop_runner": "openprogram.agent.dispatcher.loop_runner",
        "functions": "openprogram.programs",
        "task_tool": "openprogram.programs.tools.agents.agent",
        "ask_user_mod": "openprogram.programs.workflow.ask_user",
    })


    TASK_TOOL = "agent"
    ROOTED = OBJECT_INPUT = RERUN_WEB = None

    def _task_args(self, text, label, run_async):
        args = {"prompt": text, "description": label, "start_from": "inherit"}
        if run_async:
            args["run_in_background"] = True
        return args

    def _configure(self):
        # The user's default project runs turns without asking for each
        # tool (HEAD drops the composer's mode on a session's first
        # message: the session row does not exist yet when it is saved).
        ps = __import__("importlib").import_module("openprogram.store.project.project_store")
        proj = ps.get_default_project()
        ps.save_project_settings(proj.id, {**ps.load_project_settings(proj.id), "permission_mode": "bypass"})

    def after_fork(self, cold):
        # A live worker is the worker, as the original's web server is: it
        # holds the profile's worker lock for its life (worker/runner.py),
        # which HEAD checks by process id before it starts a background job
        # (resource_governance: _owner_holds_worker_lock). A cold one only
        # loads, beside the live one, which holds it.
        if cold:
            return
        lock = __import__("importlib").import_module("openprogram.worker.lock").WorkerLock()
        if not lock.try_acquire():
            raise RuntimeError(f"another worker holds {lock.path}")
        self._worker_lock = lock

    def _cli_request_fields(self):
        # HEAD's terminal chat runs its turns as the installation's owner
        # (repl/handlers.py: **local_owner_authority()); a request without a
        # tier may render and reply but is refused every host side effect.
        return __import__("importlib").import_module("openprogram.agent.authority").local_owner_authority()

    def _register_provider(self, provider):
        # Registered as the original's own providers are: HEAD meters a
        # sub-agent's requests only through a built-in ("audited") provider.
        # (after the original has registered its own, which it does on first
        # use and would put the real implementation back)
        __import__("importlib").import_module("openprogram.providers.initialization").initialize_provider_runtime()
        self.m.api_registry._register_builtin_api_providers({self.API: provider})


def make_driver(src):
    return Driver(src)


if __name__ == "__main__":
    sys.exit(protocol.main(os.path.abspath(__file__), DECLARATION, make_driver))
