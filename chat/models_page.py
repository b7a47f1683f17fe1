"""The dashboard's models page: the catalog as the API's users see it (``GET /v1/models``),
with a curl and a Python example that call this Nova's own address."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from llm.catalog import ModelSpec, get_catalog

API_PREFIX = "/v1/"
KEY_VARIABLE = "NOVA_API_KEY"


@dataclass(frozen=True)
class ModelRow:
    id: str
    description: str
    context_window: int
    input_price_per_mtok: str
    output_price_per_mtok: str
    vision: bool
    reasoning: bool
    tools: bool


def _price(value: Decimal) -> str:
    """A catalog price per million tokens as written: 0.10 -> "0.10", 2.5 -> "2.50"."""
    text = f"{value.normalize():f}"
    whole, _, fraction = text.partition(".")
    return f"{whole}.{fraction.ljust(2, '0')}"


def _row(model: ModelSpec) -> ModelRow:
    return ModelRow(
        id=model.id,
        description=model.description,
        context_window=model.context_window,
        input_price_per_mtok=_price(model.input_price_per_mtok),
        output_price_per_mtok=_price(model.output_price_per_mtok),
        vision=model.vision,
        reasoning=model.reasoning,
        tools=model.tools,
    )


def curl_snippet(base_url: str, model_id: str) -> str:
    """A shell command: every value the catalog or the request supplies is quoted for sh."""
    body = json.dumps({"model": model_id, "messages": [{"role": "user", "content": "Hello!"}]})
    return (
        f"curl {shlex.quote(base_url + 'chat/completions')} \\\n"
        f'  -H "Authorization: Bearer ${KEY_VARIABLE}" \\\n'
        '  -H "Content-Type: application/json" \\\n'
        f"  -d {shlex.quote(body)}"
    )


def python_snippet(base_url: str, model_id: str) -> str:
    """The OpenAI Python SDK pointed at Nova; the strings are Python literals (json.dumps of
    a str is one)."""
    return (
        "import os\n\n"
        "from openai import OpenAI\n\n"
        f"client = OpenAI(base_url={json.dumps(base_url)}, "
        f'api_key=os.environ["{KEY_VARIABLE}"])\n'
        "reply = client.chat.completions.create(\n"
        f"    model={json.dumps(model_id)},\n"
        '    messages=[{"role": "user", "content": "Hello!"}],\n'
        ")\n"
        "print(reply.choices[0].message.content)"
    )


@login_required
@require_GET
def models_page(request: HttpRequest) -> HttpResponse:
    rows = [_row(model) for model in get_catalog()]
    ids = [row.id for row in rows]
    asked = request.GET.get("model", "")
    chosen = asked if asked in ids else (ids[0] if ids else "")
    base_url = request.build_absolute_uri(API_PREFIX)
    return render(
        request,
        "chat/models.html",
        {
            "models": rows,
            "chosen": chosen,
            "base_url": base_url,
            "key_variable": KEY_VARIABLE,
            "curl": curl_snippet(base_url, chosen) if chosen else "",
            "python": python_snippet(base_url, chosen) if chosen else "",
        },
    )
