"""qardlab: Jupyter teaching widgets for card games (The King of Hearts has Five Sons, Hearts)."""

__version__ = "0.1.0"
