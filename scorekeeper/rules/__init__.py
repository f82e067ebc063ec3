"""What the rules of every game family share, pure Python with no Flask and no SQL: typed
errors, the input checks, the named-ruleset base; each family's own rules are in its folder."""
