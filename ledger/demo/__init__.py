"""The demo loader (``manage.py load_demo``): an evening of each game, a circle's season and tournaments, for
``make run``. It composes the features, so it sits above all of them."""
