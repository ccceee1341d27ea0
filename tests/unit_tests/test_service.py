"""`anonygraph serve`: a real uvicorn process, rules models, its limits, its store."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from service import Service

from anonygraph.cli import main
from anonygraph.runs.store import RunStore
from anonygraph.service import ServiceSettings, create_app

SLOTS, QUEUE = 2, 4


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """One service for the module: 2 texts at once, 4 waiting, 100 kB bodies.

    It needs a token (every request carries it): starting a service and
    loading its NLP pipeline takes about 11 s here, so the module shares one,
    and the kill test, last, restarts it.
    """
    folder = tmp_path_factory.mktemp("serve")
    server = Service(
        folder, "--concurrency", str(SLOTS), "--queue", str(QUEUE),
        "--max-body", "100000", "--batch-concurrency", "2", token="s3cret",
    )  # fmt: skip
    server.start()
    # The first answer loads the NLP pipeline: not part of what is measured.
    assert server.request("POST", "/v1/anonymize", json={"text": "hi"}).is_success
    yield server
    server.stop()


async def _burst(
    server: Service, count: int, at_once: int
) -> list[tuple[int, dict, int]]:
    """Send ``count`` texts, ``at_once`` in flight; return (i, answer, status)."""
    limits = httpx.Limits(max_connections=at_once)
    async with httpx.AsyncClient(
        base_url=server.url, headers=server.headers, timeout=60, limits=limits
    ) as client:
        gate = asyncio.Semaphore(at_once)

        async def one(i: int) -> tuple[int, dict, int]:
            async with gate:
                text = f"I am {20 + i % 50} and live in Calgary. Note {i}."
                answer = await client.post("/v1/anonymize", json={"text": text})
            return i, answer.json(), answer.status_code

        return list(await asyncio.gather(*(one(i) for i in range(count))))


def test_when_many_texts_come_at_once_then_each_is_answered_or_refused_with_429(
    service: Service,
) -> None:
    results = asyncio.run(_burst(service, 200, 50))

    statuses = Counter(status for _, _, status in results)
    assert set(statuses) == {200, 429}, statuses  # nothing lost, nothing else
    assert statuses[429] > 0 and statuses[200] >= SLOTS + QUEUE
    for i, answer, status in results:
        if status == 200:
            # Each answer is its own text's: nothing mixed up between requests.
            assert answer["anonymized"].endswith(f"Note {i}.")
            assert "Calgary" not in answer["anonymized"]
            assert answer["outcome"] == "scrubbed"
        else:
            assert answer["field"] == "queue" and "retry later" in answer["error"]
    health = service.request("GET", "/v1/health").json()
    assert (health["anonymizing"], health["waiting"]) == (0, 0)


@pytest.mark.parametrize(
    ("body", "status", "field", "words"),
    [
        ({}, 422, "text", "give text or comments"),
        ({"text": "a", "comments": ["b"]}, 422, "text", "one of them"),
        ({"txt": "hello"}, 422, "txt", "Extra inputs are not permitted"),
        ({"text": 5}, 422, "text", "valid string"),
        ({"text": "   "}, 422, "text", "only whitespace"),
        ({"text": "x" * 20_001}, 422, "text", "over the limit of 20,000"),
        ({"text": "hi", "method": "nope"}, 400, "method", "unknown method 'nope'"),
        ({"text": "hi", "options": {"models": {}}}, 400, "options.models", "service"),
        ({"text": "hi", "options": {"colour": 1}}, 400, "options", "colour"),
        (
            {"text": "hi", "options": {"max_iterations": "x"}},
            422,
            "options.max_iterations",
            "expected int, got 'x'",
        ),
    ],
)
def test_when_a_text_request_is_malformed_then_the_answer_names_the_field(
    service: Service, body: dict, status: int, field: str, words: str
) -> None:
    answer = service.request("POST", "/v1/anonymize", json=body)

    assert answer.status_code == status, answer.text
    assert answer.json()["field"] == field
    assert words in answer.json()["error"]


def test_when_a_body_is_not_json_or_too_large_then_it_is_refused_by_name(
    service: Service,
) -> None:
    broken = service.request(
        "POST", "/v1/anonymize", content=b'{"text": ',
        headers={"content-type": "application/json"},
    )  # fmt: skip
    big = service.request("POST", "/v1/anonymize", json={"text": "a" * 150_000})
    neither = service.request("POST", "/v1/batches", json={})
    path = service.request("POST", "/v1/batches", json={"path": "/etc/passwd"})
    unknown = service.request("GET", "/v1/batches/batch-0000")

    assert (broken.status_code, broken.json()["field"]) == (422, "body")
    assert "JSON" in broken.json()["error"]
    assert (big.status_code, big.json()["field"]) == (413, "body")
    assert (neither.status_code, neither.json()["field"]) == (422, "records")
    assert (path.status_code, path.json()["field"]) == (400, "path")
    assert "server-side files are off" in path.json()["error"]
    assert (unknown.status_code, unknown.json()["field"]) == (404, "batch_id")


@pytest.mark.parametrize("path", ["/v1/anonymize", "/v1/batches/jsonl"])
def test_when_a_body_over_the_limit_comes_chunked_then_it_gets_413_as_sent_whole(
    service: Service, path: str
) -> None:
    body = json.dumps({"text": "a" * 150_000}).encode()

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(body), 16_384):
            yield body[start : start + 16_384]

    whole = service.request("POST", path, content=body)
    chunked = service.request("POST", path, content=chunks())

    assert chunked.request.headers.get("transfer-encoding") == "chunked"
    assert (whole.status_code, whole.json()["field"]) == (413, "body")
    assert (chunked.status_code, chunked.json()) == (413, whole.json())


def test_when_a_request_lacks_the_token_then_it_is_refused_and_nothing_runs(
    service: Service,
) -> None:
    refused = service.request(
        "POST", "/v1/batches", json={"records": [{"id": "a", "text": "hi"}]},
        headers={},
    )  # fmt: skip
    wrong = service.request(
        "GET", "/v1/batches/batch-0", headers={"Authorization": "Bearer nope"}
    )
    health = service.request("GET", "/v1/health", headers={})

    assert (refused.status_code, refused.json()["field"]) == (401, "authorization")
    assert wrong.status_code == 401 and wrong.headers["www-authenticate"] == "Bearer"
    assert health.status_code == 200  # says it is up, and nothing else
    assert list(service.folder.glob("runs.sqlite.batches/batch-*")) == []


def test_when_the_docs_page_opens_then_everything_it_loads_is_served_here(
    service: Service,
) -> None:
    import re

    page = service.request("GET", "/docs")

    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    linked = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert linked and all(url.startswith("/docs/assets/") for url in linked), linked
    assert '"validatorUrl": null' in page.text  # no schema sent to a validator
    for url in linked:
        assert service.request("GET", url).status_code == 200, url
    assert service.request("GET", "/openapi.json").json()["info"]["title"] == (
        "anonygraph"
    )


def _wait(
    server: Service, batch: str, until: Callable[[dict], bool], timeout: float = 60
) -> dict:
    """Poll the batch's status until ``until`` holds; return that status."""
    deadline = time.monotonic() + timeout
    status: dict = {}
    while time.monotonic() < deadline:
        status = server.request("GET", f"/v1/batches/{batch}").json()
        if until(status):
            return status
        time.sleep(0.05)
    raise AssertionError(f"batch {batch} never got there: {status}")


