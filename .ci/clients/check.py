"""Adjudicates every fixture through the Python client generated from the API document
(openapi-python-client) and compares each answer, read into the client's typed models, with the
fixture's expectation (the parts `expected` states, as tests/fixtures.rs does). It also checks
that the typed models give the answer back as sent: exactly for an adjudication, whose fields are
present wherever docs/records.md ("Presence") says so; a problem's absent list may read as `[]`.
Usage: check.py BASE_URL FIXTURES_DIR
with the generated package `arbiter_client` importable. Exits non-zero on any difference."""

import json
import sys
from pathlib import Path

from arbiter_client import Client
from arbiter_client.api.games import adjudicate, list_games
from arbiter_client.models import Adjudication, GameId, HandRecord, Problem


def subset(expected, actual, path="", typed=False):
    """What the fixture states, found in the answer (null matches null or absent; in a typed
    problem also `[]`, the models' reading of an absent list)."""
    if expected is None and (actual is None or (typed and actual == [])):
        return None
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, v in expected.items():
            err = subset(v, actual.get(k), f"{path}/{k}", typed)
            if err:
                return err
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} items, got {len(actual)}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            err = subset(e, a, f"{path}/{i}", typed)
            if err:
                return err
        return None
    if expected == actual and type(expected) is type(actual):
        return None
    return f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)}"


def without_empty_lists(v):
    """The answer with its empty lists left out: the generated models read an absent optional
    list as `[]` (a problem leaves its empty lists out; an adjudication is compared as it is)."""
    if isinstance(v, dict):
        return {k: without_empty_lists(x) for k, x in v.items() if x != []}
    if isinstance(v, list):
        return [without_empty_lists(x) for x in v]
    return v


def main():
    base, fixtures = sys.argv[1], Path(sys.argv[2])
    client = Client(base_url=base, raise_on_unexpected_status=True, timeout=30)
    games = list_games.sync(client=client)
    ids = sorted(g.id for g in games)
    folders = sorted(p.name for p in fixtures.iterdir() if p.is_dir())
    failures = []
    if ids != folders:
        failures.append(f"list_games: {ids}, fixture folders: {folders}")
    count = 0
    for path in sorted(fixtures.glob("*/*.json")):
        f = json.loads(path.read_text())
        count += 1
        want_status = f.get("expected_status", 200)
        try:
            body = HandRecord.from_dict(f["record"])
        except Exception:  # a malformed record the typed model cannot hold: sent as written
            body = None
        game = GameId(path.parent.name)
        if body is not None:
            resp = adjudicate.sync_detailed(game, client=client, body=body)
            raw = json.loads(resp.content)
            status, parsed = int(resp.status_code), resp.parsed
        else:
            r = client.get_httpx_client().post(f"/v1/games/{game.value}/adjudications", json=f["record"])
            raw, status = r.json(), r.status_code
            parsed = (Adjudication if status == 200 else Problem).from_dict(raw)
        if status != want_status:
            failures.append(f"{path}: status {status}, expected {want_status}")
            continue
        expected_type = Adjudication if status == 200 else Problem
        if not isinstance(parsed, expected_type):
            failures.append(f"{path}: read as {type(parsed).__name__}, not {expected_type.__name__}")
            continue
        answer = parsed.to_dict()
        # An adjudication's fields are present as records.md's presence rules say: read back
        # exactly (an absent list is no longer taken for `[]`).
        strict = status == 200
        same = answer == raw if strict else without_empty_lists(answer) == without_empty_lists(raw)
        if not same:
            failures.append(f"{path}: the typed answer differs from the answer sent")
        for what, err in [
            ("typed", subset(f["expected"], answer, typed=not strict)),
            ("sent", subset(f["expected"], raw)),
        ]:
            if err:
                failures.append(f"{path}: {what} answer: {err}")
    for line in failures:
        print("python client:", line, file=sys.stderr)
    print(f"python client: {count} fixtures adjudicated, {len(failures)} differences")
    sys.exit(1 if failures or count == 0 else 0)


main()
