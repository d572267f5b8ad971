"""How the app shows seats, for every game: a colour per seat and a LAN seat's connection
state as a short word. The shell (lobby, replay, saved games) and each game's screens use
these, so a seat looks the same everywhere."""

from __future__ import annotations

from rich.text import Text

#: Player colours by seat; the seat digit is always drawn too (colour is never the only cue).
PLAYER_COLOURS: dict[str, str] = {
    "P1": "#5fd7ff", "P2": "#ff6f6f", "P3": "#87e05f", "P4": "#ffd75f",
    "P5": "#d787ff", "P6": "#ffaf5f",
}


def player_colour(seat: str) -> str:
    """The colour of ``seat`` (white for unknown seats)."""
    return PLAYER_COLOURS.get(seat, "white")


SEAT_STATUS = {
    "host": ("host", "bold #5fd7ff"),
    "bot": ("bot", "#af87ff"),
    "free": ("free", "dim"),
    "connected": ("online", "bold green"),
    "disconnected": ("offline", "bold red"),
}
"""How a LAN seat's connection state is shown: (word, style)."""


def seat_status_text(status: str) -> Text:
    """A LAN seat's connection state (host, bot, free, connected, disconnected) as a short
    coloured word: host · bot · free · online · offline."""
    word, style = SEAT_STATUS.get(status, (status or "?", "dim"))
    return Text(word, style)
