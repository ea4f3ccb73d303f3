# Flask-Talisman 1.1: the one class the app uses (https://github.com/wntrblm/flask-talisman).
from typing import Any

from flask import Flask

class Talisman:
    def __init__(self, app: Flask | None = ..., **kwargs: Any) -> None: ...
    def init_app(self, app: Flask, **kwargs: Any) -> None: ...
