"""The shape of what a phone sends, by screen: marshmallow schemas with a message per field (shape
only; whether a well-formed entry is legal is the rules' business)."""
