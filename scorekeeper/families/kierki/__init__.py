"""Kierki (Polish Hearts): its pure rules in ``rules/``, its web side beside them."""
