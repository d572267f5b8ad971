"""LAN sessions (zeroconf discovery, lockstep over msgpack). Not built yet: see the LAN issue.

A local game starts no networking at all; nothing here is imported by a local game.
"""
