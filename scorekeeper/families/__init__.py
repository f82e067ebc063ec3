"""The card games this app hosts, one folder each, behind one interface (:mod:`.base`).

Each folder has two parts: the family's rules and flow (``family.py``, its rules, its
words), which load no Flask, and its web adapter (``web/``: pages, forms, charts,
tools), which the web layer makes (:mod:`scorekeeper.web.adapters`).

Look a family up in :mod:`.registry`; never ask which one you have.
"""
