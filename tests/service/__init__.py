"""The service: creating, reading, deciding and appending; views, snapshots, corrections, durability."""
