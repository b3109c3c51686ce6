"""Talon's JSON API: one ``APIView`` per operation, over the same services as the pages.

Views take HTTP in and give HTTP out; nested ``InputSerializer``s check the shape of a body (types, lengths),
``ledger.services`` and ``rules`` decide everything else, and ``errors.exception_handler`` turns their errors
into 400/409 answers. URLs are in ``ledger/api_urls.py``; the walk-through is in ``docs/api.md``.

A serializer's type argument is what it reads: ``Serializer[Hand]`` shows a hand, ``Serializer[dict[str, Any]]``
a dict; an input serializer is ``Serializer[None]``, since it only ever checks a body and never wraps an object.
"""
