"""daphne's HTTP/1.1 protocol, answering what Twisted and daphne refuse with the JSON error
envelope (docs/api.md, Errors) instead of a dropped connection, an empty 400 or an HTML page.

What changes, and where it came from:

* A request line or one header line over ``MAX_LENGTH`` (16 KiB): Twisted's LineReceiver
  dropped the connection without a word. Now 414 (request line) or 431 (header), JSON.
* Headers over ``totalHeadersSize`` (16 KiB together) or more than ``maxHeaders`` (500):
  Twisted wrote a bare ``400 Bad Request``. Now 431, JSON.
* Any other request Twisted's parser refuses (a malformed request line, a non-ASCII path or
  query, header syntax, Content-Length, chunking): a bare 400, now the JSON 400 ``bad_request``.
* What daphne refuses after Twisted (header values with bytes RFC 9110 forbids, a path it
  cannot decode), an application timeout or crash: ``WebRequest.basic_error`` wrote an HTML
  page. Now JSON.
* Status codes Twisted has no reason phrase for (429, 431, ...) went out as
  ``429 Unknown Status``. Now the phrase from :class:`http.HTTPStatus`.

The limits themselves are Twisted's and stay as they are. The hooks are Twisted's private
ones (``_respondToBadRequestAndDisconnect``, the header counters), pinned by requirements.lock
and by tests/live/test_protocol.py, which fails if an upgrade moves them.

:func:`install_protocol` makes daphne's server use these classes. ``config.asgi`` calls it,
and daphne imports that module (its CLI, ``manage.py runserver`` and ``scripts/cluster.py``
alike) before it builds its server: every way Nova is started serves through this module,
and no command line changes.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

# daphne.server installs the asyncio reactor: it must come before anything imports Twisted's.
# daphne is untyped and so are the HTTPChannel methods called below: subclassing and calling
# them carries narrow ``type: ignore`` codes (misc, no-untyped-call).
import daphne.server
from daphne.http_protocol import HTTPFactory, WebRequest
from twisted.web import http

from core.errors import (
    SERVER_ERROR_MESSAGE,
    ApiError,
    HeaderFieldsTooLarge,
    InvalidRequest,
    ServerError,
    ServiceUnavailable,
    UriTooLong,
    error_response,
)
from core.requestid import new_request_id, request_id_from_header

__all__ = ["NovaHTTPChannel", "NovaHTTPFactory", "NovaWebRequest", "install_protocol"]

# After a refusal, how long the client may go on sending (read and dropped) before the
# connection is closed. Closing a socket with unread input makes the kernel send a reset,
# which can destroy the response before the client reads it (nginx's lingering close).
LINGER_SECONDS = 2.0


def reason_phrase(code: int) -> bytes:
    """Twisted's reason phrase for ``code``, or the standard one where Twisted has none."""
    if code in http.RESPONSES:
        return http.RESPONSES[code]
    try:
        return HTTPStatus(code).phrase.encode("ascii")
    except ValueError:
        return b"Unknown Status"


def _json(error: ApiError) -> bytes:
    # The bytes every other API error is answered with.
    return error_response(error).content


