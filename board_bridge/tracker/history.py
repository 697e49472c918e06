"""What each square did since the current move began: when it was emptied and refilled."""

from __future__ import annotations

Interval = tuple[float, float | None]  # (emptied at, refilled at or None while still empty)


class SquareHistory:
    """Occupancy transitions per square, pruned as the tracker's windows move forward.

    Only occupancy is kept (a face turning over is not a lift). Queries look at *lifts*:
    intervals during which a square read empty, leaving out contact bounce: an opening
    shorter than ``min_lift``, or one shorter than ``bounce`` that follows a contact shorter
    than ``bounce`` (the chatter of a piece landing) or that a lasting opening follows
    within ``bounce`` (the chatter of a piece lifted). One still going on always counts.
    """

    __slots__ = ("_tr", "min_lift", "bounce", "epoch")

    # a contact this long after a lasting opening is a piece that stands: nobody takes a
    # piece sooner after it landed (TrackerParams.min_reply), so an opening shorter than
    # ``bounce`` before then is its landing's chatter, not a swap
    LANDED = 0.1
    # a landing's chatter, as a 100 Hz scan stretches it, ends this soon after its first
    # contact: an opening that ends sooner is part of the landing, however long it read
    # (a few ms off and on again, sampled every 10 ms, can read 20 or 30 ms empty)
    CHATTER = 0.05

    def __init__(self, min_lift: float, bounce: float = 0.0) -> None:
        self.min_lift = min_lift
        self.bounce = bounce
        self._tr: list[list[tuple[float, bool]]] = [[] for _ in range(81)]
        # changes when transitions are forgotten: answers about the past may change then
        # (appending new transitions never changes an answer bounded by an earlier ``until``)
        self.epoch = 0

    def clear(self) -> None:
        self.epoch += 1
        for tr in self._tr:
            tr.clear()

    def copy(self) -> SquareHistory:
        other = SquareHistory(self.min_lift, self.bounce)
        other._tr = [tr[:] for tr in self._tr]
        other.epoch = self.epoch
        return other

    def record(self, sq: int, t: float, occupied: bool) -> None:
        self._tr[sq].append((t, occupied))

    def forget(self, sq: int, since: float) -> None:
        """Drop the changes of ``sq`` from ``since`` on (a lift read as never made)."""
        self._tr[sq] = [(t, occupied) for t, occupied in self._tr[sq] if t < since]

    def prune(self, before: float) -> None:
        """Forget transitions before ``before`` (queries never look further back)."""
        for tr in self._tr:
            if tr and tr[0][0] < before:
                i = 0
                while i < len(tr) and tr[i][0] < before:
                    i += 1
                del tr[:i]
                self.epoch += 1

    def fills(self, sq: int, since: float, until: float) -> list[float]:
        """When ``sq`` went from empty to occupied after ``since`` and before ``until``."""
        return [t for t, occupied in self._tr[sq] if occupied and since < t < until]

    def last_fill(self, sq: int, until: float = float("inf")) -> float | None:
        """When ``sq`` last went from empty to occupied (before ``until``)."""
        for t, occupied in reversed(self._tr[sq]):
            if occupied and t < until:
                return t
        return None

    def empty_at(self, sq: int, t: float) -> bool | None:
        """Was ``sq`` empty at time ``t`` (a change at ``t`` itself counts: one frame may
        show a lift and a placement)? None if no change of it is known."""
        state: bool | None = None
        for when, occupied in self._tr[sq]:
            if when > t:
                break
            state = not occupied
        return state

    def left_by(self, sq: int, t: float, overlap: float) -> bool:
        """Had the piece on ``sq`` left it by time ``t``, or within ``overlap`` after (a
        piece slid onto the next square closes that square's switch before its own opens)?
        Its square opening at any time in that while counts, not only still open at its end:
        the piece slid on may be pushed back over its square a moment."""
        if self.empty_at(sq, t):
            return True
        opened = self.emptied_after(sq, t)
        return opened is not None and opened <= t + overlap

    def last_change(self, sq: int) -> float | None:
        tr = self._tr[sq]
        return tr[-1][0] if tr else None

    def lifts(self, sq: int, since: float, until: float = float("inf")) -> list[Interval]:
        """Empty intervals of ``sq`` that began after ``since`` and before ``until``
        (changes at ``until`` or later are not seen: a refill then counts as still empty).

        Contact chatter is left out: an opening shorter than ``min_lift``, or shorter than
        ``bounce`` when the last steady reading before it was empty (a piece landing). After
        a steady contact, a short opening is a real lift (a fast swap), unless the square
        opens again for good within ``bounce`` (it was the chatter of a lift), and only the
        first of a run of chatter counts (the others are the new piece's landing)."""
        out: list[Interval] = []
        tr = self._tr[sq]
        if not tr:
            return out
        min_lift = self.min_lift
        bounce = self.bounce
        steady_occupied = not tr[0][1]  # the reading before the first change
        prev_t = float("-inf")
        start: float | None = None
        steady_before = steady_occupied
        swap: int | None = None  # the short opening counted in this run of chatter (index)
        # when the square last filled after a lasting opening (or its first change)
        landed = tr[0][0] if tr[0][1] else float("-inf")
        for t, occupied in tr:
            if t >= until:
                break
            steady = t - prev_t >= bounce
            if steady:
                steady_occupied = not occupied  # the interval that just ended was steady
            if occupied:
                if start is not None:
                    length = t - start
                    # the opening [start, t) ends here; steady_occupied now describes it if
                    # it was long, else the last steady reading before it
                    if length >= bounce and t - landed < self.CHATTER:
                        pass  # the landing's chatter, stretched by the scan
                    elif length >= bounce:
                        if swap is not None:
                            del out[swap]  # the chatter that began this lift
                            swap = None
                        if start > since:
                            out.append((start, t))
                        landed = t
                    elif length >= min_lift and steady_before and swap is None and start > since:
                        swap = len(out)
                        out.append((start, t))
                    start = None
            elif start is None:
                if steady:
                    swap = None  # a steady contact: the run of chatter is over
                start = t
                # (a piece that landed less than LANDED ago is not swapped out yet: a
                # 100 Hz scan stretches a landing's chatter to 20 ms on, 10 ms off)
                steady_before = steady_occupied and t - landed >= self.LANDED
            prev_t = t
        if start is not None:
            if swap is not None:
                del out[swap]  # the chatter that began the lift going on
            if start > since:
                out.append((start, None))
        return out

    def filled_between(self, sq: int, lo: float, hi: float) -> bool:
        """Did ``sq`` (empty) read occupied at some time after ``lo`` and before ``hi`` (a
        piece carried over it)?"""
        return any(occupied and lo < t < hi for t, occupied in self._tr[sq])

    def last_refill(self, sq: int, since: float, until: float = float("inf")) -> float | None:
        """When ``sq`` was last refilled after a real lift that began after ``since``."""
        for start, end in reversed(self.lifts(sq, since, until)):
            if end is not None:
                return end
            del start
        return None

    def last_lift(self, sq: int, since: float, until: float = float("inf")) -> float | None:
        """When the last real lift of ``sq`` (after ``since``) began."""
        lifts = self.lifts(sq, since, until)
        return lifts[-1][0] if lifts else None

    def fills_between(self, since: float, until: float = float("inf")) -> list[tuple[float, int]]:
        """(first fill time, square) of squares filled after ``since`` (before ``until``)."""
        out = []
        for sq, tr in enumerate(self._tr):
            first = None
            for i in range(len(tr) - 1, -1, -1):
                t, occupied = tr[i]
                if t <= since:
                    break
                if occupied and t < until:
                    first = t
            if first is not None:
                out.append((first, sq))
        return out

    def emptied_after(self, sq: int, t: float) -> float | None:
        """When ``sq`` next went empty after time ``t``, or None."""
        for when, occupied in self._tr[sq]:
            if when > t and not occupied:
                return when
        return None

    def emptied_between(self, since: float, until: float, exclude: int) -> bool:
        """Did any square but ``exclude`` go empty after ``since`` and before ``until``?"""
        for sq, tr in enumerate(self._tr):
            if sq == exclude:
                continue
            for i in range(len(tr) - 1, -1, -1):
                t, occupied = tr[i]
                if t <= since:
                    break
                if not occupied and t < until:
                    return True
        return False

    def last_gap(self, since: float, until: float, chatter: float) -> float | None:
        """How long before ``until`` the board was still before its last change (a landing
        and its chatter, transitions less than ``chatter`` apart, count as one): the time a
        hand took for its last step. None if fewer than two changes since ``since``."""
        times = sorted(t for tr in self._tr for t, _occupied in tr if since <= t <= until)
        i = len(times) - 1
        while i > 0 and times[i] - times[i - 1] < chatter:
            i -= 1
        return times[i] - times[i - 1] if i > 0 else None

    def first_change(self, since: float, exclude: frozenset[int]) -> float:
        """When a square not in ``exclude`` first changed after ``since`` (inf: none did)."""
        first = float("inf")
        for sq, tr in enumerate(self._tr):
            if sq in exclude:
                continue
            for t, _occupied in tr:
                if t > since:
                    first = min(first, t)
                    break
        return first

    def crossed(self, sq: int, since: float, until: float) -> bool:
        """Was ``sq`` filled after ``since`` and emptied again before ``until`` (a piece
        carried over it)?"""
        filled = False
        for t, occupied in self._tr[sq]:
            if since < t < until:
                if occupied:
                    filled = True
                elif filled:
                    return True
        return False

    def changed_since(self, since: float) -> list[int]:
        """Squares with any transition after ``since``."""
        return [sq for sq in range(81) if self._tr[sq] and self._tr[sq][-1][0] > since]
