"""The domain service: what the app does with games, for every family, through the
family interface and the storage. Every write of a game with its version check
(:mod:`.service`), house variants (:mod:`.variants`), people and their figures across
games (:mod:`.people`). No Flask requests here."""
