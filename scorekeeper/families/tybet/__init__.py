"""The seed-003 partnership game to 21 ("Tybet"): pure rules in ``rules.py``, web side beside."""
