"""``kierki``: the server's settings (flag, environment, default), backup, games list/delete."""
import sqlite3

import pytest

from scorekeeper import cli, create_app
from scorekeeper.domain import service
from scorekeeper.storage import connection, game_reads
from scorekeeper.storage.backups import SECRET_TABLE

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]


@pytest.fixture
def instance(tmp_path, monkeypatch):
    """An instance folder of its own, and no server setting from the caller's environment."""
    for s in cli.SETTINGS:
        monkeypatch.delenv(s.env, raising=False)
    for name in ("KIERKI_DATABASE", "KIERKI_MAX_CONTENT_LENGTH", "KIERKI_BUSY_TIMEOUT_MS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("KIERKI_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("KIERKI_SECRET_KEY", "x")
    return tmp_path / "instance"


@pytest.fixture
def db(instance):
    db = connection.connect(create_app().config["DATABASE"])
    yield db
    db.close()


@pytest.fixture
def served(monkeypatch):
    """What ``kierki serve`` would serve with (nothing is patched or served)."""
    calls = []
    monkeypatch.setattr(cli, "patch", lambda: None)
    monkeypatch.setattr(cli, "run", lambda make_app, settings, https=False:
                        calls.append(settings))
    return calls


def new(db, dealt=False):
    """A standard-4 game; with its first deal entered if ``dealt``."""
    gid = service.create_game(db, "standard-4", PLAYERS, 0)
    if dealt:
        service.enter_deal(db, service.load(db, gid), 1, {"tricks": [13, 0, 0, 0]}, 1)
    return gid


def test_serve_defaults_are_deliberate(instance, served, capsys):
    assert cli.main(["serve"]) == 0
    assert served == [{"host": "0.0.0.0", "port": 5000, "workers": 1,
                       "connection_limit": 2000, "stream_limit": 8000,
                       "channel_timeout": 60, "max_request_body_size": 2 * 1024 * 1024}]
    out = capsys.readouterr().out
    assert ":5000/" in out and "connection_limit=2000" in out and "stream_limit=8000" in out
    assert "max_request_body_size=2097152" in out and "workers=1" in out
    assert cli.accepted(served[0]) == 10000  # a national night: 4,000 phones and their moves


def test_the_environment_sets_and_a_flag_wins(instance, served, monkeypatch):
    monkeypatch.setenv("KIERKI_CONNECTION_LIMIT", "50")
    monkeypatch.setenv("KIERKI_CHANNEL_TIMEOUT", "30")
    monkeypatch.setenv("KIERKI_PORT", "8080")
    assert cli.main(["serve", "--connection-limit", "70", "--host", "127.0.0.1",
                     "--max-request-body-size", "1000"]) == 0
    kw = served[0]
    assert (kw["connection_limit"], kw["channel_timeout"], kw["port"], kw["host"],
            kw["max_request_body_size"]) == (70, 30, 8080, "127.0.0.1", 1000)


def test_the_body_limit_follows_the_app(instance, served, monkeypatch):
    monkeypatch.setenv("KIERKI_MAX_CONTENT_LENGTH", "65536")
    cli.main(["serve"])
    assert served[0]["max_request_body_size"] == 65536


def test_a_bad_setting_is_refused_before_serving(instance, served, monkeypatch, capsys):
    monkeypatch.setenv("KIERKI_CONNECTION_LIMIT", "many")
    assert cli.main(["serve"]) == 2
    assert served == [] and "KIERKI_CONNECTION_LIMIT" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["serve", "--connection-limit", "0"])
    with pytest.raises(SystemExit):
        cli.main(["serve", "--workers", "0"])
    assert served == []


