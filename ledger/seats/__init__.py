"""Seats held by the players' own phones: joining a table by QR code or a short code, one phone per seat, the
seated phone's live page, and recording from it where the table allows."""
