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
