"""Django's PostgreSQL backend, with a connection pool that fails fast while the database is
down (``ENGINE = "core.postgresql"``; see ``base``)."""
