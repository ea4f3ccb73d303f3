"""Live pages: Server-Sent Events that tell every open page of a game when its log moves and who
is at the table, one notifier per process, and noticing a page that went away."""
