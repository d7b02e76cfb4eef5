"""What each viewer may see of a game, and its story told in words."""

# domain/build.py decides which build runs before any compiled module of this package loads
import domain  # noqa: F401