def test_when_the_service_is_killed_mid_batch_then_a_restart_finishes_it_once(
    service: Service,
) -> None:
    server = service
    records = [
        {"id": f"r{i}", "text": f"I am {20 + i} and live in Calgary. ({i})"}
        for i in range(24)
    ]
    # Uploaded as a JSONL file, with one line run reads as bad.
    upload = "".join(json.dumps(r) + "\n" for r in records) + "not json\n"
    submitted = server.request("POST", "/v1/batches/jsonl", content=upload.encode())
    assert submitted.status_code == 202, submitted.text
    assert (submitted.json()["records"], submitted.json()["bad_input"]) == (24, 1)
    batch = submitted.json()["id"]
    before = _wait(server, batch, lambda s: s["done"] >= 3)
    server.kill()
    store = RunStore(server.folder / "runs.sqlite")
    cut = store.get_run(batch)
    done_at_kill = sum(s == "done" for s in store.record_statuses(batch).values())
    store.close()
    assert cut is not None and cut["status"] == "running"  # cut off mid-way
    assert before["done"] <= done_at_kill < len(records)

    server.start()
    final = _wait(server, batch, lambda s: s["state"] == "done")
    lines = server.request("GET", f"/v1/batches/{batch}/output").text.splitlines()

    ids = [json.loads(line)["id"] for line in lines]
    assert sorted(ids) == sorted(r["id"] for r in records)  # every id, once
    assert final["done"] == len(records) and final["failed"] == 0
    assert final["bad_input"] == 1
    for line in map(json.loads, lines):
        assert "Calgary" not in line["text"]


