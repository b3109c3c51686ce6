"""A phone or browser as Talon knows it without an account: its device id (a cookie), and the Web Push
subscriptions its owner opted into, which a page lists so they can be switched off."""
