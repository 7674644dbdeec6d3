#!/usr/bin/env python3
"""Sessions written through the original's message adapter, with the view
the original itself shows for each.

    OPENPROGRAM_SRC=/path/to/OpenProgram@c69b08e49 \\
        python3 adapters/openprogram/record.py MESSAGES.json OUT
    OPENPROGRAM_SRC=... python3 adapters/openprogram/record.py --view DIR...

MESSAGES.json maps a session id to the message dicts to append, in order.
Each session is created in a store of the original's own
(``SessionStore``, in a fresh temporary home), each message goes through
``SessionStore.append_message`` (``_msg_to_node``, the path every writer
that holds a message dict takes), the turn is committed, and the session
is loaded with ``handle_load_session`` as a browser would. OUT receives
``sessions/<id>/`` (the folder as the original left it, without ``.git``
and the tools' empty ``workdir/``)
and ``expected/<id>.json`` (``head_id`` and ``chain`` of its
``session_loaded`` frame, keys in the original's order): the layout of
corpus/conformance. A message the original refuses (it raises) stops the
recording with its error: no folder is written for a session it refused.

With ``--view`` it records nothing: it copies each session folder DIR into
the temporary home, loads it as the original would (the folder's name is the
session's id) and prints one line of JSON per folder, ``{"dir", "head_id",
"chain"}``. The folders are only read.

Nothing here writes outside OUT and the temporary home.
"""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from r import FakeWS  # noqa: E402  the browser's end of a WebSocket, as the adapter keeps it


USAGE = ("usage: OPENPROGRAM_SRC=DIR python3 adapters/openprogram/record.py MESSAGES.json OUT\n"
         "       OPENPROGRAM_SRC=DIR python3 adapters/openprogram/record.py --view SESSION_DIR...")


def loaded(ws_session, sid: str) -> dict | None:
    """The data of the session_loaded frame the original sends for sid."""
    ws = FakeWS()
    asyncio.run(ws_session.handle_load_session(ws, {"session_id": sid}))
    frames = [f for f in ws.frames if f.get("type") == "session_loaded"]
    return frames[-1]["data"] if frames else None


def main(argv: list[str]) -> int:
    view = len(argv) > 2 and argv[1] == "--view"
    if not view and len(argv) != 3:
        print(USAGE, file=sys.stderr)
        return 2
    src = os.environ.get("OPENPROGRAM_SRC", "")
    if not os.path.isdir(os.path.join(src, "openprogram")):
        print(f"record: OPENPROGRAM_SRC={src!r}: no openprogram/ package there", file=sys.stderr)
        return 2

    home = tempfile.mkdtemp(prefix="op-record-")
    os.environ["HOME"] = home  # the original's settings and stores live under it
    sys.path.insert(0, src)
    from openprogram.store.session import session_store
    from openprogram.webui.ws_actions import session as ws_session

    root = os.path.join(home, "sessions-git")
    store = session_store.SessionStore(root)
    session_store._default_store = store  # what default_store() hands every reader
    try:
        if view:
            return view_folders(session_store, ws_session, root, argv[2:])
        with open(argv[1], encoding="utf-8") as f:
            cases = json.load(f)
        return record(store, ws_session, root, cases, argv[1], argv[2])
    finally:
        shutil.rmtree(home, ignore_errors=True)


def view_folders(session_store, ws_session, root: str, dirs: list[str]) -> int:
    """Prints the view the original sends for each folder, loaded from a copy
    by a fresh store and server: folders of one name are loaded afresh each."""
    from openprogram.webui import server
    for d in dirs:
        if not os.path.isdir(os.path.join(d, "history")) and not os.path.isfile(os.path.join(d, "meta.json")):
            print(f"record: {d}: no meta.json or history/: not a session folder", file=sys.stderr)
            return 2
        sid = os.path.basename(os.path.normpath(d))
        copy = os.path.join(root, sid)
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(d, copy)
        os.makedirs(os.path.join(copy, ".git"), exist_ok=True)  # the store opens a folder with a repository only
        session_store._default_store = session_store.SessionStore(root)
        server._sessions.pop(sid, None)
        data = loaded(ws_session, sid)
        if data is None:
            print(f"record: {d}: the original sent no session_loaded frame", file=sys.stderr)
            return 1
        print(json.dumps({"dir": d, "head_id": data.get("head_id"), "chain": data.get("messages", [])},
                         ensure_ascii=False))
    return 0


def record(store, ws_session, root: str, cases: dict, name: str, out: str) -> int:
    """Writes each session of cases through append_message, then its folder and view under out."""
    for sid in sorted(cases):
        store.create_session(sid, "main", title="adapter")
        for i, msg in enumerate(cases[sid]):
            try:
                store.append_message(sid, msg)
            except Exception as e:  # noqa: BLE001
                print(f"record: {name}: {sid}: message {i}: the original refuses it: "
                      f"{type(e).__name__}: {e}", file=sys.stderr)
                return 1
        store.commit_turn(sid, "append")
        data = loaded(ws_session, sid)
        if data is None:
            print(f"record: {sid}: the original sent no session_loaded frame", file=sys.stderr)
            return 1
        folder = os.path.join(out, "sessions", sid)
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(os.path.join(root, sid), folder, ignore=shutil.ignore_patterns(".git", "workdir"))
        os.makedirs(os.path.join(out, "expected"), exist_ok=True)
        with open(os.path.join(out, "expected", sid + ".json"), "w", encoding="utf-8") as f:
            json.dump({"head_id": data.get("head_id"), "chain": data.get("messages", [])}, f,
                      indent=1, ensure_ascii=False)
            f.write("\n")
        print(f"{sid}: head {data.get('head_id')}, {len(data.get('messages', []))} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
