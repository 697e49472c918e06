"""Timing constants of the move tracker, each with what it means on a real board."""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class TrackerParams:
    """How long the tracker waits before it believes the sensors (seconds).

    - ``settle``: a board state must stay unchanged this long before the tracker decides
      on it (a move, a correction, an error). Longer than a reed switch's bounce and than
      a sliding piece or a hovering hand takes to cross a square; short enough that the
      board answers at once.
    - ``capture_settle``: a capture is only seen in the history (the target was emptied and
      refilled while the attacker's square was empty); its final occupancy is also that of
      an attacker still held over the board after a neighbour was knocked and put back.
      Unless it cannot be that (the target was lifted first, or swapped out in a few
      hundredths of a second), a capture waits this long instead (an input from the player
      settles it at once; a reply begun meanwhile is read after it).
    - ``capture_settle_max``: slow hands put a knocked piece back and set the held piece
      down more slowly: the capture wait grows to 1.4 times the hands' pace (the upper
      quartile, over the last 13 moves, of the time from the hand's previous change on
      the board to the landing), up to this.
    - ``bounce``: a state shorter than this is contact bounce: it is never shown and never
      taken as an intermediate position. Lifted pieces and their targets are shown once a
      state has lasted this long.
    - ``min_reply``: the shortest time a position must have been shown to count as a move
      the opponent then answered before the board settled. A quick player's hand can be
      on its piece a fifth of a second after the opponent's landed; a hovering hand's
      reading lasts less, and it is not a legal position followed by a legal reply.
    - ``min_lift``: an occupied square must read empty at least this long to count as
      lifted (a fast capture empties its target for tens of milliseconds, a very quick
      hand's for under 5). A switch's bounce opens it for a few: on landing (see
      ``bounce``), and on lifting, where the square opens again for good at once (see
      ``SquareHistory.lifts``).
    - ``overlap``: a piece slid (not lifted) onto a square may close that square's switch
      up to this long before its own square's opens (as read: a matrix scanned at 100 Hz
      sees each end of a push up to 10 ms late). Shorter than any human reaction: a
      square filled earlier than this before a piece left its own holds another piece.
    - ``takeback_settle``: a retraction or take-back whose occupancy is also that of a move
      in progress (the opponent lifting the piece it will capture) is only believed once
      the board has stayed so this long.
    - ``takeback_settle_max``: for slow hands the take-back wait grows to three times the
      hands' pace (see ``capture_settle_max``), up to this.
    - ``held_settle``: a state only another story of a capture explains is shown as the
      error it is in the tracker's story, and that story taken only once the board has
      stayed so this long (three times the hands' pace for slow hands, up to
      ``takeback_settle_max``). The other stories: a capture believed when its wait ran
      out whose attacker was in fact held longer still, then set down on a square it
      could have moved to, nothing else lifted (read as a correction of the capture);
      and a capture read as a held attacker that in fact stood (see docs/tracker.md).
      Meanwhile the state may be an error the player is about to undo: a piece the
      opponent dropped where it may not go, taken back on seeing red. A move that ends
      the game (mate, ...) also stands only after this long (an illegal drop can read
      as a legal mating drop of another kind).
    - ``illegal_settle``: tournament mode: an illegal move left on the board this long (or
      until the clock is pressed) loses the game.
    """

    settle: float = 0.3
    capture_settle: float = 1.0
    capture_settle_max: float = 3.0
    bounce: float = 0.015
    min_reply: float = 0.1
    min_lift: float = 0.002
    overlap: float = 0.08
    takeback_settle: float = 2.0
    takeback_settle_max: float = 5.0
    held_settle: float = 3.0
    illegal_settle: float = 1.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int | float) or value < 0:
                raise ValueError(f"TrackerParams.{f.name} must be a number >= 0: {value!r}")
        if self.capture_settle < self.settle:
            raise ValueError("TrackerParams.capture_settle must be >= settle")
        if self.takeback_settle < self.settle:
            raise ValueError("TrackerParams.takeback_settle must be >= settle")
        if self.bounce > self.settle:
            raise ValueError("TrackerParams.bounce must be <= settle")