def test_the_server_is_gunicorn_with_the_settings(instance, monkeypatch):
    """gunicorn's settings as ``run`` gives them, and the app each worker serves."""
    settings = {"host": "127.0.0.1", "port": 0, "workers": 3, "connection_limit": 7,
                "stream_limit": 3, "channel_timeout": 9, "max_request_body_size": 100}
    options = cli.gunicorn_options(settings)
    assert options["bind"] == ["127.0.0.1:0"] and options["workers"] == 3
    assert options["worker_connections"] == 7 + 3  # pages + streams, a process
    assert options["keepalive"] == 9 and options["accesslog"] is None
    from gunicorn.workers.ggevent import GeventWorker
    assert issubclass(options["worker_class"], GeventWorker)
    assert cli.gunicorn_options({**settings, "host": "::"})["bind"] == ["[::]:0"]
    monkeypatch.setenv("KIERKI_PDF_WORKERS", "0")  # no render processes in this test
    app = cli.worker_app({**settings, "workers": 1})
    assert (app.config["MAX_CONTENT_LENGTH"], app.config["LIVE_STREAM_LIMIT"]) == (100, 3)


def test_backup_is_a_consistent_single_file_copy(instance, db, tmp_path, capsys):
    kept = [new(db, dealt=True), new(db)]
    writer = sqlite3.connect(create_app().config["DATABASE"], isolation_level=None)
    writer.execute("begin immediate")  # a write in progress: not waited for, not copied
    writer.execute("delete from deals")
    try:
        assert cli.main(["backup", str(tmp_path / "copy.sqlite")]) == 0
    finally:
        writer.execute("rollback")
        writer.close()
    assert "2 games" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("copy")) \
        == ["copy.sqlite"]  # no -wal or -shm: the copy is one file
    copy = connection.connect(str(tmp_path / "copy.sqlite"))
    try:
        assert copy.execute("pragma integrity_check").fetchone()[0] == "ok"
        assert sorted(g["id"] for g in game_reads.list_games(copy)) == sorted(kept)
        assert len(service.load(copy, kept[0]).state.scored) == 1
    finally:
        copy.close()


def test_backup_into_a_folder_and_never_onto_the_database(instance, db, tmp_path, capsys):
    new(db)
    folder = tmp_path / "backups"
    folder.mkdir()
    assert cli.main(["backup", str(folder)]) == 0
    (made,) = folder.iterdir()
    assert made.name.startswith("kierki-") and made.suffix == ".sqlite"
    live = create_app().config["DATABASE"]
    assert cli.main(["backup", live]) == 1
    assert cli.main(["backup", str(tmp_path / "missing" / "x.sqlite")]) == 1
    assert len(game_reads.list_games(db)) == 1


