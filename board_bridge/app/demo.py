"""``board-bridge demo``: the daemon on the simulated board with a virtual hand, no hardware."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from board_bridge.app.config import parse_config
from board_bridge.app.daemon import Daemon, DaemonError
from board_bridge.app.player import PlayerReport, ScriptedPlayer
from board_bridge.app.simulated import SimulatedBoard
from board_bridge.shogi import Outcome

#: A Fairy-Stockfish self-play game from the project's corpus (63 plies, ends in mate):
#: the hand's script. Against the engine it is the hand's opening until the engine leaves it.
DEMO_GAME: tuple[str, ...] = tuple(
    [
        "2h6h",
        "7a6b",
        "7g7f",
        "4a4b",
        "5i4h",
        "3c3d",
        "4h3h",
        "5c5d",
        "6g6f",
        "2b4d",
        "7i7h",
        "1c1d",
        "7h6g",
        "5a4a",
        "6g5f",
        "2a3c",
        "4g4f",
        "5d5e",
        "5f4g",
        "4a3b",
        "6i5h",
        "6b5a",
        "4f4e",
        "3c4e",
        "4g4f",
        "4e5g+",
        "5h5g",
        "4b3c",
        "6h5h",
        "3b2b",
        "3h2h",
        "8b3b",
        "N*4e",
        "3c2d",
        "6f6e",
        "3b5b",
        "5g6f",
        "3a3b",
        "6f5e",
        "P*5g",
        "5h5g",
        "4d5e",
        "4f5e",
        "2b2a",
        "5e5d",
        "G*7h",
        "8h6f",
        "P*5f",
        "B*5e",
        "4c4d",
        "5e4d",
        "3b3c",
        "4d3c+",
        "5f5g+",
        "S*3b",
        "5b3b",
        "3c3b",
        "2a3b",
        "6f3c+",
        "3b4a",
        "4e5c",
        "4a3a",
        "R*4a",
    ]
)


@dataclass
class DemoResult:
    outcome: Outcome | None
    records: list[Path] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    report: PlayerReport | None = None

    @property
    def kif(self) -> Path | None:
        return next((p for p in self.records if p.suffix.lower() == ".kif"), None)

    def summary(self) -> str:
        lines = [f"demo over after {len(self.moves)} moves: {self.outcome or 'no result'}"]
        if self.report is not None and self.report.engine_moves_made:
            lines.append(
                f"  the engine's {len(self.report.engine_moves_made)} moves were shown on the "
                "LEDs and made by the virtual hand"
            )
        lines.append(f"KIF written to {self.kif}" if self.kif else "no KIF was written")
        others = [p for p in self.records if p != self.kif]
        if others:
            lines.append("other records: " + ", ".join(map(str, others)))
        return "\n".join(lines)


def demo_config(
    out: Path, *, engine: str | None, speed: float, movetime: int, plain: bool
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "board": {"source": "simulated", "settings": {"step_delay": round(0.3 / speed, 4)}},
        "leds": {
            "sink": "terminal",
            "settings": {"colour": False, "redraw": False} if plain else {},
        },
        "game": {"max_games": 1, "black": "virtual hand", "event": "board-bridge demo"},
        "records": {"directory": str(out), "formats": ["kif", "csa"]},
        "daemon": {"log_level": "warning"},
    }
    if engine is not None:
        data["game"]["engine"] = "white"
        data["engine"] = {"path": engine, "movetime": movetime}
    else:
        data["game"]["white"] = "virtual hand"
    return data


async def run_demo(
    out: Path,
    *,
    engine: str | None,
    moves: int,
    speed: float = 1.0,
    movetime: int = 300,
    plain: bool = False,
    script: tuple[str, ...] = DEMO_GAME,
    **daemon_kwargs: Any,
) -> DemoResult:
    """Play one demo game and return where its records went."""
    config = parse_config(
        demo_config(out, engine=engine, speed=speed, movetime=movetime, plain=plain)
    )
    source = daemon_kwargs.pop("source", None)
    if source is None:
        source = SimulatedBoard(step_delay=0.3 / speed)
    daemon = Daemon(config, source=source, **daemon_kwargs)
    player = ScriptedPlayer(
        daemon,
        source,
        colors=(0,) if engine else (0, 1),
        script=script,
        max_moves=moves,
        think=0.2 / speed,
    )
    run = asyncio.create_task(daemon.run())
    try:
        ready = asyncio.create_task(daemon.ready.wait())
        done, _ = await asyncio.wait([ready, run], timeout=60, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if run in done:
                run.result()  # raises what stopped the daemon
            raise DaemonError("the daemon did not start within 60 s")
        play: asyncio.Task[Any] = asyncio.create_task(player.run())
        finished, _ = await asyncio.wait({run, play}, return_when=asyncio.FIRST_COMPLETED)
        if play in finished:
            play.result()
            await asyncio.wait_for(run, 30)
        else:
            play.cancel()
            run.result()
    finally:
        daemon.stop("demo over")
        if not run.done():
            await run
    game = daemon.game
    outcome, paths = daemon.games_finished[-1] if daemon.games_finished else (None, [])
    return DemoResult(
        outcome,
        [Path(p) for p in paths],
        game.usi_moves() if game else [],
        player.report,
    )
