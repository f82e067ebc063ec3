"""The rematch link in the store (issue 35): one rematch per game, held by the write and
by the unique index on ``games.rematch_of``; a game made twice from the same ask is one."""
import sqlite3
import threading

import pytest

from scorekeeper.domain import service
from scorekeeper.storage import connection, game_reads, game_writes


def rematch(db, gid):
    stored = game_reads.load_game(db, gid)
    return game_writes.start_rematch(db, gid, stored.family, stored.ruleset, stored.players[1:]
                               + stored.players[:1], stored.settings)


def test_the_second_ask_gets_the_first_rematch_and_moves_nothing(db):
    gid = service.create_game(db, "standard-4", ["Ala", "Bolek", "Cela", "Darek"], 0)
    new, made = rematch(db, gid)
    assert made and game_reads.load_game(db, gid).version == 2
    assert rematch(db, gid) == (new, False)
    assert game_reads.load_game(db, gid).version == 2  # the join changed nothing
    assert game_reads.load_game(db, new).rematch_of == gid
    assert game_reads.load_game(db, gid).rematch == new == game_reads.rematch_of(db, gid)
    with pytest.raises(sqlite3.IntegrityError):  # the index holds it whatever path writes
        db.execute("update games set rematch_of = ? where id = ?", [gid, gid])


def test_phones_asking_at_once_on_their_own_connections_get_one_game(db, tmp_path):
    gid = service.create_game(db, "standard-4", ["Ala", "Bolek", "Cela", "Darek"], 0)
    got, start = [], threading.Barrier(4)

    def phone():
        own = connection.connect(str(tmp_path / "s.sqlite"))
        start.wait()
        got.append(rematch(own, gid))
        own.close()

    threads = [threading.Thread(target=phone) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({new for new, _ in got}) == 1
    assert sorted(made for _, made in got) == [False, False, False, True]
    assert game_reads.count_games(db) == 2
