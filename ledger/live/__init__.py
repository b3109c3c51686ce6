"""Live lines: the push fan-out (Redis pub/sub, one process without Redis) and the Server-Sent Event streams that
carry it to the share link's and the standings' viewers.

``fanout``: topics, publishing, the per-process hub and its subscriptions, the first state kept per topic.
``reads``: the live lines' few database reads at a time. ``links``: links looked up, and the message a changed link
sends. ``streams``: the ``text/event-stream`` answer. ``limits``: how many lines are open. ``listeners``: what the
books' hooks make the lines hear. ``views``: the share link's live line.
"""
