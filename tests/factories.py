from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from accounts.models import ApiKey, User
from billing.models import Balance


class UserFactory(DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda o: f"{o.username}@example.com")
    password = factory.django.Password("correct horse battery staple")
    balance = factory.RelatedFactory("tests.factories.BalanceFactory", factory_related_name="user")


class BalanceFactory(DjangoModelFactory):
    class Meta:
        model = Balance
        django_get_or_create = ("user",)

    user = factory.SubFactory(UserFactory)


class ApiKeyFactory(DjangoModelFactory):
    """Build with ApiKeyFactory(); the raw key is on the instance as `raw_key`."""

    class Meta:
        model = ApiKey

    user = factory.SubFactory(UserFactory)
    name = "test key"

    @classmethod
    def _create(cls, model_class: type[ApiKey], *args: object, **kwargs: object) -> ApiKey:
        key = model_class(**kwargs)
        key.raw_key = key.set_new_key()  # type: ignore[attr-defined]
        key.save()
        return key


class PersonaFactory(DjangoModelFactory):
    """A private persona of a new user unless told otherwise."""

    class Meta:
        model = "personas.Persona"

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Persona {n}")
    description = "A helpful test persona."
    category = "general"
    system_prompt = "You are a helpful test persona."
    default_model = "nova-local"
    default_temperature = 0.7
    is_public = False


class TrainingDataItemFactory(DjangoModelFactory):
    class Meta:
        model = "personas.TrainingDataItem"

    persona = factory.SubFactory(PersonaFactory)
    type = "text"
    title = ""
    content = factory.Sequence(lambda n: f"Training fact number {n}.")
    metadata = factory.LazyFunction(dict)
