"""The OpenAPI 3.1 description of /api/v1 (filled in by the API documentation work)."""

OPENAPI: dict = {"openapi": "3.1.0", "info": {"title": "Scorekeeper", "version": "1"}, "paths": {}}
