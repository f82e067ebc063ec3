"""What the rules of every game family share, pure Python with no Flask and no SQL.

Typed errors carrying field problems (:mod:`.errors`), the one home of every input
check (:mod:`.checks`) and the named-ruleset base (:mod:`.named`). Each family's own
rules live in its folder: ``scorekeeper/families/<family>/rules``.
"""
