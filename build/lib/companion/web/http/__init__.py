"""Per-request plumbing: the store connection and service of a request, turning a form into a
recorded command and an answer, this phone's signed cookie (seats, remembered games, chosen
edition), htmx request details, security headers, static files and safe "go back" addresses."""
