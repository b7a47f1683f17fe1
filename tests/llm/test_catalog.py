from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.core.checks import Error
from django.test import override_settings

from billing.money import usage_cost
from llm.catalog import (
    CatalogError,
    ModelSpec,
    check_catalog,
    get_catalog,
    load_catalog,
    reset_catalog_cache,
    validate_catalog_or_exit,
)

FAKE_GPT = """
[[models]]
id = "fake-gpt"
provider = "openai"
base_url = "http://127.0.0.1:9100/v1/"
api_key_env = "FAKE_UPSTREAM_KEY"
upstream_model = "fake"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
vision = true
reasoning = true
"""

LOCAL = """
[[models]]
id = "nova-local"
provider = "local"
context_window = 8192
input_price_per_mtok = "0.10"
output_price_per_mtok = "0.20"
"""


@pytest.fixture(autouse=True)
def _fresh_catalog() -> Iterator[None]:
    reset_catalog_cache()
    yield
    reset_catalog_cache()


def write(tmp_path: Path, text: str, name: str = "models.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def error_for(tmp_path: Path, text: str) -> str:
    with pytest.raises(CatalogError) as excinfo:
        load_catalog(write(tmp_path, text))
    return str(excinfo.value)


def test_loads_every_field(tmp_path):
    catalog = load_catalog(write(tmp_path, LOCAL + FAKE_GPT))
    assert [model.id for model in catalog] == ["nova-local", "fake-gpt"]
    assert catalog.get("fake-gpt") == ModelSpec(
        id="fake-gpt",
        provider="openai",
        base_url="http://127.0.0.1:9100/v1",
        api_key_env="FAKE_UPSTREAM_KEY",
        upstream_model="fake",
        context_window=8192,
        input_price_per_mtok=Decimal("1.00"),
        output_price_per_mtok=Decimal("2.00"),
        vision=True,
        reasoning=True,
        connect_timeout=5.0,
        read_timeout=60.0,
        description="",
        tools=True,
        structured_outputs=True,
    )


def test_defaults_upstream_model_to_id_and_flags_to_false(tmp_path):
    model = load_catalog(write(tmp_path, LOCAL))["nova-local"]
    assert model.upstream_model == "nova-local"
    assert (model.vision, model.reasoning, model.base_url, model.api_key_env) == (
        False,
        False,
        None,
        None,
    )


def test_catalog_lookup_by_id(tmp_path):
    catalog = load_catalog(write(tmp_path, LOCAL + FAKE_GPT))
    assert "fake-gpt" in catalog
    assert "nope" not in catalog
    assert catalog.get("nope") is None
    assert len(catalog) == 2
    assert catalog.ids() == ["nova-local", "fake-gpt"]


def test_choices_for_form_pickers(tmp_path):
    text = LOCAL + 'description = "Offline responder"\n' + FAKE_GPT
    assert load_catalog(write(tmp_path, text)).choices() == [
        ("nova-local", "nova-local – Offline responder"),
        ("fake-gpt", "fake-gpt"),
    ]


def test_cost_uses_both_prices_with_eight_decimal_places(tmp_path):
    model = load_catalog(write(tmp_path, FAKE_GPT))["fake-gpt"]
    assert usage_cost(model, 1000, 500) == Decimal("0.00200000")
    assert usage_cost(model, 0, 0) == Decimal("0E-8")


def test_cost_rounds_half_up(tmp_path):
    text = FAKE_GPT.replace('"1.00"', '"0.005"').replace('"2.00"', '"0"')
    model = load_catalog(write(tmp_path, text))["fake-gpt"]
    # 1 token at $0.005 per million = 0.000000005 -> half up to 0.00000001.
    assert usage_cost(model, 1, 0) == Decimal("0.00000001")
    assert usage_cost(model, 1, 0).as_tuple().exponent == -8


def test_numeric_prices_become_exact_decimals(tmp_path):
    text = FAKE_GPT.replace('"1.00"', "0.1").replace('"2.00"', "3")
    model = load_catalog(write(tmp_path, text))["fake-gpt"]
    assert model.input_price_per_mtok == Decimal("0.1")
    assert model.output_price_per_mtok == Decimal("3")


def test_api_key_reads_the_named_environment_variable(tmp_path, monkeypatch):
    model = load_catalog(write(tmp_path, FAKE_GPT))["fake-gpt"]
    monkeypatch.delenv("FAKE_UPSTREAM_KEY", raising=False)
    assert model.api_key() is None
    monkeypatch.setenv("FAKE_UPSTREAM_KEY", "sk-upstream")
    assert model.api_key() == "sk-upstream"


def test_error_names_file_entry_and_field(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config").mkdir()
    path = write(tmp_path / "config", LOCAL + FAKE_GPT.replace("8192", "0"))
    with pytest.raises(CatalogError) as excinfo:
        load_catalog(path)
    assert str(excinfo.value) == (
        'config/models.toml: models[1] (id "fake-gpt"): '
        'field "context_window" must be a positive integer'
    )


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        ("context_window = 8192", "context_window = true", "context_window", "positive integer"),
        ("context_window = 8192", 'context_window = "8192"', "context_window", "positive integer"),
        ('provider = "openai"', 'provider = "anthropic"', "provider", '"local" or "openai"'),
        ('"1.00"', '"-1"', "input_price_per_mtok", "at least 0"),
        ('"1.00"', '"cheap"', "input_price_per_mtok", "decimal string"),
        ('"2.00"', "true", "output_price_per_mtok", "decimal string"),
        ('"2.00"', '"nan"', "output_price_per_mtok", "decimal string"),
        ("vision = true", 'vision = "yes"', "vision", "true or false"),
        ('base_url = "http://127.0.0.1:9100/v1/"', 'base_url = "ftp://x"', "base_url", "http"),
        ('upstream_model = "fake"', 'upstream_model = ""', "upstream_model", "non-empty"),
        ("vision = true", "vision = true\nread_timeout = 0", "read_timeout", "positive number"),
        ("vision = true", "vision = true\nconnect_timeout = false", "connect_timeout", "positive"),
        ("vision = true", "vision = true\ncolour = 1", "colour", "not a known field"),
        ("vision = true", "vision = true\ndescription = 3", "description", "must be a string"),
    ],
)
def test_rejects_bad_field(tmp_path, old, new, field, problem):
    message = error_for(tmp_path, FAKE_GPT.replace(old, new))
    assert 'models[0] (id "fake-gpt")' in message
    assert f'field "{field}"' in message
    assert problem in message


