"""What a game becomes outside the app: PDF score sheets (:mod:`.pdf`), CSV and JSON
exports and the import that reads them back (:mod:`.exchange`, :mod:`.schema`), and the
join link and its QR code (:mod:`.share`)."""
