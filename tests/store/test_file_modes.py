"""The database, its WAL files, the secret key and the instance folder are readable by the
server's user alone (issue 26): they hold every name, score and join code."""
import os
import stat

from scorekeeper import create_app


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_instance_files_are_the_servers_users_alone(tmp_path, monkeypatch):
    instance = tmp_path / "instance"
    monkeypatch.setenv("KIERKI_INSTANCE", str(instance))
    old = os.umask(0o022)  # a usual umask: files 0644 unless the app says otherwise
    try:
        db = instance / "kierki.sqlite"
        instance.mkdir(mode=0o755)
        db.touch(mode=0o644)  # as an older version left it
        app = create_app({"DATABASE": str(db), "TESTING": True})
        client = app.test_client()
        made = client.post("/api/games", json={"ruleset": "standard-4",
                                               "players": ["Ala", "Bolek", "Cela", "Darek"]})
        assert made.status_code == 201
        for path in (db, f"{db}-wal", f"{db}-shm", instance / "secret_key"):
            assert os.path.exists(path), path
            assert mode(path) & 0o077 == 0, (path, oct(mode(path)))
        assert mode(instance) == 0o700
    finally:
        os.umask(old)
