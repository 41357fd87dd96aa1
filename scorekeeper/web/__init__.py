"""HTML and JSON blueprints: thin adapters that parse input, call a service and render."""

from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Attach every blueprint of the web layer, the error handlers, the security headers and
    the household gate (the passphrase, once one is set), and the allowed hosts."""
    from scorekeeper.web.access import register_access
    from scorekeeper.web.api import bp as api_bp
    from scorekeeper.web.clock import bp as clock_bp
    from scorekeeper.web.clock import starts_bp
    from scorekeeper.web.errors import register_error_handlers
    from scorekeeper.web.export import bp as export_bp
    from scorekeeper.web.hosts import register_hosts
    from scorekeeper.web.main import bp as main_bp
    from scorekeeper.web.players import bp as players_bp
    from scorekeeper.web.pwa import bp as pwa_bp
    from scorekeeper.web.rounds import bp as rounds_bp
    from scorekeeper.web.security import register_security_headers
    from scorekeeper.web.sessions import bp as sessions_bp
    from scorekeeper.web.templating import bp as templating_bp
    from scorekeeper.web.tools import bp as tools_bp

    for blueprint in (main_bp, sessions_bp, rounds_bp, api_bp, export_bp):
        app.register_blueprint(blueprint)
    app.register_blueprint(clock_bp)
    app.register_blueprint(starts_bp)
    app.register_blueprint(players_bp)
    app.register_blueprint(pwa_bp)
    app.register_blueprint(tools_bp)
    app.register_blueprint(templating_bp)
    register_error_handlers(app)
    register_security_headers(app)
    register_access(app)
    register_hosts(app)  # its refusal of a foreign Host runs before every other hook
