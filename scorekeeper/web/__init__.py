"""HTML and JSON blueprints: thin adapters that parse input, call a service and render."""

from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Attach every blueprint of the web layer to the app."""
    from scorekeeper.web.api import bp as api_bp
    from scorekeeper.web.main import bp as main_bp
    from scorekeeper.web.rounds import bp as rounds_bp
    from scorekeeper.web.sessions import bp as sessions_bp

    app.register_blueprint(main_bp)
    app.register_blueprint(sessions_bp)
    app.register_blueprint(rounds_bp)
    app.register_blueprint(api_bp)

    from scorekeeper.web.export import bp as export_bp

    app.register_blueprint(export_bp)

    from scorekeeper.web.errors import register_error_handlers

    register_error_handlers(app)
