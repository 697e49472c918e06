"""Game records: KIF / KI2 / CSA / JKF / SFEN readers and writers, the crash-safe game
journal and the library of past games."""

from board_bridge.records.csa import FLOODGATE_RULESET, parse_csa, write_csa
from board_bridge.records.csa_moves import CsaMoveError, move_from_csa, move_to_csa
from board_bridge.records.files import (
    atomic_write,
    detect_encoding,
    format_of,
    parse_text,
    read_file,
    render,
    write_file,
)
from board_bridge.records.jkf import parse_jkf, write_jkf
from board_bridge.records.ki2 import parse_ki2, write_ki2
from board_bridge.records.kif import parse_kif, write_kif
from board_bridge.records.model import (
    HANDICAPS,
    GameRecord,
    ParseProblem,
    RecordedMove,
    RecordParseError,
    RecordWriteError,
    TimeControl,
    Variation,
)
from board_bridge.records.sfen import parse_usi, write_sfen, write_usi

__all__ = [
    "FLOODGATE_RULESET", "HANDICAPS", "CsaMoveError", "GameRecord", "ParseProblem",
    "RecordParseError", "RecordWriteError", "RecordedMove", "TimeControl", "Variation",
    "atomic_write", "detect_encoding", "format_of", "move_from_csa", "move_to_csa",
    "parse_csa", "parse_jkf", "parse_ki2", "parse_kif", "parse_text", "parse_usi",
    "read_file", "render", "write_csa", "write_file", "write_jkf", "write_ki2", "write_kif",
    "write_sfen", "write_usi",
]  # fmt: skip
