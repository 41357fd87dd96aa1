"""The HTML forms, one module an area (the pages' own: web/<area>.py uses web/forms/<area>.py)."""