def test_games_list(instance, db, capsys):
    assert cli.main(["games", "list"]) == 0
    assert capsys.readouterr().out.strip() == "No games."
    first, second = new(db, dealt=True), new(db)
    assert cli.main(["games", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "code", "family", "ruleset", "players", "deals",
                                "updated"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == {first, second}
    assert "standard-4" in rows[first] and "Ala, Bolek, Cela, Darek" in rows[first]
    assert rows[first].split()[1] == service.load(db, first).stored.join_code
    assert rows[first].split()[8] == "1" and rows[second].split()[8] == "0"


def test_games_delete_takes_the_history_too(instance, db, capsys):
    gid, other = new(db, dealt=True), new(db)
    service.enter_deal(db, service.load(db, gid), 1, {"tricks": [0, 13, 0, 0]}, 2)  # an edit
    assert game_reads.deal_history(db, gid)
    assert cli.main(["games", "delete", gid, "no-such-game"]) == 1
    out, err = capsys.readouterr()
    assert f"Deleted {gid}" in out and "No game no-such-game" in err
    with pytest.raises(game_reads.GameNotFound):
        service.load(db, gid)
    for table in ("players", "deals", "deal_history"):
        assert db.execute(f"select count(*) from {table} where game_id = ?",
                          [gid]).fetchone()[0] == 0
    assert [g["id"] for g in game_reads.list_games(db)] == [other]
    assert cli.main(["games", "delete", other]) == 0
    assert game_reads.list_games(db) == []


def test_init_db(instance, capsys):
    assert cli.main(["init-db"]) == 0
    assert "kierki.sqlite" in capsys.readouterr().out


def test_backup_keep_leaves_the_newest_copies_it_made_and_nothing_else(instance, db,
                                                                        tmp_path, capsys):
    new(db)
    folder = tmp_path / "backups"
    folder.mkdir()
    made = [folder / f"kierki-202401{d:02}-030000.sqlite" for d in range(1, 17)]  # 16 days
    others = [folder / "notes.txt", folder / "kierki-before-upgrade.sqlite",
              folder / "other-20240101-030000.sqlite"]
    for path in made + others:
        path.write_bytes(b"an older copy")
    assert cli.main(["backup", str(folder), "--keep", "14"]) == 0
    out = capsys.readouterr().out
    left = sorted(p.name for p in folder.iterdir())
    copies = [name for name in left if name.startswith("kierki-2")]
    assert len(copies) == 14
    newest = copies[-1]
    assert newest not in {p.name for p in made} and f"Backup written: {folder / newest}" in out
    assert copies[:-1] == [p.name for p in made[-13:]]  # the 3 oldest went
    assert "Removed the older copy kierki-20240101-030000.sqlite" in out
    assert {p.name for p in others} <= set(left)  # not made by it: left alone
    copy = connection.connect(str(folder / newest))
    try:
        assert len(game_reads.list_games(copy)) == 1
    finally:
        copy.close()


def test_backup_keep_needs_a_folder_and_a_positive_count(instance, db, tmp_path, capsys):
    assert cli.main(["backup", str(tmp_path / "one.sqlite"), "--keep", "3"]) == 1
    assert "--keep needs a folder" in capsys.readouterr().err
    assert not (tmp_path / "one.sqlite").exists()
    for bad in ("0", "-1", "x"):
        with pytest.raises(SystemExit):
            cli.main(["backup", str(tmp_path), "--keep", bad])


def test_the_stream_budget_and_the_processes_are_settings(instance, served, monkeypatch):
    monkeypatch.setenv("KIERKI_STREAM_LIMIT", "700")
    monkeypatch.setenv("KIERKI_WORKERS", "3")
    assert cli.main(["serve", "--workers", "2"]) == 0
    assert (served[0]["stream_limit"], served[0]["workers"]) == (700, 2)
    assert cli.accepted(served[0]) == 2000 + 700
    monkeypatch.delenv("KIERKI_STREAM_LIMIT")
    monkeypatch.setenv("KIERKI_LIVE_STREAM_LIMIT", "800")  # the app's own setting
    cli.main(["serve"])
    assert served[-1]["stream_limit"] == 800


def test_with_a_public_url_that_is_what_the_phones_are_told(instance, served, monkeypatch,
                                                             capsys):
    monkeypatch.setenv("KIERKI_PUBLIC_URL", "https://kierki.example.org")
    assert cli.main(["serve", "--port", "5001"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].strip() == "https://kierki.example.org/"  # what every phone opens
    assert out[2].startswith("Local address") and out[2].endswith(":5001/")
    monkeypatch.delenv("KIERKI_PUBLIC_URL")
    cli.main(["serve", "--port", "5001"])
    out = capsys.readouterr().out.splitlines()
    assert out[1].strip().startswith("http://") and out[1].strip().endswith(":5001/")
    assert "Local address" not in "\n".join(out)


def test_the_servers_own_answers_say_https_only_when_served_so():
    plain, secure = cli.server_answer(400), cli.server_answer(400, https=True)
    assert plain.startswith(b"HTTP/1.1 400 Bad Request\r\n")
    assert b"Strict-Transport-Security" not in plain
    assert b"\r\nStrict-Transport-Security: max-age=31536000\r\n" in secure
    assert b"Content-Security-Policy: default-src 'self'" in secure
    assert cli.server_answer(414).startswith(b"HTTP/1.1 414 Request URI Too Long\r\n")


def test_behind_a_proxy_it_serves_only_on_loopback_unless_told(instance, served, monkeypatch,
                                                                capsys):
    monkeypatch.setenv("KIERKI_PROXY_HOPS", "1")
    monkeypatch.delenv(cli.TRUST_ANYWHERE, raising=False)
    assert cli.main(["serve"]) == 2  # 0.0.0.0: a phone could forge X-Forwarded-For
    err = capsys.readouterr().err
    assert "forge its address and escape the rate limits" in err
    assert "--trust-proxy-on-public-address" in err and "--host 127.0.0.1" in err
    assert served == []  # nothing served
    assert cli.main(["serve", "--host", "192.168.1.20"]) == 2
    for loopback in ("127.0.0.1", "::1", "localhost"):
        assert cli.main(["serve", "--host", loopback]) == 0
    assert cli.main(["serve", "--trust-proxy-on-public-address"]) == 0
    monkeypatch.setenv(cli.TRUST_ANYWHERE, "1")
    assert cli.main(["serve"]) == 0
    monkeypatch.setenv("KIERKI_PROXY_HOPS", "0")
    monkeypatch.delenv(cli.TRUST_ANYWHERE)
    assert cli.main(["serve"]) == 0  # no proxy trusted: any address


def test_serve_prints_a_host_link_made_anew_at_each_start(instance, served, capsys):
    assert cli.main(["serve", "--port", "5099"]) == 0
    first = [w for w in capsys.readouterr().out.split() if "/host/" in w]
    assert len(first) == 1 and ":5099/host/" in first[0]
    assert cli.main(["serve", "--port", "5099"]) == 0
    second = [w for w in capsys.readouterr().out.split() if "/host/" in w]
    assert second != first
    app = create_app()
    for url, status in ((first[0], 403), (second[0], 302), (second[0], 403)):
        assert app.test_client().get(url.split(":5099", 1)[1]).status_code == status


# -- issue 32 item 9: the secret survives a backup -----------------------------------------

def _mode(path):
    return path.stat().st_mode & 0o777


@pytest.fixture
def own_secret(instance, monkeypatch):
    """The server's secret key in its instance folder, as a real installation has it."""
    monkeypatch.delenv("KIERKI_SECRET_KEY")
    return instance


def _club(client):
    """A game, a tournament and a house variant, each with the token its maker got."""
    from tests.store.test_tournaments import TWELVE
    game = client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                           "first_dealer": 0}).get_json()
    tournament = client.post("/api/tournaments", json={
        "name": "Czwartek", "players": TWELVE, "rounds": 2,
        "rulesets": {"4": "standard-4"}, "seed": "klub"}).get_json()
    doc = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "expected_sum"):
        doc.pop(key)
    variant = client.post("/api/rulesets", json={**doc, "name": {"en": "Ours", "pl": "Nasze"},
                                                 "unbalanced": True}).get_json()
    return game, tournament, variant


