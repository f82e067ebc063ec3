"""The web layer: HTTP to the domain service and back. Pages (:mod:`.views`), the JSON
API (:mod:`.api`, :mod:`.openapi`), the live table (:mod:`.live`), who may read and write
(:mod:`.access`, :mod:`.tokens`), the session cookie (:mod:`.sessions`), the security
headers, ETags, allowed hosts and static files (:mod:`.hardening`), forms (:mod:`.forms`)
and the request's database connection (:mod:`.db`)."""
