"""Inferno Companion: a phone-first referee and scorekeeper beside the physical board game."""