def test_a_backup_restored_on_a_new_machine_keeps_every_token(own_secret, tmp_path,
                                                              monkeypatch, capsys):
    old = create_app()
    game, tournament, variant = _club(old.test_client())
    backups = tmp_path / "backups"
    backups.mkdir()
    assert cli.main(["backup", str(backups)]) == 0
    (copy,) = backups.iterdir()
    assert _mode(copy) == 0o600 and "secret key" in capsys.readouterr().out

    fresh = tmp_path / "elsewhere" / "instance"  # a new machine: another folder, no secret
    monkeypatch.setenv("KIERKI_INSTANCE", str(fresh))
    assert cli.main(["restore", str(copy)]) == 0
    out = capsys.readouterr().out
    assert "(4 games, 12 people, 1 tournaments, 1 rulesets)" in out  # 1 + 3 tables
    assert "secret key" in out
    assert (fresh / "secret_key").read_text() == (own_secret / "secret_key").read_text()
    assert _mode(fresh / "secret_key") == 0o600 and _mode(fresh / "kierki.sqlite") == 0o600
    live = connection.connect(str(fresh / "kierki.sqlite"))
    try:  # the secret is kept in backups, never in a live database
        assert SECRET_TABLE not in live.table_names()
    finally:
        live.close()

    new = create_app()
    client = new.test_client()
    stranger = {"REMOTE_ADDR": "10.0.0.7"}  # not the host: only the tokens open
    put = client.put(f"/api/games/{game['id']}/deals/1", environ_base=stranger,
                     json={"version": 1, "result": {"tricks": [13, 0, 0, 0]}},
                     headers={"Authorization": f"Bearer {game['token']}"})
    assert put.status_code == 200 and put.get_json()["version"] == 2
    director = {"Authorization": f"Bearer {tournament['token']}"}
    read = client.get(f"/api/tournaments/{tournament['id']}", headers=director,
                      environ_base=stranger)
    assert read.status_code == 200
    assert "token" in read.get_json()["rounds"][0]["tables"][0]  # the director's fields
    gone = client.delete(f"/api/rulesets/{variant['id']}", environ_base=stranger,
                         headers={"Authorization": f"Bearer {variant['token']}"})
    assert gone.status_code == 204


