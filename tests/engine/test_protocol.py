"""USI line parsing and command building, on lines the real engines print."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from board_bridge.engine import (
    FAIRY_STOCKFISH,
    GENERIC,
    GPSSHOGI,
    EngineConfig,
    EngineProtocolError,
    Info,
    Limit,
    Score,
    Timeouts,
    UnsupportedError,
    go_command,
    is_usi_move,
    parse_bestmove,
    parse_info,
    parse_option,
    position_command,
    profile_for,
    side_to_move,
)

FSF_INFO = (
    "info depth 11 seldepth 16 multipv 1 score cp -110 nodes 30330 nps 244596 tbhits 0 "
    "time 124 pv 5a4b 4g4f 3c3d 8h2b 3a2b"
)
GPS_INFO = (
    "info depth 9 seldepth 17 time 616 score cp 5998 nodes 388673 nps 630190 pv 1a2a 9i8h "
    "2a3a 2c3c G*7f 8h9g 3a4a 9g9f 7f7e 3c4c 4a5a 9f9e 7e7d 4c5c pass 9e8f pass"
)


# ----------------------------------------------------------------- options


def test_option_with_spaces_in_name_and_range() -> None:
    option = parse_option("option name Move Overhead type spin default 30 min 0 max 5000")
    assert option is not None
    assert (option.name, option.type, option.default, option.min, option.max) == (
        "Move Overhead",
        "spin",
        "30",
        0,
        5000,
    )
    assert option.format_value(100) == "100"
    assert option.format_value("42") == "42"
    with pytest.raises(UnsupportedError, match="outside 0..5000"):
        option.format_value(6000)
    with pytest.raises(UnsupportedError, match="a number"):
        option.format_value("fast")
    with pytest.raises(UnsupportedError):
        option.format_value(True)


def test_combo_check_button_string_options() -> None:
    combo = parse_option(
        "option name Analysis Contempt type combo default Both var Both var Off var White var Black"
    )
    assert combo is not None and combo.var == ("Both", "Off", "White", "Black")
    assert combo.format_value("off") == "Off"
    with pytest.raises(UnsupportedError, match="one of Both, Off, White, Black"):
        combo.format_value("Sideways")

    check = parse_option("option name Ponder type check default false")
    assert check is not None and check.default == "false"
    assert check.format_value(True) == "true"
    assert check.format_value("FALSE") == "false"
    with pytest.raises(UnsupportedError):
        check.format_value("maybe")

    button = parse_option("option name Clear Hash type button")
    assert button is not None and button.type == "button"
    assert button.format_value(None) is None

    empty = parse_option("option name Debug Log File type string default ")
    assert empty is not None and empty.default is not None and empty.default == ""
    gps = parse_option("option name CSAFile type string default <empty>")
    assert gps is not None and gps.default == ""
    assert gps.format_value("") == "<empty>"
    assert gps.format_value("/tmp/game.csa") == "/tmp/game.csa"
    with pytest.raises(UnsupportedError, match="line break"):
        gps.format_value("x\nquit")


def test_variant_combo_with_many_choices() -> None:
    line = "option name UCI_Variant type combo default shogi " + " ".join(
        f"var {v}" for v in ("chess", "minishogi", "shogi", "xiangqi")
    )
    option = parse_option(line)
    assert option is not None and option.default == "shogi"
    assert option.var == ("chess", "minishogi", "shogi", "xiangqi")


@pytest.mark.parametrize(
    "line",
    [
        "option",
        "option name",
        "option name Foo",
        "option name Foo type",
        "option name Foo type colour default red",
        "option type spin name X",
    ],
)
def test_unreadable_option_lines_are_skipped(line: str) -> None:
    assert parse_option(line) is None


# ----------------------------------------------------------------- info


def test_info_from_fairy_stockfish() -> None:
    info = parse_info(FSF_INFO)
    assert info.depth == 11 and info.seldepth == 16 and info.multipv == 1
    assert info.score == Score(cp=-110)
    assert info.nodes == 30330 and info.nps == 244596 and info.time == 124
    assert info.pv == ("5a4b", "4g4f", "3c3d", "8h2b", "3a2b")


def test_info_from_gpsshogi_stops_pv_at_pass() -> None:
    info = parse_info(GPS_INFO)
    assert info.depth == 9 and info.time == 616 and info.score == Score(cp=5998)
    assert info.pv[-1] == "4c5c" and "pass" not in info.pv and len(info.pv) == 14
    assert (
        parse_info("info depth 10 seldepth 1 time 2 score cp -1148897 nodes 22 pv resign").pv == ()
    )
    assert parse_info("info currmove 3i3h").currmove == "3i3h"


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("score mate 3", Score(mate=3, mate_side=1)),
        ("score mate -4", Score(mate=-4, mate_side=-1)),
        ("score mate 0", Score(mate=0, mate_side=-1)),
        ("score mate +", Score(mate_side=1)),
        ("score mate -", Score(mate_side=-1)),
        ("score cp 145 upperbound", Score(cp=145, bound="upper")),
        ("score cp 53 lowerbound", Score(cp=53, bound="lower")),
    ],
)
def test_scores(text: str, score: Score) -> None:
    info = parse_info(f"info depth 5 {text} nodes 10 pv 7g7f")
    assert info.score == score
    assert info.nodes == 10 and info.pv == ("7g7f",)


def test_score_text() -> None:
    assert str(Score(cp=-35)) == "cp -35"
    assert str(Score(mate=5, mate_side=1)) == "mate 5"
    assert str(Score(mate_side=-1)) == "mate -"
    assert str(Score(cp=3, bound="lower")) == "cp 3 lowerbound"
    assert Score(mate=0, mate_side=-1).is_mate and not Score(cp=0).is_mate


def test_info_string_keeps_its_text() -> None:
    info = parse_info("info depth 3 string loss by  checkmate")
    assert info.depth == 3 and info.string == "loss by  checkmate"


def test_broken_info_fields_are_skipped_not_fatal() -> None:
    info = parse_info("info depth x score cp abc nodes -- nps 12 pv 7g7f zz99 3c3d")
    assert info.depth is None and info.score is None and info.nodes is None
    assert info.nps == 12 and info.pv == ("7g7f",)
    assert parse_info("info score mate") == Info()


def test_info_merge_keeps_older_fields() -> None:
    first = parse_info("info depth 6 score cp 30 nodes 100 pv 7g7f 3c3d")
    later = parse_info("info depth 7 currmove 2g2f")
    merged = first.merged(later)
    assert merged.depth == 7 and merged.score == Score(cp=30) and merged.pv == ("7g7f", "3c3d")
    assert merged.currmove == "2g2f"


@given(st.text(max_size=200))
def test_parse_info_never_raises(text: str) -> None:
    parse_info("info " + text)


# ----------------------------------------------------------------- bestmove


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("bestmove 7g7f", ("7g7f", None)),
        ("bestmove 5a4b ponder 4g4f", ("5a4b", "4g4f")),
        ("bestmove G*2b", ("G*2b", None)),
        ("bestmove 8h2b+ ponder 3a2b", ("8h2b+", "3a2b")),
        ("bestmove resign", ("resign", None)),
        ("bestmove win", ("win", None)),
        ("bestmove (none)", ("resign", None)),
        ("bestmove 7g7f ponder", ("7g7f", None)),
        ("bestmove 7g7f ponder xx", ("7g7f", None)),
    ],
)
def test_bestmove(line: str, expected: tuple[str, str | None]) -> None:
    assert parse_bestmove(line) == expected


@pytest.mark.parametrize("line", ["bestmove", "bestmove zz99", "bestmove 7g7", "bestmove 0a1b"])
def test_illegal_bestmove_strings_are_protocol_errors(line: str) -> None:
    with pytest.raises(EngineProtocolError, match="bestmove"):
        parse_bestmove(line)


@pytest.mark.parametrize("move", ["7g7f", "8h2b+", "P*5e", "R*1a", "1a9i"])
def test_usi_move_syntax(move: str) -> None:
    assert is_usi_move(move)


@pytest.mark.parametrize("move", ["", "7g7f ", "K*5e", "7g7f+ ", "0a1a", "7j7f", "p*5e", "+7g7f"])
def test_not_usi_moves(move: str) -> None:
    assert not is_usi_move(move)


# ----------------------------------------------------------------- positions


def test_position_commands() -> None:
    assert position_command("startpos") == "position startpos"
    assert position_command("startpos", ["7g7f", "3c3d"]) == "position startpos moves 7g7f 3c3d"
    sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    assert position_command(sfen) == f"position sfen {sfen}"
    assert position_command("sfen " + sfen, ["7g7f"]) == f"position sfen {sfen} moves 7g7f"
    assert (
        position_command("8k/9/7G1/9/9/9/9/9/K8 b G") == "position sfen 8k/9/7G1/9/9/9/9/9/K8 b G 1"
    )


@pytest.mark.parametrize(
    ("position", "moves"),
    [
        ("startpos\nquit", []),
        ("startpos", ["7g7f\nquit"]),
        ("startpos", ["7g7f", "bogus"]),
        ("lnsgkgsnl b - 1", []),
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1", []),
    ],
)
def test_bad_positions_are_refused_before_sending(position: str, moves: list[str]) -> None:
    with pytest.raises(ValueError):
        position_command(position, moves)


def test_side_to_move() -> None:
    assert side_to_move("startpos") == "b"
    assert side_to_move("startpos", ["7g7f"]) == "w"
    assert side_to_move("8k/8G/8P/9/9/9/9/9/K8 w - 1") == "w"
    assert side_to_move("8k/8G/8P/9/9/9/9/9/K8 w - 1", ["1a2a"]) == "b"


# ----------------------------------------------------------------- limits and go


def test_limit_validation() -> None:
    with pytest.raises(ValueError, match="byoyomi and binc"):
        Limit(btime=1000, byoyomi=100, binc=10)
    with pytest.raises(ValueError, match="non-negative"):
        Limit(movetime=-1)
    with pytest.raises(ValueError, match="give a clock"):
        Limit()
    with pytest.raises(ValueError):
        Limit(depth=True)  # type: ignore[arg-type]


def test_budget_and_spend() -> None:
    limit = Limit(btime=1000, wtime=5000, byoyomi=300)
    assert limit.budget_ms("b") == 1300 and limit.budget_ms("w") == 5300
    spent = limit.spend("b", 1200)
    assert spent.btime == 0 and spent.byoyomi == 100 and spent.wtime == 5000
    assert limit.spend("w", 100).wtime == 4900
    assert Limit(movetime=500).spend("b", 200).movetime == 300
    assert Limit(depth=5).budget_ms("b") is None
    assert Limit(infinite=True).budget_ms("w") is None
    assert Limit(btime=100, wtime=100, binc=50, winc=70).budget_ms("w") == 170


def test_go_for_a_full_usi_engine() -> None:
    go = GENERIC.go_params
    assert go_command(Limit(btime=1000, wtime=2000, byoyomi=300), "b", supported=go) == (
        "go btime 1000 wtime 2000 byoyomi 300"
    )
    assert go_command(Limit(byoyomi=300), "w", supported=go) == "go btime 0 wtime 0 byoyomi 300"
    assert go_command(Limit(btime=9, wtime=8, binc=1, winc=2), "b", supported=go) == (
        "go btime 9 wtime 8 binc 1 winc 2"
    )
    assert go_command(Limit(movetime=250), "b", supported=go) == "go movetime 250"
    assert go_command(Limit(depth=4, nodes=900), "b", supported=go) == "go depth 4 nodes 900"
    assert go_command(Limit(infinite=True), "b", supported=go) == "go infinite"
    assert go_command(Limit(btime=5, wtime=5, byoyomi=1), "b", ponder=True, supported=go) == (
        "go ponder btime 5 wtime 5 byoyomi 1"
    )


def test_go_translated_for_gpsshogi() -> None:
    go = GPSSHOGI.go_params
    assert go_command(Limit(movetime=250), "b", supported=go) == "go btime 0 wtime 0 byoyomi 250"
    assert go_command(Limit(btime=9000, wtime=8000, binc=100, winc=200), "w", supported=go) == (
        "go btime 9000 wtime 8000 byoyomi 200"
    )
    assert go_command(Limit(byoyomi=300, depth=3), "b", supported=go) == (
        "go btime 0 wtime 0 byoyomi 300"
    )
    for limit in (Limit(depth=3), Limit(nodes=1000)):
        with pytest.raises(UnsupportedError, match="no go"):
            go_command(limit, "b", supported=go)
    with pytest.raises(UnsupportedError, match="ponder"):
        go_command(Limit(byoyomi=100), "b", ponder=True, supported=go)


def test_profiles_are_found_by_id_name() -> None:
    assert profile_for("Fairy-Stockfish 11.1 LB 64") is FAIRY_STOCKFISH
    assert profile_for("gpsshogi (smp) vm r3033 wordsize 64 gcc 12.2.0") is GPSSHOGI
    assert profile_for("YaneuraOu NNUE 7.6") is GENERIC
    assert profile_for("anything", "gpsshogi") is GPSSHOGI
    with pytest.raises(ValueError):
        profile_for("x", "no-such-profile")
    assert FAIRY_STOCKFISH.can_ponder and not GPSSHOGI.can_ponder
    assert FAIRY_STOCKFISH.options["UCI_Variant"] == "shogi"


def test_engine_config_from_a_settings_table() -> None:
    config = EngineConfig.from_dict(
        {
            "path": "/usr/games/gpsusi",
            "options": {"Thread": 1},
            "timeouts": {"startup": 90},
            "ponder": True,
        }
    )
    assert config.command == ("/usr/games/gpsusi",)
    timeouts = config.effective_timeouts(GPSSHOGI)
    assert timeouts.startup == 90.0 and timeouts.ready == 60.0 and timeouts.stop == Timeouts().stop
    with pytest.raises(ValueError, match="unknown engine settings: colour"):
        EngineConfig.from_dict({"path": "x", "colour": "red"})
    with pytest.raises(ValueError, match="path"):
        EngineConfig.from_dict({"options": {}})
    with pytest.raises(ValueError, match="unknown engine timeouts"):
        EngineConfig.from_dict({"path": "x", "timeouts": {"forever": 1}})


def test_search_deadline() -> None:
    timeouts = Timeouts(search_margin=2.0, search_margin_ratio=0.1, unbounded_search=50.0)
    assert timeouts.search_deadline(1000) == pytest.approx(3.1)
    assert timeouts.search_deadline(None) == 50.0


def test_go_command_swaps_clocks_for_chess_minded_engines() -> None:
    limit = Limit(btime=1000, wtime=2000, binc=10, winc=20)
    assert go_command(limit, "b", swap_clocks=True) == ("go btime 2000 wtime 1000 binc 20 winc 10")
    assert go_command(Limit(byoyomi=300), "b", swap_clocks=True) == (
        "go btime 0 wtime 0 byoyomi 300"
    )
