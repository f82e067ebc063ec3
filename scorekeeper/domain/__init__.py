"""The domain: what the app does with games, tournaments, clubs and people, for every
family, through the family interface and the storage. No Flask requests here."""
