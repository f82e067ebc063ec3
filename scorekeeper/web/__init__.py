"""The web layer: HTTP to the domain service and back. Pages (:mod:`.views`), the JSON
API (:mod:`.api`, :mod:`.openapi`), the live table (:mod:`.live`), who may write
(:mod:`.access`), the HTTP cache layer (:mod:`.caches`), the session cookie
(:mod:`.sessions`), the security headers and static files (:mod:`.hardening`), forms
(:mod:`.forms`) and the request's database connection (:mod:`.db`)."""
