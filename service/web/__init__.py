"""The web table: a page served by ``westmarch serve --web-port`` and the Connect protocol
handler it talks to (``http.py``, ``connect.py``); the page itself is ``static/``."""