@pytest.mark.parametrize("field", ["id", "provider", "context_window", "input_price_per_mtok"])
def test_rejects_missing_required_field(tmp_path, field):
    text = "\n".join(line for line in FAKE_GPT.splitlines() if not line.startswith(f"{field} "))
    message = error_for(tmp_path, text)
    assert f'field "{field}" is required' in message


def test_openai_provider_requires_base_url(tmp_path):
    text = "\n".join(line for line in FAKE_GPT.splitlines() if not line.startswith("base_url"))
    assert 'field "base_url" is required when provider is "openai"' in error_for(tmp_path, text)


def test_local_provider_rejects_base_url(tmp_path):
    text = LOCAL + 'base_url = "http://example.com/v1"\n'
    assert 'field "base_url" is only used when provider is "openai"' in error_for(tmp_path, text)


def test_rejects_duplicate_ids(tmp_path):
    message = error_for(tmp_path, LOCAL + LOCAL)
    assert 'models[1] (id "nova-local"): field "id" duplicates models[0]' in message


def test_entry_without_usable_id_is_named_by_index(tmp_path):
    message = error_for(tmp_path, LOCAL.replace('id = "nova-local"', "id = 7"))
    assert 'models[0]: field "id" must be a non-empty string' in message


def test_rejects_invalid_toml(tmp_path):
    assert "not valid TOML" in error_for(tmp_path, "[[models]\nid = ")


def test_rejects_a_catalog_without_models(tmp_path):
    assert "at least one model" in error_for(tmp_path, "")


def test_rejects_unknown_top_level_keys(tmp_path):
    assert 'unknown top-level key "model"' in error_for(tmp_path, "[[model]]\nid = 'x'\n")


def test_missing_file_is_a_catalog_error(tmp_path):
    with pytest.raises(CatalogError, match="file not found"):
        load_catalog(tmp_path / "absent.toml")


def test_shipped_catalog_lists_the_embedded_model():
    catalog = load_catalog(Path(settings.BASE_DIR) / "config" / "models.toml")
    assert catalog.ids() == ["nova-local"]
    model = catalog["nova-local"]
    assert (model.provider, model.context_window, model.vision, model.reasoning) == (
        "local",
        8192,
        False,
        False,
    )
    assert (model.input_price_per_mtok, model.output_price_per_mtok) == (
        Decimal("0.10"),
        Decimal("0.20"),
    )


