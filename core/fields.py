"""Serializer fields for JSON input that no value can take past a 400."""

from __future__ import annotations

import math
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

__all__ = ["QueryBooleanField", "StrictNumberField"]


@extend_schema_field(OpenApiTypes.DOUBLE)
class StrictNumberField(serializers.Field[float, Any, Any, Any]):
    """A JSON number as a finite float: no booleans, no strings.

    JSON integers have no size limit, and ``float()`` of one past 1.8e308 raises OverflowError
    (not ValueError): here a 400-digit integer is out of range like any other, a 400.
    """

    def __init__(
        self,
        *,
        min_value: float | None = None,
        max_value: float | None = None,
        exclusive_min: bool = False,
        **kwargs: Any,
    ) -> None:
        self.min_value, self.max_value, self.exclusive_min = min_value, max_value, exclusive_min
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise serializers.ValidationError("must be a number.", code="invalid_type")
        if isinstance(data, float) and not math.isfinite(data):
            raise serializers.ValidationError("must be a finite number.")
        # Compared before float(): Python compares an int of any size with a float exactly.
        if self.min_value is not None and self.exclusive_min and data <= self.min_value:
            raise serializers.ValidationError(f"must be greater than {self.min_value:g}.")
        too_low = self.min_value is not None and data < self.min_value
        if too_low or (self.max_value is not None and data > self.max_value):
            raise serializers.ValidationError(self._range())
        try:
            return float(data)
        except OverflowError:
            raise serializers.ValidationError("is out of range.") from None

    def _range(self) -> str:
        if self.min_value is not None and self.max_value is not None:
            return f"must be between {self.min_value:g} and {self.max_value:g}."
        if self.min_value is not None:
            return f"must be at least {self.min_value:g}."
        return f"must be at most {self.max_value:g}."

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(OpenApiTypes.BOOL)
class QueryBooleanField(serializers.Field[bool, Any, bool, Any]):
    """A boolean query parameter: true/1 or false/0, any case; anything else is a 400."""

    default_error_messages = {"invalid": "Must be true or false."}

    def get_value(self, dictionary: Any) -> Any:
        # DRF reads a blank query value as absent; "?flag=" is a mistake worth a 400.
        return dictionary.get(self.field_name, serializers.empty)

    def to_internal_value(self, data: Any) -> bool:
        value = str(data).strip().lower()
        if value in ("true", "1"):
            return True
        if value in ("false", "0"):
            return False
        self.fail("invalid")
        raise AssertionError  # fail() raises

    def to_representation(self, value: bool) -> bool:
        return value
