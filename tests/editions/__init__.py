"""Edition files: the library of edits and the format document."""
