"""What the families and the app share beside the rules: languages and words
(:mod:`.i18n`), the app's JSON (:mod:`.safejson`), charts drawn as SVG (:mod:`.charts`)
and the bounded mapping every kept value lives in (:mod:`.lru`). No SQL, no service."""