def test_when_binding_beyond_loopback_without_a_token_then_serve_refuses_to_start(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ANONYGRAPH_TOKEN", raising=False)

    code = main(["serve", "--host", "0.0.0.0", "--db", str(tmp_path / "r.sqlite")])

    assert code == 2
    assert "--host 0.0.0.0 is reachable from other machines: give a bearer token" in (
        capsys.readouterr().err
    )
    assert list(tmp_path.iterdir()) == []


def test_when_a_batch_waits_for_review_then_its_requests_are_listed_and_answered(
    tmp_path: Path,
) -> None:
    # In-process (the same app uvicorn serves): a paused record, answered.
    settings = ServiceSettings(
        db=str(tmp_path / "runs.sqlite"), context={"max_iterations": 2}
    )
    records = [
        {"id": "a", "text": "I am 34 and live in Calgary."},
        {"id": "b", "text": "Hello."},
    ]
    with TestClient(create_app(settings)) as client:
        batch = client.post(
            "/v1/batches", json={"records": records, "options": {"review": True}}
        ).json()["id"]
        deadline = time.monotonic() + 60
        while client.get(f"/v1/batches/{batch}").json()["state"] in (
            "queued", "running",
        ) and time.monotonic() < deadline:  # fmt: skip
            time.sleep(0.05)
        paused = client.get(f"/v1/batches/{batch}").json()
        waiting = client.get(f"/v1/batches/{batch}/reviews").json()["waiting"]
        wrong = client.post(
            f"/v1/batches/{batch}/reviews/a", json={"decisions": [{"type": "maybe"}]}
        )
        none = client.post(
            f"/v1/batches/{batch}/reviews/b", json={"decisions": [{"type": "approve"}]}
        )
        approved = client.post(
            f"/v1/batches/{batch}/reviews/a", json={"decisions": [{"type": "approve"}]}
        )
        final = client.get(f"/v1/batches/{batch}").json()
        lines = client.get(f"/v1/batches/{batch}/output").text.splitlines()

    assert paused["state"] == "waiting for review" and paused["waiting_review"] == 1
    assert paused["outcomes"] == {"scrubbed": 1, "waiting for review": 1}
    assert [w["record_id"] for w in waiting] == ["a"]
    (request,) = waiting[0]["requests"]
    assert request["action_requests"][0]["name"] == "apply_policy"
    assert request["review_configs"][0]["allowed_decisions"] == [
        "approve", "edit", "reject",
    ]  # fmt: skip
    assert (wrong.status_code, wrong.json()["field"]) == (422, "decisions")
    assert (none.status_code, none.json()["field"]) == (404, "record_id")
    assert approved.json()["outcome"] == "done"
    assert final["state"] == "done" and final["done"] == 2
    texts = {json.loads(line)["id"]: json.loads(line)["text"] for line in lines}
    assert texts["b"] == "Hello." and "Calgary" not in texts["a"]


def test_when_a_comments_record_is_reviewed_then_it_comes_back_as_its_comments(
    tmp_path: Path,
) -> None:
    settings = ServiceSettings(
        db=str(tmp_path / "runs.sqlite"), context={"max_iterations": 2}
    )
    comments = ["I am 34.", "I live in Calgary.", "Bye."]
    records = [{"id": "c", "comments": comments}]
    with TestClient(create_app(settings)) as client:
        batch = client.post(
            "/v1/batches", json={"records": records, "options": {"review": True}}
        ).json()["id"]
        deadline = time.monotonic() + 60
        while client.get(f"/v1/batches/{batch}").json()["state"] in (
            "queued", "running",
        ) and time.monotonic() < deadline:  # fmt: skip
            time.sleep(0.05)
        approved = client.post(
            f"/v1/batches/{batch}/reviews/c", json={"decisions": [{"type": "approve"}]}
        )
        lines = client.get(f"/v1/batches/{batch}/output").text.splitlines()

    assert approved.json()["outcome"] == "done"
    (line,) = [json.loads(x) for x in lines]
    assert "text" not in line and len(line["comments"]) == len(comments)
    assert line["comments"][2] == "Bye."
