"""The shogi position: SFEN, legal move generation, push/pop and the JSA rules of play."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from board_bridge.shogi.core import (
    BLACK,
    HAND_PIECE_TYPES,
    KING,
    KNIGHT,
    PAWN,
    PIECE_SYMBOLS,
    PROMOTABLE,
    PROMOTION_OFFSET,
    WHITE,
    Color,
    IllegalMoveError,
    IllegalReason,
    InvalidSfenError,
    Move,
    Piece,
    PieceType,
    Square,
    piece_type_from_symbol,
    piece_type_symbol,
)
from board_bridge.shogi.rules import Outcome, Ruleset, declare, outcome
from board_bridge.shogi.tables import (
    ATTACK_RAYS,
    ATTACK_STEPS,
    BETWEEN,
    DROP_DEAD,
    MAY_PROMO,
    NO_PROMO,
    SLIDES,
    STEP_TARGETS,
    STEPS,
    ZOBRIST_HAND,
    ZOBRIST_PIECE,
    ZOBRIST_TURN,
    in_zone,
    is_dead_square,
)

STARTING_SFEN: Final = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

# Internal move encoding: to | from << 7 | PROMO_BIT; a drop has from = DROP_BASE + piece type.
PROMO_BIT: Final = 1 << 14
DROP_BASE: Final = 81
_FROM_MASK: Final = 127


def encode_move(move: Move) -> int:
    if move.drop_piece_type is not None:
        return move.to_square | (DROP_BASE + move.drop_piece_type) << 7
    assert move.from_square is not None
    return move.to_square | move.from_square << 7 | (PROMO_BIT if move.promotion else 0)


def decode_move(m: int) -> Move:
    fr = (m >> 7) & _FROM_MASK
    if fr >= DROP_BASE:
        return Move(None, m & 127, drop_piece_type=fr - DROP_BASE)
    return Move(fr, m & 127, bool(m & PROMO_BIT))


class Board:
    """A shogi position with its move history.

    ``push()`` trusts its input and ``pop()`` restores the previous position; legality is
    checked at the boundary (``is_legal``, ``check_legal``, ``push_usi``, ``push_legal``).
    """

    def __init__(self, sfen: str | None = STARTING_SFEN) -> None:
        self._b: list[int] = [0] * 81
        self._hands: list[list[int]] = [[0] * 8, [0] * 8]
        self._kings: list[int] = [-1, -1]
        self.turn: Color = BLACK
        self._start_ply = 1
        self._hash = 0
        self._stack: list[tuple[int, int, int]] = []  # (move, captured code, previous hash)
        self._keys: list[int] = []  # position keys before each pushed move
        # the root's SFEN, None until asked for (a copy without its stack is its own root)
        self._root_sfen: str | None = STARTING_SFEN
        self.set_sfen(STARTING_SFEN if sfen is None else sfen)

    # --- SFEN -----------------------------------------------------------------

    def set_sfen(self, sfen: str) -> None:
        """Set the position; clears the move history. Raises InvalidSfenError."""
        parts = sfen.split()
        if parts and parts[0] == "sfen":
            parts = parts[1:]
        if len(parts) not in (3, 4):
            raise InvalidSfenError(f"an SFEN has 3 or 4 fields: {sfen!r}")
        board = [0] * 81
        kings = [-1, -1]
        ranks = parts[0].split("/")
        if len(ranks) != 9:
            raise InvalidSfenError(f"an SFEN board has 9 ranks: {parts[0]!r}")
        for r, rank in enumerate(ranks):
            col = 0
            promoted = False
            for ch in rank:
                if ch.isdigit():
                    if promoted:
                        raise InvalidSfenError(f"'+' before a digit in rank {r + 1}: {rank!r}")
                    col += int(ch)
                elif ch == "+":
                    if promoted:
                        raise InvalidSfenError(f"'++' in rank {r + 1}: {rank!r}")
                    promoted = True
                else:
                    try:
                        pt = piece_type_from_symbol(("+" if promoted else "") + ch)
                    except ValueError as exc:
                        raise InvalidSfenError(f"rank {r + 1}: {exc}") from None
                    if col >= 9:
                        raise InvalidSfenError(f"rank {r + 1} has more than 9 squares: {rank!r}")
                    color = BLACK if ch.isupper() else WHITE
                    sq = r * 9 + col
                    if pt == KING:
                        if kings[color] >= 0:
                            raise InvalidSfenError("more than one king of a side")
                        kings[color] = sq
                    board[sq] = pt | color << 4
                    col += 1
                    promoted = False
            if col != 9 or promoted:
                raise InvalidSfenError(f"rank {r + 1} does not have 9 squares: {rank!r}")
        if parts[1] not in ("b", "w"):
            raise InvalidSfenError(f"the side to move is 'b' or 'w': {parts[1]!r}")
        hands = [[0] * 8, [0] * 8]
        if parts[2] != "-":
            count = ""
            for ch in parts[2]:
                if ch.isdigit():
                    count += ch
                    continue
                try:
                    pt = piece_type_from_symbol(ch)
                except ValueError:
                    raise InvalidSfenError(f"not a hand piece: {ch!r}") from None
                if pt == KING:
                    raise InvalidSfenError("a king cannot be in hand")
                n = int(count) if count else 1
                if not 0 < n <= 18:
                    raise InvalidSfenError(f"bad hand count {count!r}{ch}")
                hands[BLACK if ch.isupper() else WHITE][pt] += n
                count = ""
            if count:
                raise InvalidSfenError(f"hand ends with a count: {parts[2]!r}")
        ply = 1
        if len(parts) == 4:
            try:
                ply = int(parts[3])
            except ValueError:
                raise InvalidSfenError(f"the move number is not a number: {parts[3]!r}") from None
            if ply < 1:
                raise InvalidSfenError(f"the move number must be positive: {ply}")
        self._b = board
        self._hands = hands
        self._kings = kings
        self.turn = BLACK if parts[1] == "b" else WHITE
        self._start_ply = ply
        self._stack = []
        self._keys = []
        self._hash = self._compute_hash()
        self._root_sfen = self.sfen()

    def sfen(self, move_number: bool = True) -> str:
        """The position as SFEN (with the move number, or without for comparisons)."""
        rows = []
        b = self._b
        for r in range(9):
            row = ""
            empty = 0
            for sq in range(r * 9, r * 9 + 9):
                code = b[sq]
                if not code:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                s = piece_type_symbol(code & 15)
                row += s if code >> 4 == BLACK else s.lower()
            if empty:
                row += str(empty)
            rows.append(row)
        hand = ""
        for color in (BLACK, WHITE):
            for pt in HAND_PIECE_TYPES:
                n = self._hands[color][pt]
                if n:
                    s = PIECE_SYMBOLS[pt]
                    hand += (str(n) if n > 1 else "") + (s.upper() if color == BLACK else s)
        out = f"{'/'.join(rows)} {'bw'[self.turn]} {hand or '-'}"
        return f"{out} {self.ply}" if move_number else out

    @property
    def root_sfen(self) -> str:
        """The SFEN of the position the move stack starts from."""
        if self._root_sfen is None:
            root = self.copy()
            while root._stack:
                root._pop()
            self._root_sfen = root.sfen()
        return self._root_sfen

    def _compute_hash(self) -> int:
        h = ZOBRIST_TURN if self.turn == WHITE else 0
        for sq, code in enumerate(self._b):
            if code:
                h ^= ZOBRIST_PIECE[code][sq]
        for color in (BLACK, WHITE):
            for pt in range(1, 8):
                h ^= ZOBRIST_HAND[color][pt][self._hands[color][pt]]
        return h

    # --- queries ----------------------------------------------------------------

    @property
    def ply(self) -> int:
        """The SFEN move number: 1 before the first move of a game."""
        return self._start_ply + len(self._stack)

    @property
    def move_stack(self) -> list[Move]:
        return [decode_move(m) for m, _c, _h in self._stack]

    @property
    def pieces_in_hand(self) -> tuple[dict[PieceType, int], dict[PieceType, int]]:
        """(black's hand, white's hand), each {piece type: count} of the pieces held."""
        return (
            {pt: n for pt in HAND_PIECE_TYPES if (n := self._hands[BLACK][pt])},
            {pt: n for pt in HAND_PIECE_TYPES if (n := self._hands[WHITE][pt])},
        )

    def hand_count(self, color: Color, piece_type: PieceType) -> int:
        return self._hands[color][piece_type]

    def piece_at(self, sq: Square) -> Piece | None:
        code = self._b[sq]
        return Piece(code & 15, code >> 4) if code else None

    def occupied(self) -> list[bool]:
        """Which squares hold a piece (what an occupancy sensor sees), in square order."""
        return [bool(c) for c in self._b]

    def king_square(self, color: Color) -> Square | None:
        k = self._kings[color]
        return k if k >= 0 else None

    def position_key(self) -> int:
        """A hash of board, hands and side to move (what sennichite compares)."""
        return self._hash

    def copy(self, stack: bool = True) -> Board:
        board = Board.__new__(Board)
        board._b = self._b[:]
        board._hands = [self._hands[0][:], self._hands[1][:]]
        board._kings = self._kings[:]
        board.turn = self.turn
        board._hash = self._hash
        if stack:
            board._start_ply = self._start_ply
            board._stack = self._stack[:]
            board._keys = self._keys[:]
            board._root_sfen = self._root_sfen
        else:
            board._start_ply = self.ply
            board._stack = []
            board._keys = []
            board._root_sfen = None  # (worked out if asked for: copies are many)
        return board

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self._b == other._b
            and self._hands == other._hands
            and self.turn == other.turn
        )

    def __repr__(self) -> str:
        return f"Board({self.sfen()!r})"

    def __str__(self) -> str:
        lines = []
        for r in range(9):
            cells = []
            for sq in range(r * 9, r * 9 + 9):
                code = self._b[sq]
                if not code:
                    cells.append(" .")
                    continue
                s = piece_type_symbol(code & 15)
                cells.append(s.rjust(2) if code >> 4 == BLACK else s.lower().rjust(2))
            lines.append("".join(cells))
        hands = self.pieces_in_hand
        fmt = " ".join
        white = fmt(f"{piece_type_symbol(pt).lower()}{n}" for pt, n in hands[WHITE].items())
        black = fmt(f"{piece_type_symbol(pt)}{n}" for pt, n in hands[BLACK].items())
        return f"white hand: {white or '-'}\n" + "\n".join(lines) + f"\nblack hand: {black or '-'}"

    # --- attacks ----------------------------------------------------------------

    def _attacked(self, sq: int, by: int) -> bool:
        b = self._b
        for src, codes in ATTACK_STEPS[by][sq]:
            if b[src] in codes:
                return True
        for ray, codes in ATTACK_RAYS[by][sq]:
            for s in ray:
                q = b[s]
                if q:
                    if q in codes:
                        return True
                    break
        return False

    def is_attacked_by(self, color: Color, sq: Square) -> bool:
        return self._attacked(sq, color)

    def attackers(self, color: Color, sq: Square) -> list[Square]:
        """Squares of ``color``'s pieces that attack ``sq``."""
        b = self._b
        out = [src for src, codes in ATTACK_STEPS[color][sq] if b[src] in codes]
        for ray, codes in ATTACK_RAYS[color][sq]:
            for s in ray:
                q = b[s]
                if q:
                    if q in codes:
                        out.append(s)
                    break
        return out

    def is_check(self) -> bool:
        k = self._kings[self.turn]
        return k >= 0 and self._attacked(k, self.turn ^ 1)

    def checkers(self) -> list[Square]:
        k = self._kings[self.turn]
        return self.attackers(self.turn ^ 1, k) if k >= 0 else []

    # --- move generation --------------------------------------------------------

    def _gen(self) -> list[int]:
        """All legal moves of the side to move, encoded (see ``encode_move``)."""
        b = self._b
        c = self.turn
        them = c ^ 1
        ksq = self._kings[c]
        moves: list[int] = []
        append = moves.append
        checkers: list[int] = []
        pinned: dict[int, frozenset[int]] = {}
        if ksq >= 0:
            for src, codes in ATTACK_STEPS[them][ksq]:
                if b[src] in codes:
                    checkers.append(src)
            for ray, codes in ATTACK_RAYS[them][ksq]:
                own = -1
                for i, s in enumerate(ray):
                    q = b[s]
                    if q:
                        if q >> 4 == c:
                            if own >= 0:
                                break
                            own = s
                        else:
                            if q in codes:
                                if own >= 0:
                                    pinned[own] = frozenset(ray[: i + 1])
                                else:
                                    checkers.append(s)
                            break
        nchk = len(checkers)
        mask: frozenset[int] | None = None
        block: frozenset[int] | None = None
        if nchk == 1:
            block = BETWEEN[ksq][checkers[0]]
            mask = block | {checkers[0]}
        pawn_cols = [False] * 9
        own_pawn = PAWN | c << 4
        for fr in range(81):
            p = b[fr]
            if not p or p >> 4 != c:
                continue
            if p == own_pawn:
                pawn_cols[fr % 9] = True
            if fr == ksq:
                b[fr] = 0
                for t in STEP_TARGETS[p][fr]:
                    q = b[t]
                    if q and q >> 4 == c:
                        continue
                    if not self._attacked(t, them):
                        append(t | fr << 7)
                b[fr] = p
                continue
            if nchk > 1:
                continue
            allowed = pinned.get(fr)
            base = fr << 7
            for t, pf in STEPS[p][fr]:
                q = b[t]
                if q and q >> 4 == c:
                    continue
                if (mask is not None and t not in mask) or (
                    allowed is not None and t not in allowed
                ):
                    continue
                if pf == NO_PROMO:
                    append(t | base)
                elif pf == MAY_PROMO:
                    append(t | base | PROMO_BIT)
                    append(t | base)
                else:
                    append(t | base | PROMO_BIT)
            for slide in SLIDES[p][fr]:
                for t, pf in slide:
                    q = b[t]
                    if q and q >> 4 == c:
                        break
                    if (mask is None or t in mask) and (allowed is None or t in allowed):
                        if pf == NO_PROMO:
                            append(t | base)
                        elif pf == MAY_PROMO:
                            append(t | base | PROMO_BIT)
                            append(t | base)
                        else:
                            append(t | base | PROMO_BIT)
                    if q:
                        break
        if nchk > 1:
            return moves
        hand = self._hands[c]
        if any(hand):
            if block is not None:
                targets = [t for t in block]
            elif nchk:
                return moves
            else:
                targets = [t for t in range(81) if not b[t]]
            dead = DROP_DEAD[c]
            ek = self._kings[them]
            pawn_mate_sq = -1
            if ek >= 0:
                pawn_mate_sq = ek + 9 if c == BLACK else ek - 9
            for pt in range(1, 8):
                if not hand[pt]:
                    continue
                base = (DROP_BASE + pt) << 7
                if pt == PAWN:
                    dd = dead[PAWN]
                    for t in targets:
                        if dd[t] or pawn_cols[t % 9]:
                            continue
                        if t == pawn_mate_sq and self._is_pawn_drop_mate(t):
                            continue
                        append(t | base)
                elif pt <= KNIGHT:
                    dd = dead[pt]
                    for t in targets:
                        if not dd[t]:
                            append(t | base)
                else:
                    for t in targets:
                        append(t | base)
        return moves

    def _is_pawn_drop_mate(self, sq: int) -> bool:
        """Would dropping a pawn of the side to move on ``sq`` checkmate (uchifuzume)?"""
        m = sq | (DROP_BASE + PAWN) << 7
        self._push(m)
        mate = not self._gen()
        self._pop()
        return mate

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves of the side to move."""
        return [decode_move(m) for m in self._gen()]

    def has_legal_move(self) -> bool:
        return bool(self._gen())

    def legal_moves_from(self, sq: Square) -> list[Move]:
        """The legal moves of the piece on ``sq`` (the lifted-piece LED targets)."""
        return [decode_move(m) for m in self._gen() if (m >> 7) & _FROM_MASK == sq]

    def legal_drops(self, piece_type: PieceType | None = None) -> list[Move]:
        out = []
        for m in self._gen():
            fr = (m >> 7) & _FROM_MASK
            if fr >= DROP_BASE and (piece_type is None or fr - DROP_BASE == piece_type):
                out.append(decode_move(m))
        return out

    # --- legality at the boundary ---------------------------------------------

    def illegal_reason(self, move: Move) -> IllegalReason | None:
        """None if the move is legal, else why not."""
        c = self.turn
        b = self._b
        to = move.to_square
        if move.drop_piece_type is not None:
            pt = move.drop_piece_type
            if pt >= KING or not self._hands[c][pt]:
                return IllegalReason.NOT_IN_HAND
            if b[to]:
                return IllegalReason.SQUARE_OCCUPIED
            if DROP_DEAD[c][pt][to]:
                return IllegalReason.DEAD_PIECE
            if pt == PAWN:
                own_pawn = PAWN | c << 4
                if any(b[r * 9 + to % 9] == own_pawn for r in range(9)):
                    return IllegalReason.NIFU
        else:
            fr = move.from_square
            assert fr is not None
            p = b[fr]
            if not p:
                return IllegalReason.NO_PIECE
            if p >> 4 != c:
                return IllegalReason.NOT_OWN_PIECE
            q = b[to]
            if q and q >> 4 == c:
                return IllegalReason.CAPTURES_OWN_PIECE
            if to not in STEP_TARGETS[p][fr]:
                ray_hit = None
                for ray in SLIDES[p][fr]:
                    for i, (t, _pf) in enumerate(ray):
                        if t == to:
                            ray_hit = [s for s, _ in ray[:i]]
                            break
                    if ray_hit is not None:
                        break
                if ray_hit is None:
                    return IllegalReason.NOT_A_MOVE_OF_THAT_PIECE
                if any(b[s] for s in ray_hit):
                    return IllegalReason.PATH_BLOCKED
            pt = p & 15
            zone = in_zone(c, fr) or in_zone(c, to)
            if move.promotion and (pt not in PROMOTABLE or not zone):
                return IllegalReason.CANNOT_PROMOTE
            if not move.promotion and is_dead_square(c, pt, to):
                return IllegalReason.DEAD_PIECE
        if encode_move(move) in self._gen():
            return None
        if move.drop_piece_type == PAWN and not self.is_check():
            return IllegalReason.PAWN_DROP_MATE
        return IllegalReason.KING_IN_CHECK

    def is_legal(self, move: Move) -> bool:
        return encode_move(move) in self._gen()

    def check_legal(self, move: Move) -> None:
        """Raise IllegalMoveError, with its reason, unless the move is legal."""
        reason = self.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(move, reason)

    def push_legal(self, move: Move) -> None:
        self.check_legal(move)
        self.push(move)

    def push_usi(self, usi: str) -> Move:
        """Parse, check and play a USI move. Raises InvalidMoveError or IllegalMoveError."""
        move = Move.from_usi(usi)
        self.push_legal(move)
        return move

    def gives_check(self, move: Move) -> bool:
        self.push(move)
        try:
            return self.is_check()
        finally:
            self.pop()

    def is_capture(self, move: Move) -> bool:
        return move.from_square is not None and bool(self._b[move.to_square])

    # --- making moves -----------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play a move; it is trusted (check it first at the boundary)."""
        self._push(encode_move(move))

    def _push(self, m: int) -> None:
        b = self._b
        c = self.turn
        to = m & 127
        fr = (m >> 7) & _FROM_MASK
        h = self._hash
        self._keys.append(h)
        hand = self._hands[c]
        zh = ZOBRIST_HAND[c]
        if fr >= DROP_BASE:
            pt = fr - DROP_BASE
            code = pt | c << 4
            n = hand[pt]
            hand[pt] = n - 1
            h ^= zh[pt][n] ^ zh[pt][n - 1] ^ ZOBRIST_PIECE[code][to]
            b[to] = code
            captured = 0
        else:
            p = b[fr]
            captured = b[to]
            if captured:
                cpt = captured & 15
                if cpt > KING:
                    cpt -= PROMOTION_OFFSET
                n = hand[cpt]
                hand[cpt] = n + 1
                h ^= zh[cpt][n] ^ zh[cpt][n + 1] ^ ZOBRIST_PIECE[captured][to]
            np = p + PROMOTION_OFFSET if m & PROMO_BIT else p
            b[fr] = 0
            b[to] = np
            h ^= ZOBRIST_PIECE[p][fr] ^ ZOBRIST_PIECE[np][to]
            if p & 15 == KING:
                self._kings[c] = to
        self._stack.append((m, captured, self._hash))
        self._hash = h ^ ZOBRIST_TURN
        self.turn = c ^ 1

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self._stack:
            raise IndexError("pop from an empty move stack")
        m = self._stack[-1][0]
        self._pop()
        return decode_move(m)

    def _pop(self) -> None:
        m, captured, h = self._stack.pop()
        self._keys.pop()
        self._hash = h
        c = self.turn ^ 1
        self.turn = c
        b = self._b
        to = m & 127
        fr = (m >> 7) & _FROM_MASK
        hand = self._hands[c]
        if fr >= DROP_BASE:
            hand[fr - DROP_BASE] += 1
            b[to] = 0
            return
        p = b[to]
        if m & PROMO_BIT:
            p -= PROMOTION_OFFSET
        b[fr] = p
        b[to] = captured
        if captured:
            cpt = captured & 15
            if cpt > KING:
                cpt -= PROMOTION_OFFSET
            hand[cpt] -= 1
        if p & 15 == KING:
            self._kings[c] = fr

    def peek(self) -> Move | None:
        return decode_move(self._stack[-1][0]) if self._stack else None

    def captured_piece_type(self, index: int = -1) -> PieceType | None:
        """The type captured by a move of the stack (the last by default), if any."""
        captured = self._stack[index][1]
        return captured & 15 if captured else None

    # --- game state -----------------------------------------------------------

    def is_checkmate(self) -> bool:
        return self.is_check() and not self._gen()

    def outcome(self, ruleset: Ruleset | None = None) -> Outcome | None:
        """How the game has ended by the position itself (mate, sennichite, try, move
        limit), or None while it goes on. Resignation, time and declarations are events the
        caller records; see :func:`board_bridge.shogi.rules.declare`."""
        return outcome(self, ruleset)

    def is_game_over(self, ruleset: Ruleset | None = None) -> bool:
        return outcome(self, ruleset) is not None

    def declare(self, ruleset: Ruleset | None = None) -> Outcome:
        """The side to move declares an entering-king win (jishogi); judged by the ruleset."""
        return declare(self, ruleset or Ruleset())

    def perft(self, depth: int) -> int:
        """The number of leaf positions ``depth`` plies down (a move-generator test)."""
        if depth <= 0:
            return 1
        moves = self._gen()
        if depth == 1:
            return len(moves)
        n = 0
        push, pop, perft = self._push, self._pop, self.perft
        for m in moves:
            push(m)
            n += perft(depth - 1)
            pop()
        return n

    def repetitions(self) -> int:
        """How many times the current position (board, hands, side to move) has occurred."""
        h = self._hash
        return 1 + sum(1 for k in self._keys if k == h)

    def history_keys(self) -> list[int]:
        """Position keys before each move of the stack, then the current one."""
        return [*self._keys, self._hash]

    def iter_positions(self) -> Iterator[Board]:
        """Replays the game from its root position, yielding each position (root first)."""
        board = Board(self.root_sfen)
        yield board.copy(stack=False)
        for m, _c, _h in self._stack:
            board._push(m)
            yield board.copy(stack=False)

    def to_usi_position(self) -> str:
        """The USI ``position`` command argument: ``sfen ... moves ...`` or ``startpos ...``."""
        root = self.root_sfen
        head = "startpos" if root == STARTING_SFEN else f"sfen {root}"
        moves = " ".join(decode_move(m).usi() for m, _c, _h in self._stack)
        return f"{head} moves {moves}" if moves else head

    def board_cells(self) -> list[int]:
        """Piece codes of the 81 squares (0 empty; type | color << 4)."""
        return self._b[:]
