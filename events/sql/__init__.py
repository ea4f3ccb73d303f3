"""The SQL both engines share, written once and split by the store's roles.

``engine`` holds the hooks a role's queries run through (``SqlEngine``); ``schema`` the columns of
the tables both engines create; ``log``, ``library``, ``drafts`` and ``presence`` each the shared
queries of one role (``events.store`` lists the roles). An engine (``events.sqlite``,
``events.postgres``) is the composition of these role classes, its hooks, and what is its own.
"""