def test_restore_refuses_a_live_database_with_games_unless_forced(own_secret, db, tmp_path,
                                                                  capsys):
    new(db)
    assert cli.main(["backup", str(tmp_path / "copy.sqlite")]) == 0
    new(db)
    assert cli.main(["restore", str(tmp_path / "copy.sqlite")]) == 1
    assert "not empty (2 games" in capsys.readouterr().err
    assert len(game_reads.list_games(db)) == 2
    assert cli.main(["restore", str(tmp_path / "copy.sqlite"), "--force"]) == 0
    assert len(game_reads.list_games(db)) == 1


def test_restore_refuses_what_is_no_sound_backup(own_secret, tmp_path, capsys):
    (tmp_path / "notes.sqlite").write_bytes(b"not a database at all, " * 100)
    assert cli.main(["restore", str(tmp_path / "notes.sqlite")]) == 1
    assert cli.main(["restore", str(tmp_path / "missing.sqlite")]) == 1
    other = sqlite3.connect(tmp_path / "other.sqlite")
    other.execute("create table x (y)")
    other.commit()
    other.close()
    assert cli.main(["restore", str(tmp_path / "other.sqlite")]) == 1
    err = capsys.readouterr().err
    assert "not a database" in err and "No such backup" in err and "not a Kierki" in err


def test_a_backup_made_before_the_secret_was_kept_restores_and_says_so(own_secret, db,
                                                                       tmp_path, capsys):
    new(db)
    assert cli.main(["backup", str(tmp_path / "copy.sqlite")]) == 0
    old = sqlite3.connect(tmp_path / "copy.sqlite")
    old.execute(f"drop table {SECRET_TABLE}")
    old.commit()
    old.close()
    before = (own_secret / "secret_key").read_text()
    assert cli.main(["restore", str(tmp_path / "copy.sqlite"), "--force"]) == 0
    assert "holds no secret key" in capsys.readouterr().out
    assert (own_secret / "secret_key").read_text() == before


def test_restore_refuses_while_a_server_uses_the_instance(own_secret, db, tmp_path, capsys,
                                                          monkeypatch):
    """``kierki serve`` holds the instance's lock while it runs: a restore, forced or not,
    is refused then, and says why; once the server has stopped, --force replaces it."""
    import subprocess
    import sys

    new(db)
    assert cli.main(["backup", str(tmp_path / "copy.sqlite")]) == 0
    new(db)
    instance = cli.create_app().instance_path
    server = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from scorekeeper.storage import instance_lock; "
        f"lock = instance_lock.hold({instance!r}); print('held', flush=True); "
        "time.sleep(60)")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline().strip() == "held"
        assert cli.main(["restore", str(tmp_path / "copy.sqlite"), "--force"]) == 1
        assert "a server is using" in capsys.readouterr().err
        assert len(game_reads.list_games(db)) == 2  # nothing replaced
    finally:
        server.kill()
        server.wait()
        server.stdout.close()
    assert cli.main(["restore", str(tmp_path / "copy.sqlite"), "--force"]) == 0
    assert len(game_reads.list_games(db)) == 1


def test_serve_holds_the_lock_a_restore_meets(own_secret, db, tmp_path, capsys, monkeypatch):
    new(db)
    assert cli.main(["backup", str(tmp_path / "copy.sqlite")]) == 0
    answers = []
    monkeypatch.setattr(cli, "patch", lambda: None)  # gevent stays out of the test process
    monkeypatch.setattr(cli, "run", lambda make_app, settings, https=False: answers.append(
        cli.main(["restore", str(tmp_path / "copy.sqlite"), "--force"])))
    assert cli.main(["serve"]) == 0
    assert answers == [1] and "a server is using" in capsys.readouterr().err
    # the server has stopped: its lock went with it
    assert cli.main(["restore", str(tmp_path / "copy.sqlite"), "--force"]) == 0