class NovaHTTPChannel(http.HTTPChannel):
    """Twisted's HTTP/1.1 parser; its refusals answer with the JSON envelope, then close."""

    _refused = False

    def dataReceived(self, data: bytes) -> None:
        if self._refused:
            return  # lingering: read and dropped (see LINGER_SECONDS)
        super().dataReceived(data)  # type: ignore[no-untyped-call]

    def lineReceived(self, line: bytes) -> None:
        if self._refused:
            return  # the rest of a buffer LineReceiver is still splitting
        # Twisted's own check, done here so that it can answer 414/431 rather than a bare 400.
        if self._receivedHeaderSize + len(line) > self.totalHeadersSize:
            self._refuse(self._too_long())
            return
        super().lineReceived(line)  # type: ignore[no-untyped-call]

    def lineLengthExceeded(self, line: bytes) -> None:
        # LineReceiver would drop the connection without a response.
        self._refuse(self._too_long())

    def headerReceived(self, line: bytes) -> bool:
        if self._receivedHeaderCount >= self.maxHeaders:
            self._refuse(
                HeaderFieldsTooLarge(f"The request has more than {self.maxHeaders} header fields.")
            )
            return False
        return bool(super().headerReceived(line))  # type: ignore[no-untyped-call]

    def _respondToBadRequestAndDisconnect(self) -> None:
        # Every other refusal of Twisted's parser (request line, header syntax, Content-Length,
        # chunked encoding) comes through here; Twisted writes "400 Bad Request" with no body.
        self._refuse(InvalidRequest("The request is not valid HTTP/1.1.", code="bad_request"))

    def _too_long(self) -> ApiError:
        if self._receivedHeaderSize == 0:  # nothing of this request read yet: its first line
            return UriTooLong(f"The request line is longer than {self.MAX_LENGTH} bytes.")
        return HeaderFieldsTooLarge(
            f"The request headers are larger than {self.totalHeadersSize} bytes."
        )

    def _refuse(self, error: ApiError) -> None:
        """Answer ``error`` as JSON and close the connection, once."""
        transport: Any = self.transport  # an ITCPTransport (zope interfaces confuse mypy)
        if self._refused or transport is None:
            return
        self._refused = True
        body = _json(error)
        head = (
            f"HTTP/1.1 {error.status} {reason_phrase(error.status).decode('ascii')}\r\n"
            "Content-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n"
            # A request refused before its headers were read gets a new id.
            f"X-Request-Id: {new_request_id()}\r\n"
            "Connection: close\r\n\r\n"
        )
        transport.write(head.encode("ascii") + body)
        lose_write = getattr(transport, "loseWriteConnection", None)
        if lose_write is None:
            self.loseConnection()  # type: ignore[no-untyped-call]
            return
        lose_write()  # FIN once the response is out; the client's EOF ends the connection
        # ... or this: timeoutConnection closes it.
        self.setTimeout(LINGER_SECONDS)  # type: ignore[no-untyped-call]


class NovaWebRequest(WebRequest):  # type: ignore[misc]
    """daphne's request: its own error pages and every status line, as the API speaks them."""

    def setResponseCode(self, code: int, message: bytes | None = None) -> None:
        super().setResponseCode(code, message if message is not None else reason_phrase(code))

    def basic_error(self, status: int, status_text: bytes, body: str) -> None:
        error: ApiError
        if status == 400:  # bad header name or value, non-ASCII path or query string
            error = InvalidRequest(f"{body.rstrip('.')}.", code="bad_request")
        elif status == 503:  # the application did not answer within --http-timeout
            error = ServiceUnavailable(f"{body.rstrip('.')}.")
        else:
            error = ServerError(SERVER_ERROR_MESSAGE)
        content = _json(error)
        self.handle_reply(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"Content-Type", b"application/json"),
                    (b"Content-Length", str(len(content)).encode("ascii")),
                    (b"X-Request-Id", self._request_id().encode("ascii")),
                ],
            }
        )
        self.handle_reply({"type": "http.response.body", "body": content})

    def _request_id(self) -> str:
        """The caller's valid X-Request-Id (core.requestid), else a new one."""
        values = self.requestHeaders.getRawHeaders(b"x-request-id") or []
        sent = values[0].decode("latin-1") if len(values) == 1 else None
        return request_id_from_header(sent)


def _nova_channel(factory: Any) -> Any:
    # What Twisted's HTTPFactory.protocol builds, with our channel inside.
    return http._GenericHTTPChannelProtocol(NovaHTTPChannel())  # type: ignore[no-untyped-call]


class NovaHTTPFactory(HTTPFactory):  # type: ignore[misc]
    protocol = _nova_channel

    def buildProtocol(self, addr: Any) -> Any:
        protocol = super().buildProtocol(addr)  # daphne sets its WebRequest here
        protocol.requestFactory = NovaWebRequest
        return protocol


def install_protocol() -> None:
    """Make daphne's Server build :class:`NovaHTTPFactory`: ``Server.run()`` looks the factory
    class up in ``daphne.server`` when it starts listening."""
    daphne.server.HTTPFactory = NovaHTTPFactory
