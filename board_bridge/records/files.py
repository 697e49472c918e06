"""Record files: the format from the extension, the encoding detected, atomic writes."""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Final

from board_bridge.records.csa import parse_csa, write_csa
from board_bridge.records.jkf import parse_jkf, write_jkf
from board_bridge.records.ki2 import parse_ki2, write_ki2
from board_bridge.records.kif import parse_kif, write_kif
from board_bridge.records.model import GameRecord, RecordParseError, RecordWriteError
from board_bridge.records.sfen import parse_usi, write_sfen, write_usi
from board_bridge.shogi import Ruleset

#: Extension -> (format, default encoding for writing).
EXTENSIONS: Final = {
    ".kif": ("kif", "cp932"),
    ".kifu": ("kif", "utf-8"),
    ".ki2": ("ki2", "cp932"),
    ".ki2u": ("ki2", "utf-8"),
    ".csa": ("csa", "utf-8"),
    ".jkf": ("jkf", "utf-8"),
    ".json": ("jkf", "utf-8"),
    ".sfen": ("sfen", "utf-8"),
    ".usi": ("usi", "utf-8"),
}
#: Format names the journal and the CLI accept -> file extension.
FORMAT_EXTENSIONS: Final = {
    "kif": ".kif",
    "kifu": ".kifu",
    "ki2": ".ki2",
    "ki2u": ".ki2u",
    "csa": ".csa",
    "csa3": ".csa",
    "jkf": ".jkf",
    "sfen": ".sfen",
    "usi": ".usi",
}
READERS: Final[dict[str, Callable[[str, Ruleset | None], GameRecord]]] = {
    "kif": parse_kif,
    "ki2": parse_ki2,
    "csa": parse_csa,
    "jkf": parse_jkf,
    "sfen": parse_usi,
    "usi": parse_usi,
}
ENCODING_LINE_RE: Final = re.compile(rb"^#KI[F2][^\r\n]*encoding=([A-Za-z0-9_-]+)", re.M)
CSA_ENCODING_RE: Final = re.compile(rb"^'CSA encoding=([A-Za-z0-9_-]+)", re.M)


class UnknownFormatError(ValueError):
    """A file name whose extension is not a record format."""


def format_of(path: str | os.PathLike[str]) -> str:
    """The format of a file from its extension: kif, ki2, csa, jkf, sfen or usi."""
    ext = Path(path).suffix.lower()
    if ext not in EXTENSIONS:
        known = " ".join(EXTENSIONS)
        raise UnknownFormatError(f"{path}: unknown record extension {ext!r} (known: {known})")
    return EXTENSIONS[ext][0]


def detect_encoding(data: bytes) -> str:
    """The encoding of record bytes: a UTF-8 BOM, a ``#KIF ... encoding=`` or
    ``'CSA encoding=`` line, valid UTF-8, else Shift_JIS (cp932, its Windows form)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    for pattern in (ENCODING_LINE_RE, CSA_ENCODING_RE):
        m = pattern.search(data[:4096])
        if m:
            name = m.group(1).decode("ascii").lower().replace("_", "-")
            if name in ("shift-jis", "sjis", "cp932", "ms932", "windows-31j"):
                return "cp932"
            if name in ("utf-8", "utf8"):
                return "utf-8"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "cp932"
    return "utf-8"


def decode(data: bytes) -> str:
    encoding = detect_encoding(data)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        # A file that names one encoding and is in another: Shift_JIS is what is left.
        return data.decode("cp932", errors="replace")


def parse_text(text: str, fmt: str, ruleset: Ruleset | None = None) -> GameRecord:
    """Read ``text`` in the format ``fmt`` (kif, kifu, ki2, csa, jkf, sfen, usi)."""
    name = {"kifu": "kif", "ki2u": "ki2", "csa3": "csa", "json": "jkf"}.get(fmt, fmt)
    if name not in READERS:
        raise UnknownFormatError(f"unknown record format {fmt!r}")
    return READERS[name](text, ruleset)


def read_file(path: str | os.PathLike[str], ruleset: Ruleset | None = None) -> GameRecord:
    """Read a record file: the format from the extension, the encoding detected.
    Raises RecordParseError (with the path and line number, and the partial record)."""
    fmt = format_of(path)
    data = Path(path).read_bytes()
    try:
        return parse_text(decode(data), fmt, ruleset)
    except RecordParseError as exc:
        raise exc.with_path(str(path)) from None


def render(record: GameRecord, fmt: str) -> tuple[str, str]:
    """(text, encoding) of the record in a format name of FORMAT_EXTENSIONS."""
    if fmt == "kif":
        return write_kif(record, "Shift_JIS"), "cp932"
    if fmt == "kifu":
        return write_kif(record, "UTF-8"), "utf-8"
    if fmt == "ki2":
        return write_ki2(record, "Shift_JIS"), "cp932"
    if fmt == "ki2u":
        return write_ki2(record, "UTF-8"), "utf-8"
    if fmt == "csa":
        return write_csa(record), "utf-8"
    if fmt == "csa3":
        return write_csa(record, version="3.0"), "utf-8"
    if fmt == "jkf":
        return write_jkf(record), "utf-8"
    if fmt == "sfen":
        return write_sfen(record), "utf-8"
    if fmt == "usi":
        return write_usi(record), "utf-8"
    raise UnknownFormatError(f"unknown record format {fmt!r}")


def encode(text: str, encoding: str) -> bytes:
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start : exc.end]
        raise RecordWriteError(
            f"{bad!r} cannot be written in {encoding}; use a UTF-8 format (.kifu, .ki2u)"
        ) from None


def fsync_directory(directory: Path) -> None:
    """Make a rename or a new file in ``directory`` durable."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` so that a crash leaves the old file or the new one, never
    a torn one: a temporary file in the same directory, flushed and fsynced, renamed over
    the target, then the directory fsynced."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_directory(target.parent)
    return target


def write_file(record: GameRecord, path: str | os.PathLike[str], fmt: str | None = None) -> Path:
    """Write the record atomically; the format (and encoding) from ``fmt`` or from the
    extension: .kif Shift_JIS KIF, .kifu UTF-8 KIF, .ki2 / .ki2u, .csa (V2.2), .jkf,
    .json, .sfen, .usi. ``fmt="csa3"`` writes CSA V3.0."""
    if fmt is None:
        ext = Path(path).suffix.lower()
        if ext not in EXTENSIONS:
            raise UnknownFormatError(f"{path}: unknown record extension {ext!r}")
        fmt = {".kifu": "kifu", ".ki2u": "ki2u", ".json": "jkf"}.get(ext, EXTENSIONS[ext][0])
    text, encoding = render(record, fmt)
    if encoding == "cp932":
        try:
            text.encode("cp932")
        except UnicodeEncodeError:
            # Names or comments Shift_JIS cannot hold: say so in the file, keep everything.
            text = text.replace("encoding=Shift_JIS", "encoding=UTF-8", 1)
            encoding = "utf-8"
    return atomic_write(path, encode(text, encoding))
