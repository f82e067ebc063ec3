"""The card games this app hosts, one folder each, behind one interface (:mod:`.base`).

Look a family up in :mod:`.registry`; never ask which one you have.
"""
