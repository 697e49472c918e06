"""`board-bridge convert`, `show` and `games`: record files and the game library."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

DEFAULT_LIBRARY = "~/.local/share/board-bridge/games/library.sqlite"
FORMAT_CHOICES = ("kif", "kifu", "ki2", "ki2u", "csa", "csa3", "jkf", "sfen", "usi")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "convert",
        help="convert a game record between formats (by file extension)",
        description="Read IN and write OUT; the formats come from the extensions "
        "(.kif Shift_JIS, .kifu UTF-8, .ki2, .ki2u, .csa, .jkf, .json, .sfen, .usi).",
    )
    p.add_argument("input", metavar="IN")
    p.add_argument("output", metavar="OUT", help="output file, or - for standard output")
    p.add_argument("--format", choices=FORMAT_CHOICES, help="output format (default: from OUT)")
    p.add_argument(
        "--keep-going", action="store_true", help="write what could be read of a malformed file"
    )
    p.set_defaults(func=run_convert)

    p = sub.add_parser("show", help="print a record's moves in USI, its result and its times")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=run_show)

    p = sub.add_parser("games", help="list the library of past games or export one")
    p.add_argument("--db", default=os.environ.get("BOARD_BRIDGE_LIBRARY", DEFAULT_LIBRARY),
                   help="the library database (default: %(default)s)")  # fmt: skip
    gsub = p.add_subparsers(dest="games_command", metavar="ACTION")
    g = gsub.add_parser("list", help="list the games, newest first")
    g.add_argument("--player", help="only games with this player (part of the name)")
    g.add_argument("--limit", type=int, help="at most this many")
    g.set_defaults(func=run_games_list)
    g = gsub.add_parser("export", help="write one game in a format")
    g.add_argument("id", type=int, metavar="ID")
    g.add_argument("--format", choices=FORMAT_CHOICES, default="kifu")
    g.add_argument("--out", help="output file (default: standard output)")
    g.set_defaults(func=run_games_export)
    g = gsub.add_parser("add", help="index record files in the library")
    g.add_argument("files", nargs="+", metavar="FILE")
    g.set_defaults(func=run_games_add)
    g = gsub.add_parser("unfinished", help="list the unfinished games of a records directory")
    g.add_argument("directory", metavar="DIR")
    g.set_defaults(func=run_games_unfinished)
    p.set_defaults(func=run_games_list, player=None, limit=None)


def _read(path: str, keep_going: bool = False):  # type: ignore[no-untyped-def]
    from board_bridge.cli import CliError
    from board_bridge.records.files import UnknownFormatError, read_file
    from board_bridge.records.model import RecordParseError

    try:
        record = read_file(path)
    except RecordParseError as exc:
        if keep_going and exc.partial is not None:
            print(f"board-bridge: warning: {exc} (writing the {len(exc.partial.moves)} moves read)",
                  file=sys.stderr)  # fmt: skip
            return exc.partial
        raise CliError(str(exc)) from None
    except UnknownFormatError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"{path}: {exc.strerror or exc}") from None
    for problem in record.problems:
        print(f"board-bridge: note: {path}:{problem}", file=sys.stderr)
    return record


def _emit(text: str, encoding: str, out: str | None) -> None:
    from board_bridge.cli import CliError
    from board_bridge.records.files import atomic_write, encode
    from board_bridge.records.model import RecordWriteError

    if out is None or out == "-":
        sys.stdout.write(text)
        return
    try:
        atomic_write(out, encode(text, encoding))
    except RecordWriteError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"{out}: {exc.strerror or exc}") from None


def run_convert(args: argparse.Namespace) -> int:
    from board_bridge.cli import CliError
    from board_bridge.records.files import EXTENSIONS, render

    record = _read(args.input, args.keep_going)
    fmt = args.format
    if fmt is None:
        ext = Path(args.output).suffix.lower()
        if args.output == "-" or ext not in EXTENSIONS:
            raise CliError(f"cannot tell the format of {args.output!r}: give --format")
        fmt = {".kifu": "kifu", ".ki2u": "ki2u", ".json": "jkf"}.get(ext, EXTENSIONS[ext][0])
    text, encoding = render(record, fmt)
    if encoding == "cp932":
        try:
            text.encode("cp932")
        except UnicodeEncodeError:
            text, encoding = text.replace("encoding=Shift_JIS", "encoding=UTF-8", 1), "utf-8"
    _emit(text, encoding, args.output)
    return 0


def _clock(seconds: float) -> str:
    s = float(seconds)
    m, sec = divmod(s, 60)
    text = f"{int(m)}:{sec:05.2f}" if not s.is_integer() else f"{int(m)}:{int(sec):02}"
    return text


def run_show(args: argparse.Namespace) -> int:
    record = _read(args.file)
    print(f"sente: {record.sente or '-'}")
    print(f"gote:  {record.gote or '-'}")
    if record.event:
        print(f"event: {record.event}")
    if record.started:
        print(f"start: {record.started.isoformat(sep=' ')}")
    if record.handicap not in (None, "平手"):
        print(f"handicap: {record.handicap}")
    print(f"position: {record.board(0).to_usi_position()}")
    totals = [0.0, 0.0]
    for i, rm in enumerate(record.moves):
        mover = record.mover(i)
        line = f"{i + 1:4} {'▲△'[mover]} {rm.move.usi():6}"
        if rm.time_used is not None:
            totals[mover] += rm.time_used
            line += f" {_clock(rm.time_used):>8} / {_clock(totals[mover]):>8}"
        print(line)
    if record.illegal_move is not None:
        print(f"     illegal: {record.illegal_move.usi()}")
    print(f"result: {record.outcome if record.outcome is not None else 'not finished'}")
    if any(rm.time_used is not None for rm in record.moves):
        print(f"time: black {_clock(totals[0])}, white {_clock(totals[1])}")
    print(f"usi: position {record.usi_position()}")
    return 0


def _library(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from board_bridge.cli import CliError
    from board_bridge.records.library import GameLibrary

    path = Path(os.path.expanduser(args.db))
    try:
        return GameLibrary(path)
    except Exception as exc:  # sqlite3.Error, OSError
        raise CliError(f"{path}: cannot open the library: {exc}") from None


def run_games_list(args: argparse.Namespace) -> int:
    with _library(args) as lib:
        entries = lib.list(limit=args.limit, player=args.player)
    if not entries:
        print("no games")
        return 0
    for e in entries:
        date = e.started.strftime("%Y-%m-%d %H:%M") if e.started else "?"
        result = e.result or "unfinished"
        if e.termination:
            result += f" ({e.termination})"
        print(f"{e.id:5}  {date}  {e.sente or '-'} vs {e.gote or '-'}  {e.moves} moves  {result}")
    return 0


def run_games_export(args: argparse.Namespace) -> int:
    from board_bridge.cli import CliError
    from board_bridge.records.library import LibraryError

    with _library(args) as lib:
        try:
            text, encoding = lib.export(args.id, args.format)
        except LibraryError as exc:
            raise CliError(str(exc)) from None
    _emit(text, encoding, args.out)
    return 0


def run_games_add(args: argparse.Namespace) -> int:
    from board_bridge.cli import CliError
    from board_bridge.records.library import LibraryError

    with _library(args) as lib:
        try:
            gid = lib.add_files(args.files)
        except LibraryError as exc:
            raise CliError(str(exc)) from None
    print(f"added game {gid}")
    return 0


def run_games_unfinished(args: argparse.Namespace) -> int:
    from board_bridge.records.journal import find_unfinished

    found = find_unfinished(args.directory)
    if not found:
        print("no unfinished games")
    for info in found:
        state = "ended, records to write" if info.ended else "in play"
        print(
            f"{info.path}  {info.sente or '-'} vs {info.gote or '-'}  {info.moves} moves  {state}"
        )
    return 0
