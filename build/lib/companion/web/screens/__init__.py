"""What a page shows: the context its templates draw from (the game, the map of Hell, Florence,
the history, the score sheet, the tally sheet, charts...) and the parts a phone refreshes."""
