"""Make docs/tatlock.png: the TUI's main screen mid-conversation with the Debug pane open.

    .venv/bin/pip install cairosvg      # once (needs the cairo library: apt-get install libcairo2)
    .venv/bin/python scripts/tui_screenshot.py [--out docs/tatlock.png] [--svg FILE]

The scene is the snapshot tests' (tests/support/tui_scene.py): a conversation with fixed times in a
temporary TATLOCK_HOME, the fake model server, one turn's events in the Debug pane. Textual
exports the screen as SVG; cairosvg turns it into PNG, with DejaVu Sans Mono standing in for
the SVG's Fira Code so the cells line up without that font installed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def to_png(svg: str, out: Path) -> None:
    import cairosvg

    svg = re.sub(r"font-family:[^;\"]*", "font-family: DejaVu Sans Mono", svg).replace(
        '"Fira Code"', '"DejaVu Sans Mono"'
    )
    cairosvg.svg2png(bytestring=svg.encode(), write_to=str(out), output_width=1600)


async def shoot() -> str:
    import tatlock
    from support.tui_scene import seed, stage
    from tatlock import config
    from tatlock.tui.app import TatlockApp

    seed(config.load().paths)
    with tatlock.open(interface="tui") as butler:
        app = TatlockApp(butler)
        async with app.run_test(size=(160, 45)) as pilot:
            await stage(app, pilot)
            return app.export_screenshot(title="tatlock")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "tatlock.png"))
    ap.add_argument("--svg", help="also keep the SVG here")
    args = ap.parse_args()
    from support.fake_ollama import FakeOllama

    with tempfile.TemporaryDirectory() as tmp, FakeOllama() as fake:
        os.environ.update(
            TATLOCK_HOME=tmp,
            TATLOCK_USER="tester",
            TATLOCK_TIER="low",
            OLLAMA_HOST=fake.url,
            TATLOCK_MODEL="llama3.2:3b",
            TZ="UTC",
        )
        time.tzset()
        try:
            import time_machine
        except ImportError:  # times then follow the clock: fine for a picture
            svg = asyncio.run(shoot())
        else:
            from support.tui_scene import NOW

            with time_machine.travel(NOW, tick=False):
                svg = asyncio.run(shoot())
    if args.svg:
        Path(args.svg).write_text(svg, encoding="utf-8")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    to_png(svg, out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
