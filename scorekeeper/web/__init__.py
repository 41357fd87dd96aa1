"""HTML and JSON blueprints: thin adapters that parse input, call a service and render."""

from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Attach every blueprint of the web layer to the app."""
    from scorekeeper.web.api import bp as api_bp
    from scorekeeper.web.main import bp as main_bp

    app.register_blueprint(main_bp)
    app.register_blueprint(api_bp)

    from scorekeeper.web.errors import register_error_handlers

    register_error_handlers(app)
