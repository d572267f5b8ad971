"""Waiting on a condition in the async LAN tests, never a fixed sleep (the deadline only
turns a hang into a failure)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


async def until(cond: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Wait until ``cond()`` holds (the deadline only turns a hang into a failure)."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)