def test_example_catalog_is_valid():
    catalog = load_catalog(Path(settings.BASE_DIR) / "config" / "models.example.toml")
    assert {model.provider for model in catalog} == {"local", "openai"}
    assert len(catalog) == 7
    assert catalog["qwen2.5-7b-pool"].fallbacks == ("gpt-4o-mini",)
    assert len(catalog["qwen2.5-7b-pool"].deployments) == 2


def test_get_catalog_reads_models_file_once(tmp_path):
    path = write(tmp_path, LOCAL)
    with override_settings(MODELS_FILE=path):
        first = get_catalog()
        path.write_text(FAKE_GPT)
        assert get_catalog() is first
        reset_catalog_cache()
        assert get_catalog().ids() == ["fake-gpt"]


def test_get_catalog_follows_override_settings(tmp_path):
    local = write(tmp_path, LOCAL, "local.toml")
    fake = write(tmp_path, FAKE_GPT, "fake.toml")
    with override_settings(MODELS_FILE=local):
        assert get_catalog().ids() == ["nova-local"]
    with override_settings(MODELS_FILE=fake):
        assert get_catalog().ids() == ["fake-gpt"]


def test_check_passes_with_a_valid_catalog(tmp_path):
    with override_settings(MODELS_FILE=write(tmp_path, LOCAL)):
        assert check_catalog(None) == []


def test_check_reports_a_bad_catalog_as_nova_e001(tmp_path):
    with override_settings(MODELS_FILE=write(tmp_path, LOCAL.replace("8192", "-1"))):
        messages = check_catalog(None)
    assert len(messages) == 1
    assert isinstance(messages[0], Error)
    assert messages[0].id == "nova.E001"
    assert 'field "context_window" must be a positive integer' in messages[0].msg


def test_check_is_registered_with_django(tmp_path):
    from django.core.checks import run_checks

    with override_settings(MODELS_FILE=write(tmp_path, "nonsense = 1")):
        ids = [message.id for message in run_checks()]
    assert "nova.E001" in ids


def test_server_refuses_to_start_with_a_bad_catalog(tmp_path, capsys):
    bad = write(tmp_path, LOCAL.replace("local", "remote"))
    with override_settings(MODELS_FILE=bad), pytest.raises(SystemExit) as excinfo:
        validate_catalog_or_exit()
    assert excinfo.value.code == 1
    assert 'field "provider"' in capsys.readouterr().err


def test_server_starts_with_a_good_catalog(tmp_path):
    with override_settings(MODELS_FILE=write(tmp_path, LOCAL)):
        validate_catalog_or_exit()


# --- deployments, retries, cooldowns and fallbacks ---

POOL = """
[[models]]
id = "pool"
provider = "openai"
api_key_env = "POOL_KEY"
upstream_model = "qwen"
context_window = 8192
input_price_per_mtok = "1.00"
output_price_per_mtok = "2.00"
retries = 1
allowed_fails = 5
cooldown_seconds = 12.5
fallbacks = ["nova-local"]
[[models.deployments]]
base_url = "http://10.0.0.1:8000/v1/"
weight = 3
[[models.deployments]]
base_url = "https://user:secret@gpu2.example.com/v1"
api_key_env = "GPU2_KEY"
upstream_model = "Qwen/Qwen2.5"
rpm = 600
tpm = 90000
"""


def test_loads_deployments_and_routing_fields(tmp_path):
    from llm.catalog import Deployment

    model = load_catalog(write(tmp_path, LOCAL + POOL))["pool"]
    assert model.deployments == (
        Deployment("http://10.0.0.1:8000/v1", "POOL_KEY", "qwen", weight=3.0),
        Deployment(
            "https://user:secret@gpu2.example.com/v1",
            "GPU2_KEY",
            "Qwen/Qwen2.5",
            weight=1.0,
            rpm=600,
            tpm=90000,
        ),
    )
    assert (model.retries, model.allowed_fails, model.cooldown_seconds) == (1, 5, 12.5)
    assert model.fallbacks == ("nova-local",)
    assert model.routed
    # The first deployment stands for the model where one server is needed.
    assert (model.base_url, model.api_key_env, model.upstream_model) == (
        "http://10.0.0.1:8000/v1",
        "POOL_KEY",
        "qwen",
    )
    # Names for logs and models_status: host and port, never the URL's credentials.
    assert [d.name for d in model.deployments] == ["10.0.0.1:8000", "gpu2.example.com"]
    hash(model)  # still usable as a cache key


