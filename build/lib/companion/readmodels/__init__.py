"""The read side: what a game's log says once folded for a purpose other than play (a state as
plain data, a score breakdown as data and text, the time at the table, a phone's games and
figures). Read-only; nothing here decides or records."""
