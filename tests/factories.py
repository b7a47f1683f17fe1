"""factory_boy factories of the test suite.

Call ``Factory.create(...)`` rather than ``Factory(...)``: factory_boy types ``create()`` as
returning the model, while calling the class is untyped.
"""

from __future__ import annotations

from factory.declarations import LazyAttribute, LazyFunction, RelatedFactory, Sequence, SubFactory
from factory.django import DjangoModelFactory, Password

from accounts.models import ApiKey, User
from billing.models import Balance
from personas.models import Persona, TrainingDataItem


class UserFactory(DjangoModelFactory[User]):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = Sequence(lambda n: f"user{n}")
    email = LazyAttribute(lambda o: f"{o.username}@example.com")
    password = Password("correct horse battery staple")
    balance = RelatedFactory("tests.factories.BalanceFactory", factory_related_name="user")


class BalanceFactory(DjangoModelFactory[Balance]):
    class Meta:
        model = Balance
        django_get_or_create = ("user",)

    user = SubFactory(UserFactory)


class ApiKeyFactory(DjangoModelFactory[ApiKey]):
    """A key with a fresh secret; its plaintext is on the instance (see :func:`raw_key`)."""

    class Meta:
        model = ApiKey

    user = SubFactory(UserFactory)
    name = "test key"

    @classmethod
    def _create(cls, model_class: type[ApiKey], *args: object, **kwargs: object) -> ApiKey:
        key = model_class(**kwargs)
        # Only the digest is stored: the plaintext exists on this instance alone.
        key.raw_key = key.set_new_key()  # type: ignore[attr-defined]
        key.save()
        return key


def raw_key(key: ApiKey) -> str:
    """The plaintext of a key made by :class:`ApiKeyFactory`, as a client sends it."""
    value: object = getattr(key, "raw_key", None)
    if not isinstance(value, str):
        raise TypeError(f"API key {key.pk} was not made by ApiKeyFactory: no plaintext")
    return value


class PersonaFactory(DjangoModelFactory[Persona]):
    """A private persona of a new user unless told otherwise."""

    class Meta:
        model = Persona

    owner = SubFactory(UserFactory)
    name = Sequence(lambda n: f"Persona {n}")
    description = "A helpful test persona."
    category = "general"
    system_prompt = "You are a helpful test persona."
    default_model = "nova-local"
    default_temperature = 0.7
    is_public = False


class TrainingDataItemFactory(DjangoModelFactory[TrainingDataItem]):
    class Meta:
        model = TrainingDataItem

    persona = SubFactory(PersonaFactory)
    type = "text"
    title = ""
    content = Sequence(lambda n: f"Training fact number {n}.")
    metadata = LazyFunction(dict)
