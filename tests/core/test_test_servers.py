"""The test helper that starts daphne (tests/servers.py) never hands a test another process's
server: two suites run side by side can both be given the same free port."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer

import httpx
import pytest

from tests import servers

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


class _Decoy(BaseHTTPRequestHandler):
    """Answers every GET with 200 and says who it is, as another run's server would."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("X-Decoy", "yes")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def decoy_port() -> Iterator[int]:
    server = HTTPServer(("127.0.0.1", 0), _Decoy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


def test_the_listening_process_is_told_apart_from_others(decoy_port: int) -> None:
    assert servers.listening_pid_owns(os.getpid(), decoy_port)
    assert not servers.listening_pid_owns(os.getppid(), decoy_port)
    assert not servers.listening_pid_owns(os.getpid(), servers.free_port())


def test_a_port_another_process_serves_is_an_error_not_its_server(decoy_port: int) -> None:
    with (
        pytest.raises(RuntimeError, match=f"port {decoy_port}"),
        servers.running_nova(port=decoy_port),
    ):
        pass


def test_a_free_port_taken_meanwhile_is_chosen_again(
    decoy_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_free_port = servers.free_port
    handed: list[int] = []

    def first_the_taken_one() -> int:
        handed.append(decoy_port if not handed else real_free_port())
        return handed[-1]

    monkeypatch.setattr(servers, "free_port", first_the_taken_one)
    with servers.running_nova() as base_url:
        response = httpx.get(f"{base_url}/healthz", timeout=5)
        assert response.status_code == 200
        assert "x-decoy" not in response.headers
    assert handed[0] == decoy_port
    assert base_url.endswith(f":{handed[-1]}") and handed[-1] != decoy_port
