from __future__ import annotations

from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "billing"

    def ready(self) -> None:
        # accounts imports no app above it, so billing plugs into accounts instead: every user
        # accounts creates gets a balance row, and the dashboard's home page shows the balance.
        from accounts.limits import use_spend_readers
        from accounts.services import on_user_created
        from accounts.views import add_home_section
        from billing.selectors import key_spend, user_spend
        from billing.services import open_balance
        from billing.views import balance_section

        on_user_created(open_balance)
        add_home_section(balance_section)
        # The key page and the admin show the spend against the limits through accounts.
        use_spend_readers(key=key_spend, user=user_spend)
