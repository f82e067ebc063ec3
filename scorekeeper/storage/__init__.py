"""Storage: the only code that knows SQL. The connection and the one way a write runs
(:mod:`.connection`), the schema's migrations (:mod:`.migrations`), each aggregate's writes
and reads (``game_writes``/``game_reads``, people, figures, tournaments, clubs, ratings,
house), and backups (:mod:`.backups`)."""
