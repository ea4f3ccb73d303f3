"""What the screens show: the map, the parts a phone refreshes, the score and tally sheets."""