def test_each_deployment_is_served_by_a_spec_of_its_own(tmp_path):
    model = load_catalog(write(tmp_path, LOCAL + POOL))["pool"]
    [(_, first), (_, second)] = model.routes
    assert (second.base_url, second.api_key_env, second.upstream_model) == (
        "https://user:secret@gpu2.example.com/v1",
        "GPU2_KEY",
        "Qwen/Qwen2.5",
    )
    assert second.id == "pool" and second.input_price_per_mtok == Decimal("1.00")
    assert first.base_url == "http://10.0.0.1:8000/v1"
    assert model.routes is model.routes  # computed once


def test_a_plain_model_is_its_own_single_deployment_with_default_routing(tmp_path):
    model = load_catalog(write(tmp_path, FAKE_GPT))["fake-gpt"]
    assert model.deployments == ()
    assert (model.retries, model.allowed_fails, model.cooldown_seconds) == (2, 3, 30.0)
    assert model.fallbacks == ()
    assert not model.routed
    [(deployment, spec)] = model.routes
    assert spec is model
    assert deployment.name == "127.0.0.1:9100"


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        ("weight = 3", "weight = 0", "deployments[0].weight", "positive number"),
        ("weight = 3", 'weight = "3"', "deployments[0].weight", "positive number"),
        ("rpm = 600", "rpm = 0", "deployments[1].rpm", "positive integer"),
        ("tpm = 90000", "tpm = 1.5", "deployments[1].tpm", "positive integer"),
        ("weight = 3", "weight = 3\ncolour = 1", "deployments[0].colour", "not a known field"),
        (
            'base_url = "http://10.0.0.1',
            'base_url = "ftp://10.0.0.1',
            "deployments[0].base_url",
            "http",
        ),
        ("retries = 1", "retries = -1", "retries", "at least 0"),
        ("allowed_fails = 5", "allowed_fails = 0", "allowed_fails", "positive integer"),
        ("cooldown_seconds = 12.5", "cooldown_seconds = 0", "cooldown_seconds", "positive"),
        ('fallbacks = ["nova-local"]', 'fallbacks = "nova-local"', "fallbacks", "list of model"),
        ('fallbacks = ["nova-local"]', 'fallbacks = ["pool"]', "fallbacks", "model itself"),
        (
            'fallbacks = ["nova-local"]',
            'fallbacks = ["nova-local", "nova-local"]',
            "fallbacks",
            "twice",
        ),
    ],
)
def test_rejects_bad_routing_field(tmp_path, old, new, field, problem):
    message = error_for(tmp_path, LOCAL + POOL.replace(old, new))
    assert 'models[1] (id "pool")' in message
    assert f'field "{field}"' in message
    assert problem in message


def test_a_deployment_without_base_url_is_refused(tmp_path):
    text = LOCAL + POOL.replace('base_url = "http://10.0.0.1:8000/v1/"\n', "")
    message = error_for(tmp_path, text)
    assert 'models[1] (id "pool"): field "deployments[0].base_url" is required' in message


def test_deployments_and_base_url_together_are_refused(tmp_path):
    text = LOCAL + POOL.replace("retries = 1", 'retries = 1\nbase_url = "http://x/v1"')
    assert 'field "base_url" cannot be given with [[models.deployments]]' in error_for(
        tmp_path, text
    )


def test_the_embedded_model_takes_no_deployments(tmp_path):
    text = LOCAL + '[[models.deployments]]\nbase_url = "http://x/v1"\n'
    assert 'field "deployments" is only used when provider is "openai"' in error_for(tmp_path, text)


def test_an_unknown_fallback_is_named(tmp_path):
    message = error_for(tmp_path, POOL + LOCAL.replace('"nova-local"', '"other"'))
    assert message.endswith(
        'models[0] (id "pool"): field "fallbacks" names "nova-local" (fallbacks[0]), '
        "which is not in the catalog"
    )


def test_a_fallback_may_come_later_in_the_file(tmp_path):
    catalog = load_catalog(write(tmp_path, POOL + LOCAL))
    assert catalog["pool"].fallbacks == ("nova-local",)
