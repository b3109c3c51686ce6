"""Signing the list: at the end of an evening every seated player signs on their own phone, or the scorekeeper
signs for a player who left."""
