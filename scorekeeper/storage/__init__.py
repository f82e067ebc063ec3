"""Storage: the only code that knows SQL. The schema, its migrations and every write
(:mod:`.store`), every read (:mod:`.queries`), the one way a write commits
(:mod:`.commits`) and the connections lent to requests (:mod:`.pool`)."""
