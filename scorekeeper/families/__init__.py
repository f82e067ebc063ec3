"""The card games this app hosts, one folder each, behind one interface (:mod:`.base`):
pure rules and flow (``family.py``) and a web adapter (``web/``). Look a family up in
:mod:`.registry`."""
