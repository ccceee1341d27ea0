"""`anonygraph serve`'s /docs page rendered in headless Debian chromium.

Swagger UI must read the OpenAPI 3.1 schema FastAPI writes and show every
operation, from files the service serves itself. Without chromium the test
skips on a developer's machine and fails under CI=true.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from browser import Chromium, chromium_or_skip
from service import Service


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    with chromium_or_skip() as page:
        yield page


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    server = Service(tmp_path_factory.mktemp("serve-docs"))
    server.start()
    yield server
    server.stop()


def test_when_the_docs_page_opens_in_a_browser_then_it_shows_every_operation(
    browser: Chromium, service: Service
) -> None:
    schema = service.request("GET", "/openapi.json").json()
    operations = {
        f"{verb.upper()} {path}"
        for path, verbs in schema["paths"].items()
        for verb in verbs
    }

    browser.open_url(f"{service.url}/docs")
    shown = browser.wait_until(
        "document.querySelectorAll('.opblock-summary').length >= "
        f"{len(operations)} && Array.from(document.querySelectorAll("
        "'.opblock-summary')).map(b => b.querySelector('.opblock-summary-method')"
        ".textContent + ' ' + b.querySelector('.opblock-summary-path')"
        ".getAttribute('data-path'))"
    )
    text = browser.js("document.body.innerText")

    assert schema["openapi"].startswith("3.1")
    assert "Unable to render this definition" not in text
    assert shown and set(shown) == operations, text[:500]
    hosts = {urlsplit(url).netloc for url in browser.requests()}
    assert hosts <= {urlsplit(service.url).netloc, ""}, hosts
